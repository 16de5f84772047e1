// assay.rec.campaign: the stability study of `assay rec campaign` (algorithms × heuristics ×
// sizes × trials and the noise floor), resumable through its SQLite store, with recommender
// objects beside built-in configurations and programs.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bindings.h"
#include "core/error.h"
#include "core/output_path.h"
#include "core/shard.h"
#include "interrupt.h"
#include "json_value.h"
#include "python_recommender.h"
#include "recsys/data_spec.h"
#include "recsys/ratings.h"
#include "stability/campaign.h"
#include "stability/campaign_analysis.h"
#include "stability/campaign_report.h"
#include "stability/campaign_request.h"
#include "stability/fuzz_records.h"
#include "thread_count.h"

namespace assay::python {
namespace py = pybind11;
namespace {

nlohmann::ordered_json noise_record(const stability::NoiseResult& n) {
  nlohmann::ordered_json j;
  j["algorithm"] = n.algorithm;
  j["trial"] = n.trial;
  j["seed"] = n.seed;
  for (std::size_t o = 0; o < stability::kNumOracles; ++o)
    j[std::string(stability::to_string(stability::kAllOracles[o]))] = n.oracle[o];
  return j;
}

nlohmann::ordered_json failure_record(const stability::FailedRun& f) {
  nlohmann::ordered_json j;
  j["unit"] = f.unit_key();
  j["algorithm"] = f.algorithm;
  j["noise"] = f.noise;
  j["heuristic"] = f.noise ? nlohmann::ordered_json(nullptr)
                           : nlohmann::ordered_json(std::string(stability::to_string(f.heuristic)));
  j["size"] = f.noise ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(f.size);
  j["trial"] = f.trial;
  j["reason"] = f.reason;
  j["stderr_tail"] = f.stderr_tail;
  j["attempts"] = f.attempts;
  return j;
}

// Refuses, before any work, a store or output directory that cannot be written, and a store,
// data file or merged store that the report would replace (core::check_paths_apart).
void check_campaign_paths(const py::object& data_arg, const std::string& store,
                          const std::string& out, const std::vector<std::string>& merge) {
  core::check_database_file(store);
  if (!out.empty()) core::check_output_directory(out);
  std::vector<core::NamedPath> inputs;
  if (py::isinstance<py::str>(data_arg)) {
    for (auto& f : recsys::data_spec_files(recsys::parse_data_spec(data_arg.cast<std::string>())))
      inputs.push_back({"data", std::move(f)});
  }
  for (const auto& m : merge) inputs.push_back({"merge", m});
  core::check_paths_apart(inputs, {}, {{"store", store}},
                          {{"out", out, stability::campaign_report_files()}});
}

py::dict campaign(const py::object& data_arg, const py::object& algorithms_arg,
                  const std::string& store_path, const std::optional<std::string>& out,
                  const std::optional<std::vector<std::string>>& heuristics,
                  const std::vector<std::size_t>& sizes, std::size_t trials, std::uint64_t seed,
                  std::size_t threads, std::size_t k, std::size_t noise_trials,
                  const std::vector<std::string>& portfolio, double delta,
                  const std::string& delta_oracle, const std::string& headline_oracle,
                  double min_effect, bool save_all, const std::optional<std::string>& sweep,
                  bool accuracy, std::size_t folds, std::size_t stop_after,
                  const std::optional<std::string>& shard, const std::vector<std::string>& merge,
                  const std::optional<std::string>& data_name, py::object progress) {
  check_threads(static_cast<long long>(threads), false);
  check_finite(delta, "delta", 0);
  if (store_path.empty()) throw core::UsageError("store: expected a file name");
  check_campaign_paths(data_arg, store_path, out.value_or(""), merge);
  stability::CampaignRequest request;
  CallHooks hooks(std::move(progress));
  // The algorithms: one spec or object, or a list of them; None: the command's default four.
  std::vector<AlgorithmArg> args;
  if (!algorithms_arg.is_none()) {
    py::list list;
    if (py::isinstance<py::str>(algorithms_arg) || is_recommender_object(algorithms_arg))
      list.append(algorithms_arg);
    else
      list = py::list(algorithms_arg);
    for (const py::handle a : list) {
      const auto spec = AlgorithmArg::spec_of(py::reinterpret_borrow<py::object>(a));
      // (An object named twice is refused before either is registered under its name.)
      if (std::find(request.algorithms.begin(), request.algorithms.end(), spec) !=
          request.algorithms.end())
        throw core::UsageError("algorithms: " + spec + " named twice");
      request.algorithms.push_back(spec);
    }
    for (const py::handle a : list) args.emplace_back(py::reinterpret_borrow<py::object>(a), hooks);
  }
  if (heuristics) request.heuristics = *heuristics;
  request.sizes = sizes;
  request.portfolio = portfolio;
  request.trials = trials;
  request.seed = seed;
  request.threads = threads;
  request.k = k;
  request.noise_trials = noise_trials;
  request.stop_after = stop_after;
  if (shard) request.shard = core::parse_shard(*shard);
  request.merge = merge;
  request.delta = delta;
  request.delta_oracle = delta_oracle;
  request.headline_oracle = headline_oracle;
  request.min_effect = min_effect;
  request.save_all = save_all;
  request.sweep = sweep.value_or("");
  request.accuracy = accuracy;
  request.folds = folds;
  request.progress.quiet = true;
  request.progress.on_add = [&hooks](std::uint64_t done, std::uint64_t total) {
    hooks.report(done, total);
  };

  // The data: a spec, read as `--data` reads it (its files' hashes bind the store), or Ratings.
  std::optional<recsys::DataSpec> parsed;
  const recsys::Ratings* data = nullptr;
  if (py::isinstance<py::str>(data_arg)) {
    const auto spec = data_arg.cast<std::string>();
    parsed = recsys::parse_data_spec(spec);
    request.data_description = data_name.value_or(spec);
    request.input_files = recsys::data_spec_files(*parsed);
  } else {
    if (!py::isinstance<recsys::Ratings>(data_arg))
      throw core::UsageError("data: expected a data spec (str) or assay.rec.Ratings");
    data = &data_arg.cast<const recsys::Ratings&>();
    request.data_description = data_name.value_or("ratings from Python");
  }
  const auto plan = stability::plan_campaign(request);
  std::optional<recsys::Ratings> loaded;
  if (parsed) {
    py::gil_scoped_release release;
    loaded = recsys::load_ratings(*parsed);
    data = &*loaded;
  }

  auto outcome = run_training(hooks, [&] {
    stability::CampaignStore store(store_path);
    return stability::run_campaign_plan(plan, *data, store, out.value_or(""), {});
  });
  const auto& r = outcome.results;
  py::list runs, noise, failures;
  for (const auto& run : r.runs)
    runs.append(to_python(stability::fuzz_trial_record(run.key.algorithm, run)));
  for (const auto& n : r.noise) noise.append(to_python(noise_record(n)));
  for (const auto& f : r.failures) failures.append(to_python(failure_record(f)));
  py::dict result;
  result["summary"] = to_python(nlohmann::ordered_json::parse(outcome.summary_json));
  result["runs"] = runs;
  result["noise"] = noise;
  result["failures"] = failures;
  result["complete"] = r.complete;
  result["shard_complete"] = r.shard_complete;
  result["merged"] = r.n_merged;
  result["executed"] = r.n_executed;
  result["resumed"] = r.n_resumed;
  result["failed"] = r.n_failed;
  result["files"] = outcome.written;
  return result;
}

}  // namespace

void add_rec_campaign(py::module_& rec) {
  const stability::CampaignRequest d;  // the command's defaults
  rec.def(
      "campaign", &campaign, py::arg("data"), py::arg("algorithms") = py::none(), py::kw_only(),
      py::arg("store"), py::arg("out") = py::none(), py::arg("heuristics") = py::none(),
      py::arg("sizes") = stability::CampaignConfig{}.sizes, py::arg("trials") = d.trials,
      py::arg("seed") = d.seed, py::arg("threads") = d.threads, py::arg("k") = d.k,
      py::arg("noise_trials") = d.noise_trials, py::arg("portfolio") = std::vector<std::string>{},
      py::arg("delta") = d.delta, py::arg("delta_oracle") = d.delta_oracle,
      py::arg("headline_oracle") = d.headline_oracle, py::arg("min_effect") = d.min_effect,
      py::arg("save_all") = d.save_all, py::arg("sweep") = py::none(),
      py::arg("accuracy") = d.accuracy, py::arg("folds") = d.folds,
      py::arg("stop_after") = d.stop_after, py::arg("shard") = py::none(),
      py::arg("merge") = std::vector<std::string>{}, py::arg("data_name") = py::none(),
      py::arg("progress") = py::none(),
      "campaign(data, algorithms=None, *, store, out=None, heuristics=None, sizes=[1, 10, 100], "
      "trials=100, seed=0, threads=1, k=10, noise_trials=5, portfolio=[], delta=0.1, "
      "delta_oracle='top-out', headline_oracle='top-out', min_effect=0.05, save_all=False, "
      "sweep=None, accuracy=False, folds=5, stop_after=0, shard=None, merge=[], data_name=None, "
      "progress=None) -> dict\n\n"
      "`assay rec campaign`: every algorithm × heuristic × size × trial run and the noise "
      "floor, each finished run kept in the SQLite store at once, so a call stopped part way "
      "(Ctrl-C, stop_after) is resumed by the same call. data: a data spec as `--data` takes "
      "(its files' hashes bind the store) or Ratings. algorithms: specs and recommender "
      "objects (default user-user, item-item, funk-svd, hybrid). heuristics: default all "
      "ten. sweep: 'KEY=V1,V2,...' runs every built-in spec once per value of KEY (and "
      "measures accuracy); accuracy: cross-validated RMSE and MAE of every built-in "
      "configuration (`folds` folds); save_all: every run's set under mods/, not only those "
      "above delta. shard: 'I/N' (or 'auto': an MPI or Slurm launcher's rank) runs that share of "
      "the "
      "runs into this store; merge: other shards' stores copied in first. out: a directory for the "
      "command's report (summary.json, report.html, mods/ with "
      "the sets exceeding delta, replayable by `assay rec replay`). Returns {'summary': what "
      "summary.json holds, 'runs': one record per run as `rec fuzz` writes its trials, "
      "'noise': the noise-floor retrainings, 'failures': runs whose program or object failed "
      "(retried by the next call), 'complete', 'shard_complete', 'executed', 'resumed', "
      "'merged', 'failed', 'files'}.");
}

}  // namespace assay::python
