// Generic rating CSV: a header row and named user, item and rating columns (other columns
// are ignored), UTF-8, RFC 4180 quoting.
#pragma once

#include <string>

#include "recsys/ratings.h"

namespace assay::recsys {

struct CsvRatingsOptions {
  std::string user_column = "user";
  std::string item_column = "item";
  std::string rating_column = "rating";
  RatingScale scale;  // default 1..5 whole stars
  char delimiter = ',';
};

// Throws ParseError (file:line) on a missing column, a wrong field count, a non-numeric or
// off-scale rating, a duplicate pair, or no ratings.
Ratings load_csv_ratings(const std::string& path, const CsvRatingsOptions& options = {});

}  // namespace assay::recsys
