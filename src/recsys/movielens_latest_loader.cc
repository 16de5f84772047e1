#include "recsys/movielens_latest_loader.h"

#include <filesystem>

#include "core/csv_reader.h"
#include "core/error.h"
#include "recsys/movielens_genres.h"
#include "recsys/ratings_builder.h"

namespace assay::recsys {

Ratings read_movielens_latest_ratings(const std::string& path) {
  core::CsvReader reader(path);
  const std::size_t user = reader.column("userId");
  const std::size_t item = reader.column("movieId");
  const std::size_t value = reader.column("rating");
  RatingScale scale{0.5, 5, {}};
  for (int k = 1; k <= 10; ++k) scale.values.push_back(0.5 * k);
  RatingsBuilder builder(scale);
  while (reader.next()) {
    builder.add(reader.field(user), reader.field(item), reader.field(value),
                reader.location(value));
  }
  return builder.build(path);
}

void read_movielens_latest_movies(const std::string& path, Ratings& ratings) {
  core::CsvReader reader(path);
  const std::size_t id = reader.column("movieId");
  const std::size_t genre_column = reader.column("genres");
  MovieLensGenres genres;
  while (reader.next()) {
    if (reader.field(id).empty())
      throw core::ParseError(reader.location(id), "expected a movie id");
    genres.add(ratings, reader.field(id), reader.field(genre_column));
  }
  genres.attach(ratings);
}

Ratings load_movielens_latest(const std::string& dir) {
  const std::filesystem::path root(dir);
  const auto data = root / "ratings.csv";
  if (!std::filesystem::exists(data)) {
    throw core::IoError(core::SourceLocation{data.string()},
                        "MovieLens latest/25M/32M directory has no ratings.csv");
  }
  Ratings ratings = read_movielens_latest_ratings(data.string());
  const auto movies = root / "movies.csv";
  if (std::filesystem::exists(movies)) read_movielens_latest_movies(movies.string(), ratings);
  return ratings;
}

}  // namespace assay::recsys
