// MovieLens latest / 25M / 32M: `ratings.csv` (header userId,movieId,rating,timestamp;
// 0.5..5 in half stars) and `movies.csv` (header movieId,title,genres; quoted titles,
// genres '|'-joined, "(no genres listed)" for none).
#pragma once

#include <string>

#include "recsys/ratings.h"

namespace assay::recsys {

// Throws ParseError (file:line) on a missing column, a wrong field count, a non-numeric or
// off-scale rating, a duplicate pair, or no ratings.
Ratings read_movielens_latest_ratings(const std::string& path);
// Attaches the genres of movies.csv; movies nobody rated are skipped.
void read_movielens_latest_movies(const std::string& path, Ratings& ratings);
// DIR/ratings.csv plus DIR/movies.csv when it exists.
Ratings load_movielens_latest(const std::string& dir);

}  // namespace assay::recsys
