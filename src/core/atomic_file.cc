#include "core/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include "core/error.h"
#include "core/interrupt.h"
#include "core/output_path.h"

namespace assay::core {
namespace {

constexpr const char* kTempInfix = ".tmp-";

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

}  // namespace

AtomicFileWriter::AtomicFileWriter(std::string path)
    : path_(std::move(path)), temp_path_(temp_path_for(path_)) {
  register_temp_file(temp_path_);
  out_.open(temp_path_, std::ios::binary | std::ios::trunc);
  if (!out_) {
    const int err = errno;
    unregister_temp_path(temp_path_);
    throw IoError(SourceLocation{path_},
                  std::string("cannot create output file: ") + std::strerror(err));
  }
}

AtomicFileWriter::~AtomicFileWriter() {
  if (!committed_) {
    out_.close();
    std::remove(temp_path_.c_str());
    unregister_temp_path(temp_path_);
  }
}

void AtomicFileWriter::finish_writing() {
  if (written_) return;
  out_.flush();
  const bool ok = static_cast<bool>(out_);
  out_.close();
  if (!ok || out_.fail()) throw IoError(SourceLocation{path_}, "write failed (disk full?)");
  const int fd = ::open(temp_path_.c_str(), O_RDONLY);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
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
        p.backup = p.target + ".old-" + std::to_string(::getpid());
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
