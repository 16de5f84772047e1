// AtomicFileWriter writes "<target>.tmp-<pid>" and renames it over the target on commit(); the
// target is `path` with symbolic links resolved (core/output_path.h; devices and directories are
// refused). Without commit(), or on SIGINT/SIGTERM/SIGHUP (core/interrupt.h), the temp file is
// removed. commit_together() puts several outputs in place as one: all of them or none.
//
// The temporary file is created with open(O_CREAT | O_EXCL | O_NOFOLLOW): a symbolic link, FIFO
// or file planted under its name is never opened (a planted entry is removed first, since only
// the entry is unlinked, never what a link points to; when it cannot be removed the writer
// fails). A temporary file left by an earlier run that was killed (kill -9, a crash) is removed
// by the next writer of the same target: "<target>.tmp-<pid>" and "<target>.old-<pid>" whose
// process no longer exists. Every write is checked: a failed write (disk full, file size limit)
// leaves the target untouched and no temporary file behind.
#pragma once

#include <initializer_list>
#include <memory>
#include <ostream>
#include <string>

namespace assay::core {

class AtomicFileWriter {
 public:
  // Throws IoError when the temporary file cannot be created.
  explicit AtomicFileWriter(std::string path);
  ~AtomicFileWriter();
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

  std::ostream& stream() { return *out_; }
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

  class FdBuffer;
  std::string path_;
  std::string temp_path_;
  std::unique_ptr<FdBuffer> buffer_;
  std::unique_ptr<std::ostream> out_;
  bool written_ = false;
  bool committed_ = false;
};

// Commits `writers` (distinct targets) as one: every temporary file is finished first, so a
// failed write (disk full, file size limit) leaves every target untouched; then they are renamed
// into place in order, and when a rename fails the targets already replaced get their previous
// content back (or are removed if they did not exist) before IoError is thrown. Either every
// output appears or none changes; only a crash between two renames can leave a mixture.
void commit_together(std::initializer_list<AtomicFileWriter*> writers);

// Removes "<target>.tmp-<pid>" and "<target>.old-<pid>" files beside `target` (links resolved)
// whose process <pid> no longer exists: what a killed run left behind. Returns how many.
int remove_stale_temporaries(const std::string& target);

// Writes `content` to `path` atomically.
void write_file_atomically(const std::string& path, const std::string& content);

}  // namespace assay::core
