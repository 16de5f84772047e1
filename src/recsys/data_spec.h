// Data specifications: one string names where ratings come from.
//   movielens-100k:DIR      DIR/u.data (+ DIR/u.item genres when present)
//   movielens-1m:DIR        DIR/ratings.dat (+ DIR/movies.dat), '::' separated (also 10M)
//   movielens-latest:DIR    DIR/ratings.csv (+ DIR/movies.csv), also 25M / 32M
//   csv:FILE[,user=COL,item=COL,rating=COL,low=L,high=H,step=S]
//                           header row with named columns (defaults user, item, rating;
//                           scale 1..5 in steps of 1)
//   synthetic[:users=N,items=M,ratings=R,seed=S,top_only=K]
//                           the generator (defaults 943 users, 1682 items, 100000 ratings,
//                           seed 0: MovieLens 100K's shape)
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "recsys/ratings.h"

namespace assay::recsys {

struct DataSpec {
  std::string kind;  // "movielens-100k", "movielens-1m", "movielens-latest", "csv", "synthetic"
  std::string path;  // directory or file; empty for synthetic
  std::vector<std::pair<std::string, std::string>> params;  // key=value options in order
};

// Throws core::UsageError naming the problem for an unknown kind, a missing path, an unknown
// or malformed key=value parameter.
DataSpec parse_data_spec(std::string_view spec);

// The files load_ratings(spec) reads that exist now, in a fixed order (the ratings file, then
// the attribute file when present); empty for synthetic data. Stores record their content
// hashes so a campaign is never resumed on changed data.
std::vector<std::string> data_spec_files(const DataSpec& spec);

// Loads the ratings named by `spec` (parse errors of the files are core::ParseError with
// file:line; a missing file is core::IoError).
Ratings load_ratings(const DataSpec& spec);
Ratings load_ratings(std::string_view spec);

}  // namespace assay::recsys
