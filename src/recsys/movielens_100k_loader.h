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

// One of the official five folds u1..u5, rebuilt from u.data exactly as the data set's mku.sh
// makes u<f>.base / u<f>.test: fold f (1..5) tests on lines 20000 (f - 1) + 1 .. 20000 f of
// u.data in file order and trains on the other 80,000. Test ratings whose user or item does
// not occur in the training part cannot be scored by anyone: they are left out and counted.
// Throws ParseError as read_movielens_100k_ratings does, or when u.data does not hold exactly
// 100,000 ratings (the folds are defined on the original file only).
struct MovieLensFold {
  Ratings train;
  std::vector<Rating> test;
  std::size_t left_out = 0;
};
MovieLensFold movielens_100k_fold(const std::string& data_path, int fold);

// DIR/u.data plus DIR/u.item when it exists.
Ratings load_movielens_100k(const std::string& dir);

}  // namespace assay::recsys
