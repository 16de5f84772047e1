#include "recsys/movielens_1m_loader.h"

#include <filesystem>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/latin1_source.h"
#include "core/line_reader.h"
#include "recsys/movielens_genres.h"
#include "recsys/ratings_builder.h"

namespace assay::recsys {
namespace {

// Splits a line on "::" (not a CSV dialect: no quoting, a two-byte separator).
std::vector<std::string_view> split_double_colon(std::string_view line) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (;;) {
    const std::size_t pos = line.find("::", start);
    if (pos == std::string_view::npos) {
      parts.push_back(line.substr(start));
      return parts;
    }
    parts.push_back(line.substr(start, pos - start));
    start = pos + 2;
  }
}

RatingScale half_star_scale() {
  RatingScale s{0.5, 5, {}};
  for (int k = 1; k <= 10; ++k) s.values.push_back(0.5 * k);
  return s;
}

// Column (1-based) of the start of field `index`.
std::uint64_t column_of(const std::vector<std::string_view>& parts, std::size_t index) {
  std::uint64_t col = 1;
  for (std::size_t k = 0; k < index; ++k) col += parts[k].size() + 2;
  return col;
}

}  // namespace

Ratings read_movielens_1m_ratings(const std::string& path) {
  core::LineReader lines(path);
  RatingsBuilder builder(half_star_scale());
  std::string_view line;
  while (lines.next(line)) {
    if (line.empty()) continue;
    const auto parts = split_double_colon(line);
    if (parts.size() != 4) {
      throw core::ParseError(lines.location(),
                             "expected 4 '::'-separated fields (UserID::MovieID::Rating::"
                             "Timestamp), got " +
                                 std::to_string(parts.size()));
    }
    builder.add(parts[0], parts[1], parts[2], lines.location(column_of(parts, 2)));
  }
  if (builder.n_ratings() > 0 && builder.all_whole()) {
    builder.set_scale(RatingScale{1, 5, {1, 2, 3, 4, 5}});
  }
  return builder.build(path);
}

void read_movielens_1m_movies(const std::string& path, Ratings& ratings) {
  // movies.dat is ISO-8859-1.
  core::LineReader lines(core::latin1_source(core::open_file_source(path)));
  MovieLensGenres genres;
  std::string_view line;
  while (lines.next(line)) {
    if (line.empty()) continue;
    const auto parts = split_double_colon(line);
    // Titles are free text; the id is the first field and the genres the last.
    if (parts.size() < 3) {
      throw core::ParseError(lines.location(),
                             "expected 3 '::'-separated fields (MovieID::Title::Genres), got " +
                                 std::to_string(parts.size()));
    }
    if (parts[0].empty()) throw core::ParseError(lines.location(1), "expected a movie id");
    genres.add(ratings, parts[0], parts.back());
  }
  genres.attach(ratings);
}

Ratings load_movielens_1m(const std::string& dir) {
  const std::filesystem::path root(dir);
  const auto data = root / "ratings.dat";
  if (!std::filesystem::exists(data)) {
    throw core::IoError(core::SourceLocation{data.string()},
                        "MovieLens 1M/10M directory has no ratings.dat");
  }
  Ratings ratings = read_movielens_1m_ratings(data.string());
  const auto movies = root / "movies.dat";
  if (std::filesystem::exists(movies)) read_movielens_1m_movies(movies.string(), ratings);
  return ratings;
}

}  // namespace assay::recsys
