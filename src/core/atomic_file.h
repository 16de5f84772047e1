// AtomicFileWriter writes "<target>.tmp-<pid>" and renames it over the target on commit(); the
// target is `path` with symbolic links resolved (core/output_path.h; devices and directories are
// refused). Without commit(), or on SIGINT/SIGTERM (core/interrupt.h), the temp file is removed.
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
