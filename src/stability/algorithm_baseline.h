// The unmodified side of every differential test: an algorithm trained once on the original
// data with the campaign's model seed, its top-k lists and the influence models computed from
// them. Retraining after a modification uses the same model seed, so the only difference
// between the two trainings is the data (the noise floor measures what another seed does).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "recsys/ratings.h"
#include "recsys/recommender.h"
#include "stability/influence.h"

namespace assay::stability {

struct AlgorithmBaseline {
  std::string algorithm;
  std::uint64_t model_seed = 0;
  std::size_t k = 10;
  recsys::TopKLists top;
  Influence influence;
};

// Trains `algorithm` (a make_recommender name) on `data` and computes top-k and influence.
AlgorithmBaseline train_baseline(const recsys::Ratings& data, const std::string& algorithm,
                                 std::uint64_t model_seed, std::size_t k,
                                 std::size_t n_threads = 1);

// Trains `algorithm` on `data` with `model_seed` and returns everyone's top-k. A program's spec
// (cmd:...) or an object's (python:NAME) runs recsys::external_recommend_all, which throws
// recsys::RecommenderFailure when the training fails.
recsys::TopKLists train_and_recommend(const recsys::Ratings& data, const std::string& algorithm,
                                      std::uint64_t model_seed, std::size_t k,
                                      std::size_t n_threads = 1);

}  // namespace assay::stability
