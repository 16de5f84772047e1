// Checked numeric options for the commands: every count and threshold option is added through
// these helpers, so a bad value is a usage error (exit 2) that names the option and the bound,
// before any file is read. Without them CLI11 parses "-2" into an unsigned count as a huge
// number and accepts "nan" as a threshold.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace assay::cli {

// Inclusive bounds of a count. Use min = 0 only where 0 has a meaning ("all", "off", "none").
struct CountBounds {
  std::uint64_t min = 1;
  std::uint64_t max = 1'000'000'000;
};

// Inclusive bounds of a real-valued option; NaN and infinities are always rejected.
struct FiniteBounds {
  double min = -std::numeric_limits<double>::max();
  double max = std::numeric_limits<double>::max();
  bool min_exclusive = false;  // true: the value must be > min
};

// Accepts only plain decimal digits (no sign, no fraction, no exponent) in [b.min, b.max].
CLI::Validator count_check(CountBounds b);
// Accepts a finite number in the bounds.
CLI::Validator finite_check(FiniteBounds b);

// Adds a count option (integral, std::optional of one, or a vector of them with a delimiter).
template <typename T>
CLI::Option* add_count(CLI::App* cmd, const std::string& name, T& var, const std::string& desc,
                       CountBounds b) {
  return cmd->add_option(name, var, desc)->check(count_check(b));
}

// Adds a real-valued option (double, std::optional<double> or a vector of them).
template <typename T>
CLI::Option* add_finite(CLI::App* cmd, const std::string& name, T& var, const std::string& desc,
                        FiniteBounds b = {}) {
  return cmd->add_option(name, var, desc)->check(finite_check(b));
}

// Output paths, checked while the options are parsed, so a bad output fails before any work:
// a file must be creatable or replaceable as a regular file (links are written through;
// directories, devices and pipes are refused), a directory must be one or be creatable.
CLI::Validator output_file_check();
CLI::Validator output_directory_check();
// Files a command keeps and reuses, checked the same way before the long loads that precede
// their first use: an SQLite store or answer cache (core::check_database_file: readable and
// writable, or creatable) and a cache file (core::check_cache_file: readable, or creatable).
CLI::Validator database_file_check();
CLI::Validator cache_file_check();

// What a path option is to check_command_paths: every option added through the helpers below
// has its role; every other option is an input when its value names a file.
// An input directory's `patterns` name the files the command reads in it; an output
// directory's, the files it writes there (glob patterns relative to the directory).
enum class PathRole { kOutputFile, kKeptFile, kOutputDirectory, kInputDirectory };
void set_path_role(const CLI::Option* option, PathRole role,
                   std::vector<std::string> patterns = {});

// Adds an output-file option (written atomically by the command).
inline CLI::Option* add_output_file(CLI::App* cmd, const std::string& name, std::string& var,
                                    const std::string& desc) {
  CLI::Option* opt = cmd->add_option(name, var, desc)->check(output_file_check());
  set_path_role(opt, PathRole::kOutputFile);
  return opt;
}

// Adds an option naming an SQLite store or answer cache (--store, --cache).
inline CLI::Option* add_database_file(CLI::App* cmd, const std::string& name, std::string& var,
                                      const std::string& desc) {
  CLI::Option* opt = cmd->add_option(name, var, desc)->check(database_file_check());
  set_path_role(opt, PathRole::kKeptFile);
  return opt;
}

// Adds an option naming a cache file that is read, or built and written (--kg-cache).
inline CLI::Option* add_cache_file(CLI::App* cmd, const std::string& name, std::string& var,
                                   const std::string& desc) {
  CLI::Option* opt = cmd->add_option(name, var, desc)->check(cache_file_check());
  set_path_role(opt, PathRole::kKeptFile);
  return opt;
}

// Adds an output-directory option; `writes` are the files the command writes in it, as glob
// patterns relative to it ("summary.json", "mods/*.json").
inline CLI::Option* add_output_directory(CLI::App* cmd, const std::string& name, std::string& var,
                                         const std::string& desc, std::vector<std::string> writes) {
  CLI::Option* opt = cmd->add_option(name, var, desc)->check(output_directory_check());
  set_path_role(opt, PathRole::kOutputDirectory, std::move(writes));
  return opt;
}

// Refuses (core::UsageError, exit 2) a command line whose outputs name one of its inputs
// (core::check_paths_apart). Called by main() for the command given, after parsing and before
// the command runs. Inputs are the values of `cmd`'s other options and positionals that name an
// existing file: the value itself, the part after a "kind:" prefix (lr:FILE, csv:FILE,...), the
// words of a cmd: program line and comma-separated parts. A directory counts through the files
// its option's kInputDirectory patterns name (fair report --in DIR reads DIR/summary.json).
void check_command_paths(const CLI::App& cmd);

// Refuses (core::UsageError) an empty item in a list option of `cmd` given in `args` (the
// command line): "--epsilon 1,,2", "--sizes 1,", where CLI11 would drop it silently.
void check_list_items(const CLI::App& cmd, const std::vector<std::string>& args);

}  // namespace assay::cli
