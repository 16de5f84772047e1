// Ratings written back as a CSV that `csv:FILE` reads (csv_ratings_loader.h): a header
// `user,item,rating`, one line per rating in (user, item) order with the data's own ids (quoted
// as RFC 4180 where they hold a comma, quote or line break), the shortest text of each value.
#pragma once

#include <string>

#include "recsys/ratings.h"

namespace assay::recsys {

std::string ratings_csv_text(const Ratings& ratings);

// The data spec that reads such a file back with the same rating scale:
// "csv:PATH" for whole stars 1..5, else "csv:PATH,low=L,high=H,step=S" (S from the scale's
// first two values).
std::string csv_data_spec(const std::string& path, const RatingScale& scale);

}  // namespace assay::recsys
