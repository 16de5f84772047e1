// MovieLens 1M and 10M: `ratings.dat` (UserID::MovieID::Rating::Timestamp) and `movies.dat`
// (MovieID::Title::Genres, genres '|'-joined). The scale is 1..5 whole stars when every
// rating is whole (1M), else 0.5..5 in half stars (10M).
#pragma once

#include <string>

#include "recsys/ratings.h"

namespace assay::recsys {

// Throws ParseError (file:line) on a wrong field count, a non-numeric or off-scale rating, a
// duplicate pair, or an empty file.
Ratings read_movielens_1m_ratings(const std::string& path);
// Attaches the genres of movies.dat; movies nobody rated are skipped (not items of the data).
void read_movielens_1m_movies(const std::string& path, Ratings& ratings);
// DIR/ratings.dat plus DIR/movies.dat when it exists.
Ratings load_movielens_1m(const std::string& dir);

}  // namespace assay::recsys
