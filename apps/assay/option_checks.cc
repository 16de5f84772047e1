#include "option_checks.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "core/error.h"
#include "core/output_path.h"

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

CLI::Validator database_file_check() { return path_check(core::check_database_file, "FILE"); }

CLI::Validator cache_file_check() { return path_check(core::check_cache_file, "FILE"); }

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

}  // namespace assay::cli
