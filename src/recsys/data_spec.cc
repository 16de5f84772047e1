#include "recsys/data_spec.h"

#include <filesystem>
#include <limits>

#include "core/error.h"
#include "core/number_parse.h"
#include "recsys/csv_ratings_loader.h"
#include "recsys/movielens_100k_loader.h"
#include "recsys/movielens_1m_loader.h"
#include "recsys/movielens_latest_loader.h"
#include "recsys/synthetic_ratings.h"

namespace assay::recsys {
namespace {

constexpr const char* kSpecHelp =
    "expected movielens-100k:DIR, movielens-1m:DIR, movielens-latest:DIR, "
    "csv:FILE[,user=COL,item=COL,rating=COL,low=L,high=H,step=S] or "
    "synthetic[:users=N,items=M,ratings=R,seed=S,top_only=K]";

std::vector<std::string> split(std::string_view text, char sep) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (;;) {
    const std::size_t pos = text.find(sep, start);
    parts.emplace_back(text.substr(start, pos == std::string_view::npos ? pos : pos - start));
    if (pos == std::string_view::npos) break;
    start = pos + 1;
  }
  return parts;
}

std::uint64_t to_count(const std::string& spec, const std::string& key, const std::string& value) {
  const auto v = core::parse_int64(value);
  if (!v || *v < 0) {
    throw core::UsageError("data spec '" + spec + "': " + key +
                           " must be a non-negative integer, got '" + value + "'");
  }
  return static_cast<std::uint64_t>(*v);
}

double to_number(const std::string& spec, const std::string& key, const std::string& value) {
  const auto v = core::parse_double(value);
  if (!v) {
    throw core::UsageError("data spec '" + spec + "': " + key + " must be a number, got '" + value +
                           "'");
  }
  return *v;
}

}  // namespace

DataSpec parse_data_spec(std::string_view text) {
  const std::string spec(text);
  DataSpec out;
  const std::size_t colon = text.find(':');
  out.kind = std::string(text.substr(0, colon));
  const std::string rest =
      colon == std::string_view::npos ? "" : std::string(text.substr(colon + 1));
  const bool is_dir_kind =
      out.kind == "movielens-100k" || out.kind == "movielens-1m" || out.kind == "movielens-latest";
  if (is_dir_kind) {
    if (rest.empty())
      throw core::UsageError("data spec '" + spec + "' names no directory; " + kSpecHelp);
    out.path = rest;
    return out;
  }
  std::vector<std::string> parts;
  if (out.kind == "csv") {
    parts = split(rest, ',');
    out.path = parts.front();
    parts.erase(parts.begin());
    if (out.path.empty())
      throw core::UsageError("data spec '" + spec + "' names no file; " + kSpecHelp);
  } else if (out.kind == "synthetic") {
    if (!rest.empty()) parts = split(rest, ',');
  } else {
    throw core::UsageError("unknown data spec '" + spec + "'; " + kSpecHelp);
  }
  const std::vector<std::string> allowed =
      out.kind == "csv" ? std::vector<std::string>{"user", "item", "rating", "low", "high", "step"}
                        : std::vector<std::string>{"users", "items", "ratings", "seed", "top_only"};
  for (const auto& part : parts) {
    const std::size_t eq = part.find('=');
    if (eq == std::string::npos || eq == 0) {
      throw core::UsageError("data spec '" + spec + "': expected key=value, got '" + part + "'");
    }
    const std::string key = part.substr(0, eq);
    bool known = false;
    for (const auto& a : allowed) known = known || a == key;
    if (!known) {
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
      throw core::UsageError("data spec '" + spec + "': unknown key '" + key + "' for " + out.kind +
                             " (expected " + list + ")");
    }
    for (const auto& [k, v] : out.params) {
      if (k == key)
        throw core::UsageError("data spec '" + spec + "': key '" + key + "' given twice");
    }
    out.params.emplace_back(key, part.substr(eq + 1));
  }
  return out;
}

std::vector<std::string> data_spec_files(const DataSpec& spec) {
  std::vector<std::pair<std::string, std::string>> names;
  if (spec.kind == "movielens-100k") names = {{"u.data", "u.item"}};
  if (spec.kind == "movielens-1m") names = {{"ratings.dat", "movies.dat"}};
  if (spec.kind == "movielens-latest") names = {{"ratings.csv", "movies.csv"}};
  std::vector<std::string> out;
  if (spec.kind == "csv") out.push_back(spec.path);
  for (const auto& [ratings, attributes] : names) {
    for (const auto& name : {ratings, attributes}) {
      const auto path = std::filesystem::path(spec.path) / name;
      std::error_code ec;
      if (std::filesystem::is_regular_file(path, ec)) out.push_back(path.string());
    }
  }
  return out;
}

Ratings load_ratings(const DataSpec& spec) {
  if (spec.kind == "movielens-100k") return load_movielens_100k(spec.path);
  if (spec.kind == "movielens-1m") return load_movielens_1m(spec.path);
  if (spec.kind == "movielens-latest") return load_movielens_latest(spec.path);
  const std::string name = spec.kind + (spec.path.empty() ? "" : ":" + spec.path);
  if (spec.kind == "csv") {
    CsvRatingsOptions o;
    double step = 1;
    for (const auto& [k, v] : spec.params) {
      if (k == "user")
        o.user_column = v;
      else if (k == "item")
        o.item_column = v;
      else if (k == "rating")
        o.rating_column = v;
      else if (k == "low")
        o.scale.low = to_number(name, k, v);
      else if (k == "high")
        o.scale.high = to_number(name, k, v);
      else if (k == "step")
        step = to_number(name, k, v);
    }
    if (!(o.scale.low <= o.scale.high) || !(step >= 0)) {
      throw core::UsageError("data spec '" + name + "': expected low <= high and step >= 0");
    }
    o.scale.values.clear();
    if (step > 0) {
      for (double v = o.scale.low; v <= o.scale.high + 1e-9; v += step) o.scale.values.push_back(v);
    }
    return load_csv_ratings(spec.path, o);
  }
  if (spec.kind == "synthetic") {
    SyntheticOptions o;
    for (const auto& [k, v] : spec.params) {
      const std::uint64_t n = to_count(name, k, v);
      if (k == "users")
        o.n_users = n;
      else if (k == "items")
        o.n_items = n;
      else if (k == "ratings")
        o.n_ratings = n;
      else if (k == "seed")
        o.seed = n;
      else if (k == "top_only")
        o.top_only_items = n;
    }
    constexpr std::uint64_t kMaxIds = std::numeric_limits<std::uint32_t>::max();
    if (o.n_users > kMaxIds || o.n_items > kMaxIds) {
      throw core::UsageError("data spec '" + name + "': too many users or items");
    }
    return generate_synthetic_ratings(o);
  }
  throw core::UsageError("unknown data spec kind '" + spec.kind + "'; " + kSpecHelp);
}

Ratings load_ratings(std::string_view spec) {
  return load_ratings(parse_data_spec(spec));
}

}  // namespace assay::recsys
