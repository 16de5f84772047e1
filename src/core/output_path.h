// Checks of output paths, made before a command does any work, so a run never computes for an
// hour and then fails on its output (or leaves one output behind after failing on another).
//
// An output file is written through symbolic links: a link is resolved (repeatedly) and the
// file it names is replaced, never the link itself. Directories, devices, pipes and sockets are
// refused as output files (use standard output instead of --out /dev/stdout).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace assay::core {

// The file a write to `path` replaces: `path` with every symbolic link along it resolved at the
// last component (a dangling link resolves to the file it would create). Throws IoError on a
// link loop.
std::string resolve_output_path(const std::string& path);

// Throws IoError naming `path` unless a regular file can be created or replaced there: an
// existing target must be a regular file, and its directory must exist and be writable.
void check_output_file(const std::string& path);

// Throws IoError naming `path` unless it is an existing writable directory, or does not exist
// and the nearest folder above it that exists is writable (the command creates the missing
// folders, as mkdir -p).
void check_output_directory(const std::string& path);

// Throws IoError naming `path` unless an SQLite database (a store or an answer cache, updated
// in place) can be opened there for reading and writing, or created: an existing target (links
// followed) must be a regular file the process may read and write, and its directory must exist
// and be writable (SQLite keeps its journal beside the database).
void check_database_file(const std::string& path);

// Throws IoError naming `path` unless a cache file can be used there: an existing one (links
// followed) must be a regular file the process may read (it is rewritten only when stale); a
// missing one is created, so its directory must exist and be writable.
void check_cache_file(const std::string& path);

// Throws UsageError when two of the (option, path) pairs name the same file (after resolving
// links; also caught when both exist as hard links of one file). Empty paths are ignored.
void check_distinct_outputs(const std::vector<std::pair<std::string, std::string>>& outputs);

// A file or directory an option names, as seen by check_paths_apart.
struct NamedPath {
  std::string option;  // "--out", "--model"
  std::string path;
};

// An output directory and the files a command writes in it: glob patterns relative to it
// ("summary.json", "mods/*.json"; fnmatch rules, '*' does not cross '/').
struct OutputDirectory {
  std::string option;
  std::string path;
  std::vector<std::string> writes;
};

// Throws UsageError (exit 2), before the command reads anything, when a file a command writes
// is one it reads: every output file (and every file an output directory's patterns match) is
// compared with every input, and the outputs with each other. Paths are compared after
// resolving symbolic links (at every level) and "..", and existing files also by device and
// inode, so a hard link is caught too. `kept` are files read and written in place (SQLite
// stores and answer caches): distinct from every input, output and each other. Empty paths are
// ignored. The message names both options and the file.
void check_paths_apart(const std::vector<NamedPath>& inputs, const std::vector<NamedPath>& outputs,
                       const std::vector<NamedPath>& kept,
                       const std::vector<OutputDirectory>& directories);

}  // namespace assay::core
