// MovieLens 100K (ml-100k): `u.data` (user \t item \t rating \t timestamp, ratings 1..5) and
// `u.item` (pipe separated, ISO-8859-1: id|title|release|video release|IMDb URL|19 genre
// flags). The split files ua.base, u1.test, ... share the u.data layout.
#pragma once

#include <string>
#include <vector>

#include "recsys/ratings.h"

namespace assay::recsys {

// The 19 genres of u.genre, in flag order.
const std::vector<std::string>& movielens_100k_genres();

// Reads a u.data-layout file. Throws ParseError (file:line) on a wrong column count, a
// non-numeric or off-scale rating, a duplicate (user, item) pair, or an empty file.
Ratings read_movielens_100k_ratings(const std::string& path);

// Reads u.item and attaches the genres to `ratings`. Throws ParseError on a wrong column
// count, a genre flag other than 0/1, or an item id that `ratings` does not know.
void read_movielens_100k_items(const std::string& path, Ratings& ratings);

// DIR/u.data plus DIR/u.item when it exists.
Ratings load_movielens_100k(const std::string& dir);

}  // namespace assay::recsys
