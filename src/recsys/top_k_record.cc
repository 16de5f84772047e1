#include "recsys/top_k_record.h"

#include <vector>

namespace assay::recsys {

nlohmann::ordered_json top_k_record(const Recommender* model, const Ratings& data, UserId user,
                                    std::span<const ItemId> items) {
  std::vector<float> scores(items.size());
  if (model) model->score(user, items, scores);
  nlohmann::ordered_json line;
  line["user"] = data.user_label(user);
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (std::size_t k = 0; k < items.size(); ++k) {
    nlohmann::ordered_json entry;
    entry["item"] = data.item_label(items[k]);
    if (model) entry["score"] = scores[k];
    list.push_back(std::move(entry));
  }
  line["items"] = std::move(list);
  return line;
}

}  // namespace assay::recsys
