// One user's top-k list as a record: the JSON line `assay rec recommend` writes and the dict
// assay.rec.recommend returns ({"user": label, "items": [{"item": label, "score": s}, ...]},
// each score the model's for that user and item; without a model, a program's list, no scores).
#pragma once

#include <nlohmann/json.hpp>
#include <span>

#include "recsys/ratings.h"
#include "recsys/recommender.h"

namespace assay::recsys {

nlohmann::ordered_json top_k_record(const Recommender* model, const Ratings& data, UserId user,
                                    std::span<const ItemId> items);

}  // namespace assay::recsys
