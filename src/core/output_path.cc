#include "core/output_path.h"

#include <fnmatch.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <deque>
#include <filesystem>

#include "core/error.h"

namespace assay::core {
namespace {

namespace fs = std::filesystem;

std::string kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISFIFO(mode)) return "a pipe";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISREG(mode)) return "a regular file";
  return "not a regular file";
}

std::string parent_of(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}

}  // namespace

std::string resolve_output_path(const std::string& path) {
  fs::path p = path;
  for (int depth = 0; depth < 40; ++depth) {
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return p.string();
    std::error_code ec;
    const fs::path target = fs::read_symlink(p, ec);
    if (ec) throw IoError(SourceLocation{path}, "cannot read symbolic link: " + ec.message());
    p = target.is_absolute() ? target : p.parent_path() / target;
  }
  throw IoError(SourceLocation{path}, "too many levels of symbolic links");
}

// True when `p` is a special file system's path (/dev/stdout is a link to /proc/self/fd/1,
// which links to whatever standard output is: replacing it is never what was meant).
static bool is_special(const std::string& p) {
  const std::string abs = fs::absolute(fs::path(p)).lexically_normal().string();
  return abs.starts_with("/proc/") || abs.starts_with("/dev/fd/") || abs == "/dev/stdout" ||
         abs == "/dev/stderr" || abs == "/dev/stdin";
}

void check_output_file(const std::string& path) {
  if (path.empty()) throw UsageError("an output file name is empty");
  const std::string target = resolve_output_path(path);
  if (is_special(path) || is_special(target)) {
    throw IoError(SourceLocation{path},
                  "cannot write an output file here: it is a device or a process's file "
                  "descriptor; leave the option out to write to standard output");
  }
  const std::string via = target == path ? "" : " (a link to " + target + ")";
  struct stat st {};
  if (::stat(target.c_str(), &st) == 0) {
    if (!S_ISREG(st.st_mode)) {
      throw IoError(SourceLocation{path},
                    "cannot write an output file here: it is " + kind_of(st.st_mode) + via +
                        (S_ISDIR(st.st_mode) ? "; give a file name"
                                             : "; leave the option out to write to standard "
                                               "output"));
    }
  }
  const std::string dir = parent_of(target);
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    throw IoError(SourceLocation{path},
                  "cannot write an output file here: directory " + dir + " does not exist" + via);
  }
  if (::access(dir.c_str(), W_OK | X_OK) != 0) {
    throw IoError(SourceLocation{path}, "cannot write an output file here: directory " + dir +
                                            " is not writable (" + std::strerror(errno) + ")" +
                                            via);
  }
}

namespace {

// The checks shared by database and cache files. `what` names the file in messages.
// `write_existing`: an existing file must be writable too, and its directory always.
void check_kept_file(const std::string& path, const char* what, bool write_existing) {
  if (path.empty()) throw UsageError(std::string("the ") + what + " name is empty");
  const std::string target = resolve_output_path(path);
  const std::string via = target == path ? "" : " (a link to " + target + ")";
  const std::string cannot = std::string("cannot use as a ") + what + ": ";
  if (is_special(path) || is_special(target)) {
    throw IoError(SourceLocation{path}, cannot + "it is a device or a process's file descriptor");
  }
  struct stat st {};
  const bool exists = ::stat(target.c_str(), &st) == 0;
  if (exists) {
    if (!S_ISREG(st.st_mode)) {
      throw IoError(SourceLocation{path}, cannot + "it is " + kind_of(st.st_mode) + via +
                                              (S_ISDIR(st.st_mode) ? "; give a file name" : ""));
    }
    if (::access(target.c_str(), write_existing ? R_OK | W_OK : R_OK) != 0) {
      throw IoError(
          SourceLocation{path},
          cannot + (write_existing ? "it is not readable and writable (" : "it is not readable (") +
              std::strerror(errno) + ")" + via);
    }
    if (!write_existing) return;
  }
  const std::string dir = parent_of(target);
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    throw IoError(SourceLocation{path}, cannot + "directory " + dir + " does not exist" + via);
  }
  if (::access(dir.c_str(), W_OK | X_OK) != 0) {
    throw IoError(SourceLocation{path}, cannot + "directory " + dir + " is not writable (" +
                                            std::strerror(errno) + ")" + via);
  }
}

}  // namespace

void check_database_file(const std::string& path) {
  check_kept_file(path, "database", true);
}

void check_cache_file(const std::string& path) {
  check_kept_file(path, "cache file", false);
}

void check_output_directory(const std::string& path) {
  if (path.empty()) throw UsageError("an output directory name is empty");
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (!S_ISDIR(st.st_mode)) {
      throw IoError(SourceLocation{path},
                    "cannot use as output directory: it is " + kind_of(st.st_mode));
    }
    if (::access(path.c_str(), W_OK | X_OK) != 0) {
      throw IoError(SourceLocation{path},
                    std::string("output directory is not writable (") + std::strerror(errno) + ")");
    }
    return;
  }
  // Missing folders are made by the command (the whole chain): the nearest one that exists
  // must be a folder it may write in.
  std::string dir = path;
  for (;;) {
    while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
    dir = parent_of(dir);
    if (::stat(dir.c_str(), &st) == 0) break;
    if (errno != ENOENT && errno != ENOTDIR) {
      throw IoError(SourceLocation{path},
                    "cannot create output directory: " + dir + " (" + std::strerror(errno) + ")");
    }
    if (dir == "/" || dir == ".") break;
  }
  if (!S_ISDIR(st.st_mode)) {
    throw IoError(SourceLocation{path}, "cannot create output directory: " + dir + " is " +
                                            kind_of(st.st_mode) + ", not a folder");
  }
  if (::access(dir.c_str(), W_OK | X_OK) != 0) {
    throw IoError(SourceLocation{path}, "cannot create output directory: " + dir +
                                            " is not writable (" + std::strerror(errno) + ")");
  }
}

namespace {

// A path as compared by check_distinct_outputs and check_paths_apart.
struct Resolved {
  const std::string* option;
  const std::string* path;
  std::string canonical;  // absolute, links and ".." resolved (as far as the path exists)
  bool exists = false;
  dev_t dev = 0;
  ino_t ino = 0;
};

Resolved resolve(const std::string& option, const std::string& path) {
  Resolved r{&option, &path, {}};
  std::error_code ec;
  const std::string target = resolve_output_path(path);
  r.canonical = fs::weakly_canonical(fs::absolute(target, ec), ec).string();
  if (ec) r.canonical = fs::path(target).lexically_normal().string();
  struct stat st {};
  if (::stat(target.c_str(), &st) == 0) r.exists = true, r.dev = st.st_dev, r.ino = st.st_ino;
  return r;
}

bool same_file(const Resolved& a, const Resolved& b) {
  return a.canonical == b.canonical || (a.exists && b.exists && a.dev == b.dev && a.ino == b.ino);
}

}  // namespace

void check_distinct_outputs(const std::vector<std::pair<std::string, std::string>>& outputs) {
  std::vector<Resolved> seen;
  for (const auto& [option, path] : outputs) {
    if (path.empty()) continue;
    Resolved r = resolve(option, path);
    for (const Resolved& o : seen) {
      if (same_file(o, r)) {
        throw UsageError(*o.option + " and " + option + " name the same file (" + *o.path +
                         (*o.path == path ? "" : ", " + path) + "); give different files");
      }
    }
    seen.push_back(std::move(r));
  }
}

void check_paths_apart(const std::vector<NamedPath>& inputs, const std::vector<NamedPath>& outputs,
                       const std::vector<NamedPath>& kept,
                       const std::vector<OutputDirectory>& directories) {
  // Outputs and kept files must be distinct from each other.
  std::vector<std::pair<std::string, std::string>> written;
  for (const auto& o : outputs) written.emplace_back(o.option, o.path);
  for (const auto& k : kept) written.emplace_back(k.option, k.path);
  check_distinct_outputs(written);
  std::vector<Resolved> targets;
  for (const auto& o : outputs)
    if (!o.path.empty()) targets.push_back(resolve(o.option, o.path));
  for (const auto& k : kept)
    if (!k.path.empty()) targets.push_back(resolve(k.option, k.path));
  std::vector<Resolved> dirs;
  for (const auto& d : directories)
    if (!d.path.empty()) dirs.push_back(resolve(d.option, d.path));
  // The files an output directory already holds under the names the command writes: an input
  // may be a hard link of one of them.
  std::deque<std::string> names;
  struct InDirectory {
    Resolved file;
    std::size_t dir;  // index in `directories`
    std::string rel;  // its name relative to the directory
  };
  std::vector<InDirectory> held;
  for (std::size_t di = 0; di < directories.size(); ++di) {
    const auto& d = directories[di];
    if (d.path.empty()) continue;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(d.path, ec), end; !ec && it != end; it.increment(ec)) {
      if (it.depth() >= 1) it.disable_recursion_pending();
      const fs::path rel = it->path().lexically_relative(d.path);
      for (const std::string& pattern : d.writes) {
        if (::fnmatch(pattern.c_str(), rel.c_str(), FNM_PATHNAME) == 0) {
          names.push_back(it->path().string());
          held.push_back({resolve(d.option, names.back()), di, rel.string()});
          break;
        }
      }
    }
  }
  for (const auto& in : inputs) {
    if (in.path.empty()) continue;
    const Resolved r = resolve(in.option, in.path);
    for (const Resolved& t : targets) {
      if (same_file(t, r)) {
        throw UsageError(*t.option + " names the same file as " + in.option + " (" + *t.path +
                         (*t.path == in.path ? "" : ", " + in.path) +
                         "): the command would replace what it reads; give a different file");
      }
    }
    // An input inside an output directory, under a name the command writes there; the input's
    // own name (a link in the directory names a file elsewhere) and its resolved name are both
    // compared.
    for (std::size_t i = 0; i < dirs.size(); ++i) {
      const fs::path dir = dirs[i].canonical;
      for (const std::string& name :
           {fs::absolute(fs::path(in.path)).lexically_normal().string(), r.canonical}) {
        const fs::path rel = fs::path(name).lexically_relative(dir);
        if (rel.empty() || rel.native().starts_with("..")) continue;
        for (const std::string& pattern : directories[i].writes) {
          if (::fnmatch(pattern.c_str(), rel.c_str(), FNM_PATHNAME) == 0) {
            throw UsageError(directories[i].option + " " + directories[i].path + " writes " +
                             rel.string() + ", which " + in.option + " reads (" + in.path +
                             "); give another directory");
          }
        }
      }
    }
    for (const InDirectory& h : held) {  // a hard link elsewhere of a file the directory holds
      if (same_file(h.file, r)) {
        throw UsageError(directories[h.dir].option + " " + directories[h.dir].path + " writes " +
                         h.rel + ", which " + in.option + " reads (" + in.path +
                         ", the same file); give another directory");
      }
    }
  }
}

}  // namespace assay::core
