// AtomicFileWriter writes "<target>.tmp-<pid>" and renames it over the target on commit(); the
// target is `path` with symbolic links resolved (core/output_path.h; devices and directories are
// refused). Without commit(), or on SIGINT/SIGTERM (core/interrupt.h), the temp file is removed.
// commit_together() puts several outputs in place as one: all of them or none.
#pragma once

#include <fstream>
#include <initializer_list>
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
  friend void commit_together(std::initializer_list<AtomicFileWriter*> writers);
  // The first half of commit(): flushes, closes and fsyncs the temporary file. Throws IoError
  // when a write failed (the target is untouched).
  void finish_writing();
  // The second half: renames the temporary file over the target.
  void rename_into_place();

  std::string path_;
  std::string temp_path_;
  std::ofstream out_;
  bool written_ = false;
  bool committed_ = false;
};

// Commits `writers` (distinct targets) as one: every temporary file is finished first, so a
// failed write (disk full, file size limit) leaves every target untouched; then they are renamed
// into place in order, and when a rename fails the targets already replaced get their previous
// content back (or are removed if they did not exist) before IoError is thrown. Either every
// output appears or none changes; only a crash between two renames can leave a mixture.
void commit_together(std::initializer_list<AtomicFileWriter*> writers);

// Writes `content` to `path` atomically.
void write_file_atomically(const std::string& path, const std::string& content);

}  // namespace assay::core
