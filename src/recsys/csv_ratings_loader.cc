#include "recsys/csv_ratings_loader.h"

#include "core/csv_reader.h"
#include "recsys/ratings_builder.h"

namespace assay::recsys {

Ratings load_csv_ratings(const std::string& path, const CsvRatingsOptions& options) {
  core::CsvOptions csv;
  csv.delimiter = options.delimiter;
  core::CsvReader reader(path, csv);
  const std::size_t user = reader.column(options.user_column);
  const std::size_t item = reader.column(options.item_column);
  const std::size_t value = reader.column(options.rating_column);
  RatingsBuilder builder(options.scale);
  while (reader.next()) {
    builder.add(reader.field(user), reader.field(item), reader.field(value),
                reader.location(value));
  }
  return builder.build(path);
}

}  // namespace assay::recsys
