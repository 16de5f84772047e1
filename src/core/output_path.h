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
// and its parent directory does (the command creates it).
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

}  // namespace assay::core
