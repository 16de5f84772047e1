#include "core/atomic_file.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <streambuf>
#include <vector>

#include "core/error.h"
#include "core/interrupt.h"
#include "core/output_path.h"

namespace assay::core {
namespace {

constexpr const char* kTempInfix = ".tmp-";
constexpr const char* kOldInfix = ".old-";

// The temporary file of `path`: beside the file a write to `path` replaces (links resolved).
// Checks `path` first, so a directory or device is refused before anything is created.
std::string temp_path_for(const std::string& path) {
  check_output_file(path);
  return resolve_output_path(path) + kTempInfix + std::to_string(::getpid());
}

// The target of a temporary path made by temp_path_for.
std::string target_of(const std::string& temp_path) {
  return temp_path.substr(0, temp_path.rfind(kTempInfix));
}

// True when `text` is a process id (decimal digits) of no running process.
bool is_dead_pid(const std::string& text) {
  if (text.empty() || text.size() > 9 || text.find_first_not_of("0123456789") != std::string::npos)
    return false;
  const long pid = std::stol(text);
  if (pid <= 0 || pid == ::getpid()) return false;
  return ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
}

// Creates `temp` for writing without following a link and without opening anything that is
// there: O_EXCL refuses an existing entry (a planted link, FIFO or file), which is unlinked once
// (the entry only) before the second and last try.
int create_exclusively(const std::string& temp) {
  constexpr int kFlags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
  int fd = ::open(temp.c_str(), kFlags, 0666);
  if (fd < 0 && errno == EEXIST && ::unlink(temp.c_str()) == 0)
    fd = ::open(temp.c_str(), kFlags, 0666);
  return fd;
}

}  // namespace

// A stream buffer over a file descriptor that keeps the first write error (errno).
class AtomicFileWriter::FdBuffer : public std::streambuf {
 public:
  explicit FdBuffer(int fd) : fd_(fd), buf_(std::size_t{1} << 16) {
    setp(buf_.data(), buf_.data() + buf_.size());
  }
  ~FdBuffer() override { close_fd(); }
  int error() const { return error_; }
  // Writes what is buffered, fsyncs and closes; false (error() set) when anything failed.
  bool finish() {
    const bool flushed = drain();
    if (flushed && ::fsync(fd_) != 0 && errno != EINVAL && error_ == 0) error_ = errno;
    close_fd();
    return error_ == 0;
  }
  void close_fd() {
    if (fd_ >= 0) {
      if (::close(fd_) != 0 && error_ == 0 && errno != EINTR) error_ = errno;
      fd_ = -1;
    }
  }

 protected:
  int_type overflow(int_type ch) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(ch, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(ch);
      pbump(1);
    }
    return traits_type::not_eof(ch);
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  bool drain() {
    if (error_ != 0 || fd_ < 0) {
      setp(buf_.data(), buf_.data() + buf_.size());
      return false;
    }
    const char* p = pbase();
    std::size_t n = static_cast<std::size_t>(pptr() - pbase());
    while (n > 0) {
      const ssize_t w = ::write(fd_, p, n);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) {
        error_ = w < 0 ? errno : EIO;
        break;
      }
      p += w;
      n -= static_cast<std::size_t>(w);
    }
    setp(buf_.data(), buf_.data() + buf_.size());
    return error_ == 0;
  }

  int fd_;
  int error_ = 0;
  std::vector<char> buf_;
};

int remove_stale_temporaries(const std::string& target_path) {
  namespace fs = std::filesystem;
  const fs::path target = resolve_output_path(target_path);
  const std::string dir = target.has_parent_path() ? target.parent_path().string() : ".";
  const std::string name = target.filename().string();
  int removed = 0;
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return 0;
  while (const dirent* e = ::readdir(d)) {
    const std::string entry = e->d_name;
    for (const char* infix : {kTempInfix, kOldInfix}) {
      const std::string prefix = name + infix;
      if (entry.size() > prefix.size() && entry.compare(0, prefix.size(), prefix) == 0 &&
          is_dead_pid(entry.substr(prefix.size()))) {
        if (::unlink((fs::path(dir) / entry).c_str()) == 0) ++removed;
      }
    }
  }
  ::closedir(d);
  return removed;
}

AtomicFileWriter::AtomicFileWriter(std::string path)
    : path_(std::move(path)), temp_path_(temp_path_for(path_)) {
  remove_stale_temporaries(path_);
  register_temp_file(temp_path_);
  const int fd = create_exclusively(temp_path_);
  if (fd < 0) {
    const int err = errno;
    unregister_temp_path(temp_path_);
    throw IoError(SourceLocation{path_},
                  "cannot create the temporary file " + temp_path_ + ": " + std::strerror(err));
  }
  buffer_ = std::make_unique<FdBuffer>(fd);
  out_ = std::make_unique<std::ostream>(buffer_.get());
}

AtomicFileWriter::~AtomicFileWriter() {
  if (!committed_) {
    if (buffer_) buffer_->close_fd();
    std::remove(temp_path_.c_str());
    unregister_temp_path(temp_path_);
  }
}

void AtomicFileWriter::finish_writing() {
  if (written_) return;
  out_->flush();
  const bool stream_ok = static_cast<bool>(*out_);
  if (!buffer_->finish() || !stream_ok) {
    const int err = buffer_->error();
    throw IoError(SourceLocation{path_},
                  std::string("write failed: ") +
                      (err != 0 ? std::strerror(err) : "the output stream failed") +
                      "; the file is left as it was");
  }
  written_ = true;
}

void AtomicFileWriter::rename_into_place() {
  if (std::rename(temp_path_.c_str(), target_of(temp_path_).c_str()) != 0) {
    throw IoError(SourceLocation{path_},
                  std::string("cannot move output into place: ") + std::strerror(errno));
  }
  unregister_temp_path(temp_path_);
  committed_ = true;
}

void AtomicFileWriter::commit() {
  finish_writing();
  rename_into_place();
}

void commit_together(std::initializer_list<AtomicFileWriter*> writers) {
  for (AtomicFileWriter* w : writers) w->finish_writing();
  // The previous content of each target, kept as a hard link until every rename succeeded.
  struct Previous {
    std::string target, backup;  // backup empty: the target did not exist
  };
  std::vector<Previous> previous;
  auto drop_backups = [&] {
    for (const auto& p : previous) {
      if (!p.backup.empty()) {
        std::remove(p.backup.c_str());
        unregister_temp_path(p.backup);
      }
    }
  };
  try {
    for (AtomicFileWriter* w : writers) {
      Previous p{target_of(w->temp_path_), ""};
      if (::access(p.target.c_str(), F_OK) == 0) {
        p.backup = p.target + kOldInfix + std::to_string(::getpid());
        register_temp_file(p.backup);
        std::remove(p.backup.c_str());
        if (::link(p.target.c_str(), p.backup.c_str()) != 0) {
          const int err = errno;
          unregister_temp_path(p.backup);
          throw IoError(SourceLocation{w->path_},
                        std::string("cannot keep the previous file while replacing it: ") +
                            std::strerror(err));
        }
      }
      previous.push_back(std::move(p));
    }
  } catch (...) {
    drop_backups();
    throw;
  }
  std::size_t done = 0;
  try {
    for (AtomicFileWriter* w : writers) {
      w->rename_into_place();
      ++done;
    }
  } catch (...) {
    for (std::size_t i = 0; i < done; ++i) {  // put back what the renames replaced
      const Previous& p = previous[i];
      if (p.backup.empty()) {
        std::remove(p.target.c_str());
      } else if (std::rename(p.backup.c_str(), p.target.c_str()) == 0) {
        unregister_temp_path(p.backup);
      }
    }
    drop_backups();
    throw;
  }
  drop_backups();
}

void write_file_atomically(const std::string& path, const std::string& content) {
  AtomicFileWriter writer(path);
  writer.stream() << content;
  writer.commit();
}

}  // namespace assay::core
