#include "recsys/movielens_100k_loader.h"

#include <filesystem>

#include "core/csv_reader.h"
#include "core/error.h"
#include "recsys/ratings_builder.h"

namespace assay::recsys {
namespace {

constexpr std::size_t kDataColumns = 4;
constexpr std::size_t kItemFixedColumns = 5;
constexpr std::size_t kGenres = 19;

RatingScale five_star_scale() {
  return RatingScale{1, 5, {1, 2, 3, 4, 5}};
}

// u.data and the split files: tab separated, no header, no quoting (the column count is
// checked by the caller, with its own message).
core::CsvOptions udata_options() {
  core::CsvOptions options;
  options.delimiter = '\t';
  options.has_header = false;
  options.quoting = false;
  options.fixed_field_count = false;
  return options;
}

}  // namespace

const std::vector<std::string>& movielens_100k_genres() {
  static const std::vector<std::string> kNames = {
      "unknown",     "Action", "Adventure", "Animation", "Children's", "Comedy",  "Crime",
      "Documentary", "Drama",  "Fantasy",   "Film-Noir", "Horror",     "Musical", "Mystery",
      "Romance",     "Sci-Fi", "Thriller",  "War",       "Western"};
  return kNames;
}

Ratings read_movielens_100k_ratings(const std::string& path) {
  core::CsvReader reader(path, udata_options());
  RatingsBuilder builder(five_star_scale());
  while (reader.next()) {
    if (reader.fields().size() != kDataColumns) {
      throw core::ParseError(reader.record_location(),
                             "expected 4 tab-separated columns (user, item, rating, timestamp), "
                             "got " +
                                 std::to_string(reader.fields().size()));
    }
    builder.add(reader.field(0), reader.field(1), reader.field(2), reader.location(2));
  }
  return builder.build(path);
}

MovieLensFold movielens_100k_fold(const std::string& data_path, int fold) {
  constexpr std::size_t kRatings = 100000, kFoldSize = 20000;
  if (fold < 1 || fold > 5) {
    throw core::UsageError("MovieLens 100K folds are u1..u5; got fold " + std::to_string(fold));
  }
  const Ratings all = read_movielens_100k_ratings(data_path);  // validates every line
  if (all.n_ratings() != kRatings) {
    throw core::ParseError(core::SourceLocation{data_path, 0},
                           "the u1..u5 folds are defined on the original u.data with 100000 "
                           "ratings; this file has " +
                               std::to_string(all.n_ratings()));
  }
  core::CsvReader reader(data_path, udata_options());
  RatingsBuilder builder(five_star_scale());
  struct Held {
    std::string user, item;
    float value;
  };
  std::vector<Held> held;
  const std::size_t first = kFoldSize * static_cast<std::size_t>(fold - 1);
  for (std::size_t line = 0; reader.next(); ++line) {
    if (line >= first && line < first + kFoldSize) {
      held.push_back(
          {reader.field(0), reader.field(1), static_cast<float>(reader.number(2, "rating"))});
    } else {
      builder.add(reader.field(0), reader.field(1), reader.field(2), reader.location(2));
    }
  }
  MovieLensFold out;
  out.train = builder.build(data_path);
  for (const Held& h : held) {
    const auto u = out.train.find_user(h.user);
    const auto i = out.train.find_item(h.item);
    if (u && i) {
      out.test.push_back({*u, *i, h.value});
    } else {
      ++out.left_out;
    }
  }
  return out;
}

void read_movielens_100k_items(const std::string& path, Ratings& ratings) {
  core::CsvOptions options;
  options.delimiter = '|';
  options.has_header = false;
  options.quoting = false;
  options.encoding = core::TextEncoding::kLatin1;
  options.fixed_field_count = false;
  core::CsvReader reader(path, options);
  std::vector<std::vector<AttributeId>> per_item(ratings.n_items());
  std::vector<bool> seen(ratings.n_items(), false);
  while (reader.next()) {
    const std::size_t n = reader.fields().size();
    if (n != kItemFixedColumns + kGenres) {
      throw core::ParseError(reader.record_location(),
                             "expected 24 '|'-separated columns (id, title, release date, video "
                             "release date, IMDb URL, 19 genre flags), got " +
                                 std::to_string(n));
    }
    const auto item = ratings.find_item(reader.field(0));
    if (!item) {
      throw core::ParseError(reader.location(0),
                             "item '" + reader.field(0) + "' does not appear in the ratings");
    }
    if (seen[*item]) {
      throw core::ParseError(reader.location(0), "item '" + reader.field(0) + "' is listed twice");
    }
    seen[*item] = true;
    for (std::size_t g = 0; g < kGenres; ++g) {
      const std::string& flag = reader.field(kItemFixedColumns + g);
      if (flag == "1") {
        per_item[*item].push_back(static_cast<AttributeId>(g));
      } else if (flag != "0") {
        throw core::ParseError(reader.location(kItemFixedColumns + g),
                               "expected a genre flag 0 or 1 for '" + movielens_100k_genres()[g] +
                                   "', got '" + flag + "'");
      }
    }
  }
  ratings.set_item_attributes(std::move(per_item), movielens_100k_genres());
}

Ratings load_movielens_100k(const std::string& dir) {
  const std::filesystem::path root(dir);
  const auto data = root / "u.data";
  if (!std::filesystem::exists(data)) {
    throw core::IoError(core::SourceLocation{data.string()},
                        "MovieLens 100K directory has no u.data (expected the ml-100k folder)");
  }
  Ratings ratings = read_movielens_100k_ratings(data.string());
  const auto items = root / "u.item";
  if (std::filesystem::exists(items)) read_movielens_100k_items(items.string(), ratings);
  return ratings;
}

}  // namespace assay::recsys
