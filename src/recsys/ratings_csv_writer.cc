#include "recsys/ratings_csv_writer.h"

#include <charconv>

namespace assay::recsys {
namespace {

std::string number_text(double v) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

void append_field(std::string& out, const std::string& field) {
  if (field.find_first_of(",\"\r\n") == std::string::npos) {
    out += field;
    return;
  }
  out += '"';
  for (const char c : field) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

}  // namespace

std::string ratings_csv_text(const Ratings& ratings) {
  std::string out = "user,item,rating\n";
  out.reserve(ratings.n_ratings() * 16);
  for (UserId u = 0; u < ratings.n_users(); ++u) {
    const auto items = ratings.items_of(u);
    const auto values = ratings.values_of_user(u);
    for (std::size_t j = 0; j < items.size(); ++j) {
      append_field(out, ratings.user_label(u));
      out += ',';
      append_field(out, ratings.item_label(items[j]));
      out += ',';
      out += number_text(static_cast<double>(values[j]));
      out += '\n';
    }
  }
  return out;
}

std::string csv_data_spec(const std::string& path, const RatingScale& scale) {
  const RatingScale whole;
  if (scale.low == whole.low && scale.high == whole.high && scale.values == whole.values) {
    return "csv:" + path;
  }
  const double step = scale.values.size() > 1 ? scale.values[1] - scale.values[0] : 1;
  return "csv:" + path + ",low=" + number_text(scale.low) + ",high=" + number_text(scale.high) +
         ",step=" + number_text(step);
}

}  // namespace assay::recsys
