// assay.rec.campaign: the stability study of `assay rec campaign` (algorithms × heuristics ×
// sizes × trials and the noise floor), resumable through its SQLite store, with recommender
// objects beside built-in configurations and programs.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

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
                  double min_effect, std::size_t stop_after,
                  const std::optional<std::string>& shard, const std::vector<std::string>& merge,
                  const std::optional<std::string>& data_name, py::object progress) {
  check_threads(static_cast<long long>(threads), false);
  check_finite(delta, "delta", 0);
  if (store_path.empty()) throw core::UsageError("store: expected a file name");
  check_campaign_paths(data_arg, store_path, out.value_or(""), merge);
  stability::CampaignConfig config;
  CallHooks hooks(std::move(progress));
  // The algorithms: one spec or object, or a list of them; None: the command's default four.
  std::vector<AlgorithmArg> args;
  if (!algorithms_arg.is_none()) {
    py::list list;
    if (py::isinstance<py::str>(algorithms_arg) || is_recommender_object(algorithms_arg))
      list.append(algorithms_arg);
    else
      list = py::list(algorithms_arg);
    config.algorithms.clear();
    for (const py::handle a : list) {
      const std::string spec = AlgorithmArg::spec_of(py::reinterpret_borrow<py::object>(a));
      for (const auto& seen : config.algorithms) {
        if (seen == spec) throw core::UsageError("algorithms: " + spec + " named twice");
      }
      config.algorithms.push_back(spec);
    }
    for (const py::handle a : list) args.emplace_back(py::reinterpret_borrow<py::object>(a), hooks);
  }
  if (heuristics) {
    config.heuristics.clear();
    for (const auto& h : *heuristics) config.heuristics.push_back(stability::parse_heuristic(h));
  }
  config.sizes = sizes;
  if (!portfolio.empty()) {
    config.heuristic_options.portfolio.clear();
    for (const auto& h : portfolio)
      config.heuristic_options.portfolio.push_back(stability::parse_heuristic(h));
  }
  config.trials = trials;
  config.seed = seed;
  config.n_threads = threads;
  config.k = k;
  config.noise_trials = noise_trials;
  config.stop_after = stop_after;
  if (shard) config.shard = core::parse_shard(*shard);
  config.merge_from = merge;
  config.progress.quiet = true;
  config.progress.on_add = [&hooks](std::uint64_t done, std::uint64_t total) {
    hooks.report(done, total);
  };
  stability::ReportOptions report;
  report.delta = delta;
  report.delta_oracle = stability::parse_oracle(delta_oracle);
  report.headline_oracle = stability::parse_oracle(headline_oracle);
  if (!(min_effect >= 0) || std::isinf(min_effect)) {
    throw core::UsageError("min_effect: expected a finite number >= 0");
  }
  report.min_effect = min_effect;
  for (const auto& a : config.algorithms) {
    if (!recsys::is_external_spec(a)) (void)recsys::make_recommender(a);
  }

  // The data: a spec, read as `--data` reads it (its files' hashes bind the store), or Ratings.
  std::optional<recsys::Ratings> loaded;
  const recsys::Ratings* data = nullptr;
  if (py::isinstance<py::str>(data_arg)) {
    const auto spec = data_arg.cast<std::string>();
    const auto parsed = recsys::parse_data_spec(spec);
    {
      py::gil_scoped_release release;
      loaded = recsys::load_ratings(parsed);
    }
    data = &*loaded;
    config.data_description = data_name.value_or(spec);
    config.input_files = recsys::data_spec_files(parsed);
  } else {
    if (!py::isinstance<recsys::Ratings>(data_arg))
      throw core::UsageError("data: expected a data spec (str) or assay.rec.Ratings");
    data = &data_arg.cast<const recsys::Ratings&>();
    config.data_description = data_name.value_or("ratings from Python");
  }

  struct Outcome {
    stability::CampaignResults results;
    std::string summary;
    std::vector<std::string> written;
  };
  auto outcome = run_training(hooks, [&] {
    Outcome o;
    stability::CampaignStore store(store_path);
    o.results = stability::run_campaign(*data, config, store);
    const auto summary = stability::analyse_campaign(config, o.results);
    if (out && !out->empty()) {
      const auto sets =
          stability::sets_exceeding(*data, config, o.results, report.delta, report.delta_oracle);
      o.written = stability::write_campaign_report(*out, *data, config, summary, sets, report);
    }
    std::vector<std::string> mod_files;
    for (const auto& w : o.written) {
      const auto at = w.rfind("/mods/");
      if (at != std::string::npos) mod_files.push_back(w.substr(at + 1));
    }
    o.summary = stability::summary_json(config, summary, report, mod_files);
    return o;
  });
  const auto& r = outcome.results;
  py::list runs, noise, failures;
  for (const auto& run : r.runs)
    runs.append(to_python(stability::fuzz_trial_record(run.key.algorithm, run)));
  for (const auto& n : r.noise) noise.append(to_python(noise_record(n)));
  for (const auto& f : r.failures) failures.append(to_python(failure_record(f)));
  py::dict result;
  result["summary"] = to_python(nlohmann::ordered_json::parse(outcome.summary));
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
  rec.def(
      "campaign", &campaign, py::arg("data"), py::arg("algorithms") = py::none(), py::kw_only(),
      py::arg("store"), py::arg("out") = py::none(), py::arg("heuristics") = py::none(),
      py::arg("sizes") = std::vector<std::size_t>{1, 10, 100}, py::arg("trials") = 100,
      py::arg("seed") = 0, py::arg("threads") = 1, py::arg("k") = 10, py::arg("noise_trials") = 5,
      py::arg("portfolio") = std::vector<std::string>{}, py::arg("delta") = 0.1,
      py::arg("delta_oracle") = "top-out", py::arg("headline_oracle") = "top-out",
      py::arg("min_effect") = stability::kDefaultMinEffect, py::arg("stop_after") = 0,
      py::arg("shard") = py::none(), py::arg("merge") = std::vector<std::string>{},
      py::arg("data_name") = py::none(), py::arg("progress") = py::none(),
      "campaign(data, algorithms=None, *, store, out=None, heuristics=None, sizes=[1, 10, 100], "
      "trials=100, seed=0, threads=1, k=10, noise_trials=5, portfolio=[], delta=0.1, "
      "delta_oracle='top-out', headline_oracle='top-out', min_effect=0.05, stop_after=0, "
      "shard=None, merge=[], data_name=None, "
      "progress=None) -> dict\n\n"
      "`assay rec campaign`: every algorithm × heuristic × size × trial run and the noise "
      "floor, each finished run kept in the SQLite store at once, so a call stopped part way "
      "(Ctrl-C, stop_after) is resumed by the same call. data: a data spec as `--data` takes "
      "(its files' hashes bind the store) or Ratings. algorithms: specs and recommender "
      "objects (default user-user, item-item, funk-svd, hybrid). heuristics: default all "
      "ten. shard: 'I/N' (or 'auto': an MPI or Slurm launcher's rank) runs that share of the "
      "runs into this store; merge: other shards' stores copied in first. out: a directory for the "
      "command's report (summary.json, report.html, mods/ with "
      "the sets exceeding delta, replayable by `assay rec replay`). Returns {'summary': what "
      "summary.json holds, 'runs': one record per run as `rec fuzz` writes its trials, "
      "'noise': the noise-floor retrainings, 'failures': runs whose program or object failed "
      "(retried by the next call), 'complete', 'shard_complete', 'executed', 'resumed', "
      "'merged', 'failed', 'files'}.");
}

}  // namespace assay::python
