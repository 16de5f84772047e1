#include "option_checks.h"

#include <fnmatch.h>
#include <sys/stat.h>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>

#include "core/child_process.h"
#include "core/error.h"
#include "core/output_path.h"
#include "recsys/data_spec.h"

namespace assay::cli {

namespace {
std::string format_double(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}
}  // namespace

CLI::Validator count_check(CountBounds b) {
  const std::string range =
      "an integer in [" + std::to_string(b.min) + ", " + std::to_string(b.max) + "]";
  return CLI::Validator(
      [b, range](std::string& s) -> std::string {
        std::uint64_t v = 0;
        const char* first = s.data();
        const char* last = s.data() + s.size();
        const bool digits = !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
        const auto [end, ec] = std::from_chars(first, last, v);
        if (!digits || ec != std::errc() || end != last || v < b.min || v > b.max)
          return "must be " + range + ", got '" + s + "'";
        return {};
      },
      "COUNT in [" + std::to_string(b.min) + "," + std::to_string(b.max) + "]");
}

CLI::Validator finite_check(FiniteBounds b) {
  std::string range;
  const bool has_min = b.min > -std::numeric_limits<double>::max();
  const bool has_max = b.max < std::numeric_limits<double>::max();
  if (has_min && has_max)
    range = " in " + std::string(b.min_exclusive ? "(" : "[") + format_double(b.min) + ", " +
            format_double(b.max) + "]";
  else if (has_min)
    range = std::string(b.min_exclusive ? " > " : " >= ") + format_double(b.min);
  else if (has_max)
    range = " <= " + format_double(b.max);
  return CLI::Validator(
      [b, range](std::string& s) -> std::string {
        const char* begin = s.c_str();
        char* end = nullptr;
        const double v = s.empty() ? 0.0 : std::strtod(begin, &end);
        const bool parsed = !s.empty() && end == begin + s.size();
        const bool ok =
            parsed && std::isfinite(v) && (b.min_exclusive ? v > b.min : v >= b.min) && v <= b.max;
        if (!ok) return "must be a finite number" + range + ", got '" + s + "'";
        return {};
      },
      "NUMBER" + range);
}

CLI::Validator output_file_check() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        try {
          core::check_output_file(s);
        } catch (const core::Error& e) {
          return e.what();
        }
        return {};
      },
      "FILE");
}

namespace {

CLI::Validator path_check(void (*check)(const std::string&), const char* name) {
  return CLI::Validator(
      [check](std::string& s) -> std::string {
        try {
          check(s);
        } catch (const core::Error& e) {
          return e.what();
        }
        return {};
      },
      name);
}

}  // namespace

CLI::Validator database_file_check() {
  return path_check(core::check_database_file, "FILE");
}

CLI::Validator cache_file_check() {
  return path_check(core::check_cache_file, "FILE");
}

CLI::Validator output_directory_check() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        try {
          core::check_output_directory(s);
        } catch (const core::Error& e) {
          return e.what();
        }
        return {};
      },
      "DIR");
}

namespace {

struct RoleOf {
  PathRole role;
  std::vector<std::string> writes;
};

std::map<const CLI::Option*, RoleOf>& path_roles() {
  static std::map<const CLI::Option*, RoleOf> roles;
  return roles;
}

bool is_regular_file(const std::string& p) {
  struct stat st {};
  return !p.empty() && ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

void files_read_in(const std::string& dir, const std::vector<std::string>& patterns,
                   std::vector<std::string>& files);

// The existing files one option value names (see check_command_paths): the value, its
// comma-separated parts, the words of a cmd: line, and the files a model or data folder is read
// from (bert:DIR, movielens-*:DIR).
void files_named_by(const std::string& value, std::vector<std::string>& files) {
  std::vector<std::string> candidates{value};
  std::vector<std::string> prefixed;  // after a "kind:" prefix
  const auto colon = value.find(':');
  if (colon != std::string::npos && colon > 0) {
    const std::string kind = value.substr(0, colon);
    const std::string rest = value.substr(colon + 1);
    prefixed.push_back(rest);
    std::error_code ec;
    if (kind == "bert" && std::filesystem::is_directory(rest, ec)) {
      files_read_in(
          rest,
          {"config.json", "*.safetensors", "*.bin", "vocab.txt", "vocab.json", "merges.txt",
           "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json"},
          files);
    }
    if (kind.rfind("movielens-", 0) == 0) {
      try {
        for (auto& f : recsys::data_spec_files(recsys::parse_data_spec(value)))
          if (is_regular_file(f)) files.push_back(std::move(f));
      } catch (const core::Error&) {  // the command reports its own malformed spec
      }
    }
    if (kind == "cmd" || kind == "cmd-persistent") {
      try {
        for (const auto& w : core::split_command_words(rest)) candidates.push_back(w);
      } catch (const core::Error&) {  // the command reports its own malformed spec
      }
    }
    std::size_t start = 0;
    while (start <= rest.size()) {  // csv:FILE,user=COL,...
      const std::size_t stop = std::min(rest.find(',', start), rest.size());
      prefixed.push_back(rest.substr(start, stop - start));
      start = stop + 1;
    }
  }
  std::size_t start = 0;
  while (value.find(',') != std::string::npos && start <= value.size()) {
    const std::size_t stop = std::min(value.find(',', start), value.size());
    candidates.push_back(value.substr(start, stop - start));
    start = stop + 1;
  }
  candidates.insert(candidates.end(), prefixed.begin(), prefixed.end());
  for (const auto& c : candidates)
    if (is_regular_file(c)) files.push_back(c);
}

// The files an input directory holds under the names a command reads there.
void files_read_in(const std::string& dir, const std::vector<std::string>& patterns,
                   std::vector<std::string>& files) {
  std::error_code ec;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    for (const auto& pattern : patterns) {
      if (::fnmatch(pattern.c_str(), name.c_str(), 0) == 0 &&
          is_regular_file(it->path().string())) {
        files.push_back(it->path().string());
        break;
      }
    }
  }
}

}  // namespace

void set_path_role(const CLI::Option* option, PathRole role, std::vector<std::string> writes) {
  path_roles()[option] = RoleOf{role, std::move(writes)};
}

void check_command_paths(const CLI::App& cmd) {
  std::vector<core::NamedPath> inputs, outputs, kept;
  std::vector<core::OutputDirectory> directories;
  for (const CLI::Option* opt : cmd.get_options()) {
    if (opt->count() == 0 || opt->get_type_size_max() == 0) continue;  // not given, a flag
    const std::string name = opt->get_name();
    const auto role = path_roles().find(opt);
    for (const std::string& value : opt->results()) {
      if (role == path_roles().end()) {
        std::vector<std::string> files;
        files_named_by(value, files);
        for (auto& f : files) inputs.push_back({name, std::move(f)});
      } else if (role->second.role == PathRole::kOutputFile) {
        outputs.push_back({name, value});
      } else if (role->second.role == PathRole::kKeptFile) {
        kept.push_back({name, value});
      } else if (role->second.role == PathRole::kInputDirectory) {
        std::vector<std::string> files;
        files_read_in(value, role->second.writes, files);
        for (auto& f : files) inputs.push_back({name, std::move(f)});
      } else {
        directories.push_back({name, value, role->second.writes});
      }
    }
  }
  core::check_paths_apart(inputs, outputs, kept, directories);
}

void check_list_items(const CLI::App& cmd, const std::vector<std::string>& args) {
  for (const CLI::Option* opt : cmd.get_options()) {
    const char delim = opt->get_delimiter();
    if (delim == '\0' || opt->count() == 0) continue;
    for (const std::string& lname : opt->get_lnames()) {
      const std::string flag = "--" + lname;
      for (std::size_t i = 0; i < args.size(); ++i) {
        std::string value;
        if (args[i] == flag && i + 1 < args.size()) {
          value = args[i + 1];
        } else if (args[i].rfind(flag + "=", 0) == 0) {
          value = args[i].substr(flag.size() + 1);
        } else {
          continue;
        }
        if (!value.empty() && value.front() != delim && value.back() != delim &&
            value.find(std::string(2, delim)) == std::string::npos)
          continue;
        std::string m = flag + ": an empty item in '" + value + "' (expected values separated by ";
        m += std::string("single '") + delim + "')";
        throw core::UsageError(m);
      }
    }
  }
}

}  // namespace assay::cli
