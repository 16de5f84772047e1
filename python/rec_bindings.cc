// assay.rec: ratings (a data spec as `--data` takes, or columns from Python: lists, NumPy
// arrays, a pandas DataFrame), the built-in recommenders, every user's top-k as `assay rec
// recommend` writes it and fuzzing as `assay rec fuzz` does — with a recommender object
// (python_recommender.h) or a cmd: program wherever an algorithm goes. The campaign is in
// rec_campaign_bindings.cc.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bindings.h"
#include "core/error.h"
#include "core/output_path.h"
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
#include "stability/fuzz_request.h"
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

py::dict fuzz(const recsys::Ratings& data, const py::object& algorithm_arg,
              const std::string& heuristic_name, std::size_t size, std::size_t trials,
              std::uint64_t seed, std::size_t k, std::size_t threads,
              const std::vector<std::string>& portfolio, std::optional<double> delta,
              const std::optional<std::string>& save_dir, const std::string& data_name,
              py::object progress) {
  check_threads(static_cast<long long>(threads), false);
  stability::FuzzRequest request;
  request.heuristic = heuristic_name;
  request.size = size;
  request.trials = trials;
  request.seed = seed;
  request.k = k;
  request.threads = threads;
  request.portfolio = portfolio;
  request.delta = delta;
  request.save_dir = save_dir.value_or("");
  request.data = data_name;
  if (!request.save_dir.empty()) core::check_output_directory(request.save_dir);
  CallHooks hooks(std::move(progress));
  // As `assay rec fuzz`: the normalised spec names the configuration (seeds, records).
  const AlgorithmArg arg(algorithm_arg, hooks);
  request.algorithm = arg.spec();
  stability::check_fuzz_request(request);
  request.check = [&hooks] { hooks.check(); };
  request.on_trial = [&hooks](std::size_t done, std::size_t total) { hooks.report(done, total); };
  const auto outcome = run_training(hooks, [&] { return stability::run_fuzz(request, data); });
  // The lines of `assay rec fuzz`: one per trial, then the summary's means and deviations.
  py::list lines;
  for (std::size_t i = 0; i + 1 < outcome.records.size(); ++i)
    lines.append(to_python(outcome.records[i]));
  py::dict result;
  result["trials"] = lines;
  result["summary"] = to_python(outcome.records.back());
  result["exceeding"] = outcome.n_exceeding;
  result["saved"] = outcome.n_saved;
  result["failed"] = outcome.failed();
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
  const stability::FuzzRequest d;  // the command's defaults
  m.def("fuzz", &fuzz, py::arg("data"), py::arg("algorithm"), py::arg("heuristic"), py::kw_only(),
        py::arg("size") = d.size, py::arg("trials") = d.trials, py::arg("seed") = d.seed,
        py::arg("k") = d.k, py::arg("threads") = d.threads,
        py::arg("portfolio") = std::vector<std::string>{}, py::arg("delta") = py::none(),
        py::arg("save_dir") = py::none(), py::arg("data_name") = "ratings from Python",
        py::arg("progress") = py::none(),
        "fuzz(data, algorithm, heuristic, *, size=10, trials=10, seed=0, k=10, threads=1, "
        "portfolio=[], delta=None, save_dir=None, data_name='ratings from Python', "
        "progress=None) -> dict\n\n"
        "One heuristic (AMU RMU CMU ALI AMR AMA ARAND RRAND CRAND APORTFOLIO), sets of `size` "
        "modifications, `trials` retrainings, as `assay rec fuzz`: {'trials': [one record per "
        "trial with each oracle's distance], 'summary': {... 'mean', 'sd'}, 'exceeding', "
        "'saved', 'failed'}. algorithm: a spec or a recommender object (named python:NAME); a "
        "trial whose program or object failed is a record with its reason, as the command "
        "writes it. delta: the trials whose Top Out exceeds it are counted ('exceeding'), and "
        "'failed' is True when some did or some trial failed (the command's exit 1). save_dir: "
        "a directory for the sets (with delta those exceeding it, else every finished "
        "trial's), each naming data_name, replayable by `assay rec replay`. The same seed "
        "gives the same records for any thread count.");
  add_rec_campaign(m);
}

}  // namespace assay::python
