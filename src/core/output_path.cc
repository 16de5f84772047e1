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

namespace {

// An output directory, resolved, and the files it already holds under the names the command
// writes there (a file the command reads or keeps may be a hard link of one of them).
struct WrittenDirectory {
  const OutputDirectory* dir;
  Resolved resolved;
  std::deque<std::string> names;  // stable addresses for the Resolved entries below
  std::vector<std::pair<Resolved, std::string>> held;  // a file and its name relative to `dir`
};

WrittenDirectory written_directory(const OutputDirectory& d) {
  WrittenDirectory w{&d, resolve(d.option, d.path), {}, {}};
  std::error_code ec;
  for (fs::recursive_directory_iterator it(d.path, ec), end; !ec && it != end; it.increment(ec)) {
    if (it.depth() >= 1) it.disable_recursion_pending();
    const fs::path rel = it->path().lexically_relative(d.path);
    for (const std::string& pattern : d.writes) {
      if (::fnmatch(pattern.c_str(), rel.c_str(), FNM_PATHNAME) == 0) {
        w.names.push_back(it->path().string());
        w.held.emplace_back(resolve(d.option, w.names.back()), rel.string());
        break;
      }
    }
  }
  return w;
}

// Throws when the file `file` names (resolved as `r`; `verb` says what the command does with
// it: "reads", "keeps", "writes") is the directory `w` itself or a file the command writes in
// it: by its own name (a link in the directory names a file elsewhere), its resolved name, or as
// a hard link of a file the directory holds.
void check_outside(const NamedPath& file, const Resolved& r, const std::string& verb,
                   const WrittenDirectory& w) {
  const OutputDirectory& d = *w.dir;
  if (same_file(w.resolved, r)) {
    std::string m = d.option;
    m += " and ";
    m += file.option;
    m += " name the same path (";
    m += file.path;
    m += "): one is written as a directory, the other as a file; give different paths";
    throw UsageError(m);
  }
  const auto refuse = [&](const std::string& rel, const std::string& how) {
    std::string m = d.option;
    m += " " + d.path + " writes " + rel + ", which " + file.option + " " + verb + " (";
    m += file.path + how + "); give another directory";
    throw UsageError(m);
  };
  const fs::path dir = w.resolved.canonical;
  for (const std::string& name :
       {fs::absolute(fs::path(file.path)).lexically_normal().string(), r.canonical}) {
    const fs::path rel = fs::path(name).lexically_relative(dir);
    if (rel.empty() || rel.native().starts_with("..")) continue;
    for (const std::string& pattern : d.writes)
      if (::fnmatch(pattern.c_str(), rel.c_str(), FNM_PATHNAME) == 0) refuse(rel.string(), "");
  }
  for (const auto& [held, rel] : w.held)
    if (same_file(held, r)) refuse(rel, ", the same file");
}

}  // namespace

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
  std::deque<WrittenDirectory> dirs;
  for (const auto& d : directories)
    if (!d.path.empty()) dirs.push_back(written_directory(d));
  for (const auto& in : inputs) {
    if (in.path.empty()) continue;
    const Resolved r = resolve(in.option, in.path);
    for (const Resolved& t : targets) {
      if (same_file(t, r)) {
        std::string m = *t.option;
        m += " names the same file as " + in.option + " (" + *t.path;
        if (*t.path != in.path) m += ", " + in.path;
        m += "): the command would replace what it reads; give a different file";
        throw UsageError(m);
      }
    }
    for (const WrittenDirectory& w : dirs) check_outside(in, r, "reads", w);
  }
  // A store, cache or output file is never a file an output directory receives.
  for (const auto& [files, verb] : {std::pair{&kept, "keeps"}, std::pair{&outputs, "writes"}}) {
    for (const auto& f : *files) {
      if (f.path.empty()) continue;
      const Resolved r = resolve(f.option, f.path);
      for (const WrittenDirectory& w : dirs) check_outside(f, r, verb, w);
    }
  }
}

}  // namespace assay::core
