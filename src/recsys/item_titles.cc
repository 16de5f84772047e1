#include "recsys/item_titles.h"

#include <filesystem>
#include <string_view>

#include "core/byte_source.h"
#include "core/csv_reader.h"
#include "core/error.h"
#include "core/latin1_source.h"
#include "core/line_reader.h"

namespace assay::recsys {
namespace {

void set_title(const Ratings& ratings, const std::string& label, std::string title,
               std::vector<std::string>& titles) {
  const auto item = ratings.find_item(label);
  if (item) titles[*item] = std::move(title);  // an item nobody rated has no id
}

std::vector<std::string> movielens_100k_titles(const std::string& path, const Ratings& ratings) {
  core::CsvOptions options;
  options.delimiter = '|';
  options.has_header = false;
  options.quoting = false;
  options.encoding = core::TextEncoding::kLatin1;
  options.fixed_field_count = false;
  core::CsvReader reader(path, options);
  std::vector<std::string> titles(ratings.n_items());
  while (reader.next()) {
    if (reader.fields().size() < 2) {
      throw core::ParseError(reader.record_location(), "expected an item id and a title");
    }
    set_title(ratings, reader.field(0), reader.field(1), titles);
  }
  return titles;
}

std::vector<std::string> movielens_1m_titles(const std::string& path, const Ratings& ratings) {
  core::LineReader lines(core::latin1_source(core::open_file_source(path)));
  std::vector<std::string> titles(ratings.n_items());
  std::string_view line;
  while (lines.next(line)) {
    if (line.empty()) continue;
    // MovieID::Title::Genres; a title may hold "::" itself, so it runs to the last separator.
    const std::size_t first = line.find("::");
    const std::size_t last = line.rfind("::");
    if (first == std::string_view::npos || last == first) {
      throw core::ParseError(lines.location(),
                             "expected 3 '::'-separated fields (MovieID::Title::Genres)");
    }
    set_title(ratings, std::string(line.substr(0, first)),
              std::string(line.substr(first + 2, last - first - 2)), titles);
  }
  return titles;
}

std::vector<std::string> movielens_latest_titles(const std::string& path, const Ratings& ratings) {
  core::CsvReader reader(path);
  const std::size_t id = reader.column("movieId");
  const std::size_t title = reader.column("title");
  std::vector<std::string> titles(ratings.n_items());
  while (reader.next()) set_title(ratings, reader.field(id), reader.field(title), titles);
  return titles;
}

}  // namespace

std::vector<std::string> load_item_titles(const DataSpec& spec, const Ratings& ratings) {
  const std::filesystem::path root(spec.path);
  if (spec.kind == "movielens-100k" && std::filesystem::exists(root / "u.item")) {
    return movielens_100k_titles((root / "u.item").string(), ratings);
  }
  if (spec.kind == "movielens-1m" && std::filesystem::exists(root / "movies.dat")) {
    return movielens_1m_titles((root / "movies.dat").string(), ratings);
  }
  if (spec.kind == "movielens-latest" && std::filesystem::exists(root / "movies.csv")) {
    return movielens_latest_titles((root / "movies.csv").string(), ratings);
  }
  return {};
}

}  // namespace assay::recsys
