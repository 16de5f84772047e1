// Item titles of the data sets that carry them, for output a person reads (rec replay): the
// MovieLens 100K u.item (Latin-1, second '|'-separated field), MovieLens 1M/10M movies.dat
// (Latin-1, MovieID::Title::Genres) and MovieLens latest/25M/32M movies.csv (column "title").
#pragma once

#include <string>
#include <vector>

#include "recsys/data_spec.h"
#include "recsys/ratings.h"

namespace assay::recsys {

// One title per item of `ratings` (by item id; "" for an item the file does not list), or an
// empty vector when the spec's data has no title file (csv, synthetic, or the file absent).
// Parse errors are core::ParseError with file:line, as the loaders'.
std::vector<std::string> load_item_titles(const DataSpec& spec, const Ratings& ratings);

}  // namespace assay::recsys
