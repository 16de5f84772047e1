// assay.rec: ratings (a data spec as `--data` takes, or columns from Python: lists, NumPy
// arrays, a pandas DataFrame), the built-in recommenders, every user's top-k as `assay rec
// recommend` writes it and fuzzing as `assay rec fuzz` does — with a recommender object
// (python_recommender.h) or a cmd: program wherever an algorithm goes. The campaign is in
// rec_campaign_bindings.cc.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <atomic>
#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bindings.h"
#include "core/error.h"
#include "core/thread_pool.h"
#include "interrupt.h"
#include "json_value.h"
#include "python_recommender.h"
#include "recsys/data_spec.h"
#include "recsys/external_recommender.h"
#include "recsys/ratings.h"
#include "recsys/ratings_builder.h"
#include "recsys/recommender.h"
#include "recsys/recommender_spec.h"
#include "recsys/top_k_record.h"
#include "stability/algorithm_baseline.h"
#include "stability/campaign_run.h"
#include "stability/fuzz_records.h"
#include "stability/heuristic.h"
#include "stability/oracles.h"
#include "thread_count.h"

namespace assay::python {
namespace py = pybind11;
namespace {

std::string label_of(const py::handle v) {
  // Whole floats (a pandas column of ids read as float) are written as integers.
  if (py::isinstance<py::float_>(v)) {
    const double d = v.cast<double>();
    if (std::isfinite(d) && std::fabs(d) < 1e15 && d == std::floor(d))
      return std::to_string(static_cast<long long>(d));
  }
  return py::str(v);
}

recsys::Ratings from_columns(const py::object& users, const py::object& items,
                             const py::object& ratings, double low, double high, double step) {
  if (!std::isfinite(low) || !std::isfinite(high) || !std::isfinite(step) || !(low <= high) ||
      !(step >= 0))
    throw core::UsageError("ratings: expected finite low <= high and step >= 0");
  if (step > 0 && (high - low) / step > 1'000'000)
    throw core::UsageError("ratings: step " + std::to_string(step) +
                           " makes more than 1,000,000 rating values from low to high");
  recsys::RatingScale scale;
  scale.low = low;
  scale.high = high;
  scale.values.clear();
  if (step > 0)
    for (double v = low; v <= high + 1e-9; v += step) scale.values.push_back(v);
  const auto u = py::list(users), i = py::list(items), r = py::list(ratings);
  if (u.size() != i.size() || u.size() != r.size())
    throw core::UsageError("ratings: users, items and ratings must have the same length, got " +
                           std::to_string(u.size()) + ", " + std::to_string(i.size()) + " and " +
                           std::to_string(r.size()));
  recsys::RatingsBuilder builder(scale);
  for (std::size_t k = 0; k < u.size(); ++k) {
    const core::SourceLocation where("ratings[" + std::to_string(k) + "]");
    double value = 0;
    try {
      value = r[k].cast<double>();
    } catch (const py::cast_error&) {
      throw core::ParseError(where, "expected a number, got " + std::string(py::str(r[k])));
    }
    builder.add_value(label_of(u[k]), label_of(i[k]), value, where);
  }
  return builder.build("ratings");
}

py::list recommend(const recsys::Ratings& data, const py::object& algorithm, std::size_t k,
                   std::uint64_t seed, std::size_t threads, py::object progress) {
  if (k == 0) throw core::UsageError("k: expected at least 1");
  check_threads(static_cast<long long>(threads), false);
  CallHooks hooks(std::move(progress));
  const AlgorithmArg arg(algorithm, hooks);
  if (recsys::is_external_spec(arg.spec())) {  // a program or an object: lists, no scores
    const auto lists = run_training(hooks, [&] {
      auto all = stability::train_and_recommend(data, arg.spec(), seed, k, threads);
      hooks.report(1, 1);
      return all;
    });
    py::list out;
    for (recsys::UserId u = 0; u < data.n_users(); ++u)
      out.append(to_python(recsys::top_k_record(nullptr, data, u, lists[u])));
    return out;
  }
  auto model = recsys::make_recommender(recsys::parse_recommender_spec(arg.spec()));
  const auto lists = run_released(hooks, [&] {
    model->fit(data, {seed, threads});
    hooks.report(1, 2);
    auto all = recsys::recommend_all(*model, data, k, threads);
    hooks.report(2, 2);
    return all;
  });
  // The lines of `assay rec recommend`: {"user", "items": [{"item", "score"}, ...]}.
  py::list out;
  for (recsys::UserId u = 0; u < data.n_users(); ++u)
    out.append(to_python(recsys::top_k_record(model.get(), data, u, lists[u])));
  return out;
}

// A trial whose recommender failed (a program's or an object's training): its reason.
struct FuzzTrial {
  stability::RunResult run;
  std::string failure, stderr_tail;
};

py::dict fuzz(const recsys::Ratings& data, const py::object& algorithm_arg,
              const std::string& heuristic_name, std::size_t size, std::size_t trials,
              std::uint64_t seed, std::size_t k, std::size_t threads,
              const std::vector<std::string>& portfolio, py::object progress) {
  if (trials == 0) throw core::UsageError("trials: expected at least 1");
  if (size == 0) throw core::UsageError("size: expected at least 1");
  if (k == 0) throw core::UsageError("k: expected at least 1");
  check_threads(static_cast<long long>(threads), false);
  const auto heuristic = stability::parse_heuristic(heuristic_name);
  stability::HeuristicOptions hopts;
  if (!portfolio.empty()) {
    hopts.portfolio.clear();
    for (const auto& p : portfolio) hopts.portfolio.push_back(stability::parse_heuristic(p));
  }
  CallHooks hooks(std::move(progress));
  // As `assay rec fuzz`: the normalised spec names the configuration (seeds, records).
  const AlgorithmArg arg(algorithm_arg, hooks);
  const std::string& algorithm = arg.spec();
  const auto runs = run_training(hooks, [&] {
    const auto baseline = stability::train_baseline(
        data, algorithm, stability::model_seed(seed, algorithm), k, threads);
    std::vector<FuzzTrial> results(trials);
    std::atomic<std::size_t> done{0};
    core::parallel_for(threads, 0, trials, 1, [&](std::size_t t) {
      hooks.check();
      const stability::RunKey key{algorithm, heuristic, size, t};
      auto& trial = results[t];
      trial.run.key = key;
      trial.run.seed = stability::run_seed(seed, key);
      try {
        trial.run = stability::execute_run(data, baseline, key, trial.run.seed, hopts);
      } catch (const recsys::RecommenderFailure& e) {  // this trial's result, as the command's
        trial.failure = e.reason();
        trial.stderr_tail = e.stderr_tail();
      }
      hooks.report(++done, trials);
    });
    return results;
  });
  // The lines of `assay rec fuzz`: one per trial, then the summary's means and deviations.
  py::list lines;
  std::vector<stability::RunResult> finished;
  for (const auto& t : runs) {
    if (t.failure.empty()) {
      lines.append(to_python(stability::fuzz_trial_record(algorithm, t.run)));
      finished.push_back(t.run);
    } else {
      lines.append(
          to_python(stability::fuzz_failure_record(algorithm, t.run, t.failure, t.stderr_tail)));
    }
  }
  const auto summary = stability::fuzz_summary_record(algorithm, heuristic, size, finished,
                                                      runs.size() - finished.size());
  py::dict result;
  result["trials"] = lines;
  result["summary"] = to_python(summary);
  return result;
}

}  // namespace

void add_rec(py::module_& parent) {
  auto m = parent.def_submodule(
      "rec", "Recommender stability: ratings, the built-in recommenders (docs/python.md)");
  py::class_<recsys::Ratings>(m, "Ratings", "A store of ratings (dense user and item ids).")
      .def_property_readonly("n_users", &recsys::Ratings::n_users)
      .def_property_readonly("n_items", &recsys::Ratings::n_items)
      .def_property_readonly("n_ratings", &recsys::Ratings::n_ratings)
      .def(
          "user_label",
          [](const recsys::Ratings& r, std::size_t u) {
            if (u >= r.n_users()) throw py::index_error("user id out of range");
            return r.user_label(static_cast<recsys::UserId>(u));
          },
          py::arg("user"), "The label (the source's id) of dense user id `user`.")
      .def(
          "item_label",
          [](const recsys::Ratings& r, std::size_t i) {
            if (i >= r.n_items()) throw py::index_error("item id out of range");
            return r.item_label(static_cast<recsys::ItemId>(i));
          },
          py::arg("item"), "The label (the source's id) of dense item id `item`.")
      .def("__repr__", [](const recsys::Ratings& r) {
        return "<assay.rec.Ratings: " + std::to_string(r.n_users()) + " users, " +
               std::to_string(r.n_items()) + " items, " + std::to_string(r.n_ratings()) +
               " ratings>";
      });
  m.def(
      "load",
      [](const std::string& spec) {
        py::gil_scoped_release release;
        return recsys::load_ratings(spec);
      },
      py::arg("spec"),
      "load(spec) -> Ratings\n\nThe ratings a data spec names, as `assay rec ... --data`: "
      "movielens-100k:DIR, movielens-1m:DIR, movielens-latest:DIR, "
      "csv:FILE[,user=COL,item=COL,rating=COL,low=L,high=H,step=S], "
      "synthetic[:users=N,items=M,ratings=R,seed=S].");
  m.def("ratings", &from_columns, py::arg("users"), py::arg("items"), py::arg("ratings"),
        py::kw_only(), py::arg("low") = 1.0, py::arg("high") = 5.0, py::arg("step") = 1.0,
        "ratings(users, items, ratings, *, low=1, high=5, step=1) -> Ratings\n\n"
        "Ratings from three columns of equal length (lists, NumPy arrays, pandas Series): user "
        "and item ids (written as text; whole floats as integers) and values on the scale "
        "low..high in steps of step (0: any value). A value off the scale or a repeated "
        "(user, item) is an assay.ParseError naming ratings[i].");
  m.def(
      "from_dataframe",
      [](const py::object& frame, const std::string& user, const std::string& item,
         const std::string& rating, double low, double high, double step) {
        return from_columns(frame[py::str(user)], frame[py::str(item)], frame[py::str(rating)], low,
                            high, step);
      },
      py::arg("frame"), py::kw_only(), py::arg("user") = "user", py::arg("item") = "item",
      py::arg("rating") = "rating", py::arg("low") = 1.0, py::arg("high") = 5.0,
      py::arg("step") = 1.0,
      "from_dataframe(frame, *, user='user', item='item', rating='rating', low=1, high=5, "
      "step=1) -> Ratings\n\nratings() of three columns of a pandas DataFrame (or any "
      "mapping of columns).");
  m.def("algorithms", &recsys::recommender_spec_names,
        "The built-in algorithms and profiles (user-user, item-item, funk-svd, ...).");
  m.def("recommend", &recommend, py::arg("data"), py::arg("algorithm"), py::kw_only(),
        py::arg("k") = 10, py::arg("seed") = 0, py::arg("threads") = 1,
        py::arg("progress") = py::none(),
        "recommend(data, algorithm, *, k=10, seed=0, threads=1, progress=None) -> list[dict]\n\n"
        "Trains the algorithm (a configuration as `--algorithm` takes, e.g. "
        "'funk-svd:damping=0' or 'cmd:PROGRAM', or a recommender object with fit(ratings) and "
        "recommend(users, k)) on data and returns every user's top-k as `assay rec "
        "recommend` writes it: {'user': label, 'items': [{'item': label, 'score': s}, ...]} "
        "(no scores from a program or an object). The same data, algorithm and seed give the "
        "same lists for any thread count.");
  m.def("fuzz", &fuzz, py::arg("data"), py::arg("algorithm"), py::arg("heuristic"), py::kw_only(),
        py::arg("size") = 10, py::arg("trials") = 10, py::arg("seed") = 0, py::arg("k") = 10,
        py::arg("threads") = 1, py::arg("portfolio") = std::vector<std::string>{},
        py::arg("progress") = py::none(),
        "fuzz(data, algorithm, heuristic, *, size=10, trials=10, seed=0, k=10, threads=1, "
        "portfolio=[], progress=None) -> dict\n\n"
        "One heuristic (AMU RMU CMU ALI AMR AMA ARAND RRAND CRAND APORTFOLIO), sets of `size` "
        "modifications, `trials` retrainings, as `assay rec fuzz`: {'trials': [one record per "
        "trial with each oracle's distance], 'summary': {... 'mean', 'sd'}}. algorithm: a "
        "spec or a recommender object (named python:NAME); a trial whose program or object "
        "failed is a record with its reason, as the command writes it. The same seed gives "
        "the same records for any thread count.");
  add_rec_campaign(m);
}

}  // namespace assay::python
