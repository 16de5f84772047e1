// Recommenders known only by their top-k lists, which stability testing needs and nothing
// else (stability/algorithm_baseline.h):
//   cmd:PROGRAM [ARGS...], cmd+persistent:...   the user's program (command_recommender.h)
//   python:NAME                                  an object of a language that embeds the
//                                                library (the Python module's recommender
//                                                objects), registered under its spec while the
//                                                call that was given it runs
// One training is recommend_all(train, k, seed): everyone's top-k, checked as top_k_answer.h
// says; a failed training is a RecommenderFailure (a campaign or fuzz run records it as a failed
// run with its reason; a failed baseline training ends the call).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "recsys/command_recommender.h"
#include "recsys/ratings.h"
#include "recsys/recommender.h"

namespace assay::recsys {

// An embedding language's recommender object.
class HostedRecommender {
 public:
  virtual ~HostedRecommender() = default;
  // Everyone's top-k (result[u] for dense user u) from one training on `train` with `seed`.
  // May be called from several threads at once. Throws RecommenderFailure for a failed training.
  virtual TopKLists recommend_all(const Ratings& train, std::size_t k, std::uint64_t seed) = 0;
};

// True for "python:NAME".
bool is_hosted_spec(std::string_view spec);
// True for a program's spec or a hosted one.
bool is_external_spec(std::string_view spec);

// Registers `recommender` under `spec` ("python:NAME") while it lives. Throws core::UsageError
// for a spec that is not python:NAME (NAME: no blank, no control character) or that another
// registration holds (another call running with an object of that name).
class HostedRegistration {
 public:
  HostedRegistration(std::string spec, std::shared_ptr<HostedRecommender> recommender);
  ~HostedRegistration();
  HostedRegistration(const HostedRegistration&) = delete;
  HostedRegistration& operator=(const HostedRegistration&) = delete;

 private:
  std::string spec_;
};

// One training of the recommender `spec` names (a program's or a registered object's). Throws
// RecommenderFailure, or core::UsageError for a python: spec that nothing registered.
TopKLists external_recommend_all(const std::string& spec, const Ratings& train, std::size_t k,
                                 std::uint64_t seed);

// What names the recommender in a campaign store's identity: a program's words and file hashes
// (CommandRecommender::identity), an object's spec.
std::string external_identity(const std::string& spec);

}  // namespace assay::recsys
