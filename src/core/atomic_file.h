// AtomicFileWriter writes to "<path>.tmp-<pid>" in the same directory and renames it over
// `path` on commit(), so an interrupted or failed run never leaves a partial output file.
// Destroying the writer without commit() removes the temporary file.
#pragma once

#include <fstream>
#include <string>

namespace assay::core {

class AtomicFileWriter {
 public:
  // Throws IoError when the temporary file cannot be created.
  explicit AtomicFileWriter(std::string path);
  ~AtomicFileWriter();
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

  std::ostream& stream() { return out_; }
  const std::string& path() const { return path_; }
  // Flushes, fsyncs and renames into place. Throws IoError on failure (the target is untouched).
  void commit();

 private:
  std::string path_;
  std::string temp_path_;
  std::ofstream out_;
  bool committed_ = false;
};

// Writes `content` to `path` atomically.
void write_file_atomically(const std::string& path, const std::string& content);

}  // namespace assay::core
