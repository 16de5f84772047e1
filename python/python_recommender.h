// A Python object as the recommender under test, named python:NAME (recsys/external_recommender.h):
// one training is
//   obj.fit(ratings)            or obj.fit(ratings, seed=SEED) when fit takes a `seed`
//   obj.recommend(users, k)  -> one list of item ids per user, best first
// with `ratings` a NumPy structured array, one row per rating in (user, item) order, fields
// "user" and "item" (str: the data's own ids) and "rating" (float64), and `users` every user's
// id (a list of str in the data's order, users without ratings left included). The answer (a
// list of lists or a 2-D array; ids str or int) is checked as a program's output is
// (recsys/top_k_answer.h), with the same messages. The GIL is taken for each training only;
// trainings of one object run one at a time (fit and recommend share the object's state), and
// the call hooks (interrupt.h) are checked before each.
//
// An Exception that fit or recommend raises is a PythonRecommenderFailure: in a fuzz trial or a
// campaign run a failed run (its reason "fit() raised ValueError: ...", the traceback in place
// of a program's stderr); anything else (KeyboardInterrupt, SystemExit) ends the call as itself.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>

#include "interrupt.h"
#include "recsys/external_recommender.h"

namespace assay::python {

class PythonRecommenderFailure : public recsys::RecommenderFailure {
 public:
  PythonRecommenderFailure(const std::string& spec, std::string reason, std::string traceback,
                           pybind11::error_already_set error)
      : RecommenderFailure(spec, std::move(reason), std::move(traceback)),
        error_(std::move(error)) {}
  // The exception fit or recommend raised (raised as itself when a call cannot go on).
  const pybind11::error_already_set& error() const { return error_; }

 private:
  pybind11::error_already_set error_;
};

class PythonRecommender : public recsys::HostedRecommender {
 public:
  // `obj` must be a recommender object (is_recommender_object); GIL held.
  PythonRecommender(pybind11::object obj, std::string spec, const CallHooks& hooks);
  ~PythonRecommender() override;

  recsys::TopKLists recommend_all(const recsys::Ratings& train, std::size_t k,
                                  std::uint64_t seed) override;

 private:
  // fit() then recommend(), with the GIL taken here.
  recsys::TopKLists fit_and_recommend(const recsys::Ratings& train, std::size_t k,
                                      std::uint64_t seed);

  pybind11::object obj_;
  std::string spec_;
  bool fit_takes_seed_ = false;
  const CallHooks& hooks_;
  std::mutex mutex_;
};

// True for an object with callable fit and recommend attributes.
bool is_recommender_object(const pybind11::handle& obj);
// "python:" + the object's `name` attribute when it is a non-empty str, else its class's name.
std::string recommender_object_spec(const pybind11::handle& obj);

}  // namespace assay::python

namespace assay::python {

// An algorithm argument of assay.rec: a spec (str: a built-in configuration, cmd:PROGRAM), or a
// recommender object, registered under its python:NAME spec while this lives.
class AlgorithmArg {
 public:
  // Throws core::UsageError for anything else, or a name another call holds. GIL held.
  AlgorithmArg(const pybind11::object& algorithm, const CallHooks& hooks);
  ~AlgorithmArg();
  AlgorithmArg(AlgorithmArg&&) = default;
  AlgorithmArg& operator=(AlgorithmArg&&) = delete;

  // The normalised spec (python:NAME for an object).
  const std::string& spec() const { return spec_; }
  // The spec `algorithm` would have (throws as the constructor does for a bad argument).
  static std::string spec_of(const pybind11::object& algorithm);

 private:
  std::string spec_;
  std::shared_ptr<PythonRecommender> object_;
  std::unique_ptr<recsys::HostedRegistration> registration_;  // dropped before object_
};

// run_released (interrupt.h) for a call that trains recommenders: when a recommender object's
// exception ends the call (its baseline training failed), that exception is raised as itself.
template <class F>
auto run_training(CallHooks& hooks, F&& f) -> std::invoke_result_t<F&> {
  try {
    return run_released(hooks, std::forward<F>(f));
  } catch (const PythonRecommenderFailure& e) {
    throw e.error();
  }
}

}  // namespace assay::python
