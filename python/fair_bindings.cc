// assay.fair: MT-NLP's perturbator and metamorphic fairness test, as `assay fair perturb` and
// `assay fair test` run them (the same library calls, records and summary).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bindings.h"
#include "core/error.h"
#include "core/output_path.h"
#include "core/overloaded.h"
#include "core/shard.h"
#include "fairness/fair_run_request.h"
#include "fairness/fairness_input.h"
#include "fairness/gate_option_table.h"
#include "fairness/perturb_run.h"
#include "fairness/perturbation_gate.h"
#include "fairness/perturbation_json.h"
#include "fairness/perturbator.h"
#include "fairness/perturbator_config.h"
#include "interrupt.h"
#include "json_value.h"
#include "models/cached_model.h"
#include "models/text_input.h"
#include "perturbation_kwargs.h"
#include "python_model.h"
#include "thread_count.h"

namespace assay::python {
namespace py = pybind11;
namespace {

// Input i is line i + 1, as the same texts one per line in a file (records match the
// command's); errors name it texts[i]. A text longer than `max_bytes` is refused, as the
// command refuses a longer input line (--max-line-bytes, the same default).
std::vector<fairness::InputRecord> input_records(const std::vector<std::string>& texts,
                                                 std::size_t max_bytes) {
  std::vector<fairness::InputRecord> inputs(texts.size());
  for (std::size_t i = 0; i < texts.size(); ++i) {
    if (texts[i].size() > max_bytes) {
      throw core::UsageError("texts[" + std::to_string(i) + "]: a text of " +
                             std::to_string(texts[i].size()) +
                             " bytes, longer than max_line_bytes=" + std::to_string(max_bytes));
    }
    inputs[i].line = i + 1;
    inputs[i].text = texts[i];
  }
  return inputs;
}

// The command's defaults: --max-line-bytes, --batch, --chunk, --threads.
const std::size_t kMaxTextBytes = models::TextInputOptions{}.max_line_bytes;
const std::size_t kBatch = models::AnswerCacheSettings{}.batch;
const std::size_t kChunk = fairness::FairRunRequest{}.chunk;
const std::size_t kThreads = fairness::FairRunRequest{}.threads;

// gate=None, 'aeon' or a dict of the gate's settings ({'action': 'drop', 'sim': 0.8, ...}: the
// command's --gate-… options without the prefix).
fairness::GateSettings gate_settings(const py::object& gate) {
  fairness::GateSettings s;
  if (gate.is_none()) return s;
  if (py::isinstance<py::str>(gate)) {
    s.gate = gate.cast<std::string>();
  } else if (py::isinstance<py::dict>(gate)) {
    s.gate = "aeon";
    for (const auto& [k, v] : gate.cast<py::dict>()) {
      const std::string key = py::str(k);
      const auto* option = fairness::find_gate_key(key);
      if (!option) {
        throw core::UsageError("gate: unknown setting '" + key + "' (" + fairness::gate_keys() +
                               ")");
      }
      const std::string name = "gate['" + key + "']";
      std::visit(core::Overloaded{
                     [&](fairness::GateText f) {
                       if (!py::isinstance<py::str>(v))
                         throw core::UsageError(name + ": expected a string");
                       f(s) = v.cast<std::string>();
                     },
                     [&](fairness::GateThreshold f) {
                       if (py::isinstance<py::bool_>(v) ||
                           !(py::isinstance<py::float_>(v) || py::isinstance<py::int_>(v)))
                         throw core::UsageError(name + ": expected a number");
                       const double x = v.cast<double>();
                       check_finite(x, name.c_str());
                       f(s) = x;
                     },
                     [&](fairness::GateFlag f) {
                       if (!py::isinstance<py::bool_>(v))
                         throw core::UsageError(name + ": expected a bool");
                       f(s) = v.cast<bool>();
                     },
                 },
                 option->field);
    }
  } else {
    throw core::UsageError("gate: expected None, 'aeon' or a dict of the gate's settings");
  }
  fairness::check_gate_settings(s);
  return s;
}

// Python's warning when the gate dropped more than 90 % (GIL held).
void warn_if_gate_drops_most(const std::string& warning) {
  if (!warning.empty() && PyErr_WarnEx(PyExc_UserWarning, warning.c_str(), 1) != 0)
    throw py::error_already_set();
}

constexpr const char* kGateFix = "pass gate={'sim': ..., 'nat': ...} or gate={'action': 'flag'}";

py::list perturb(const std::vector<std::string>& texts, const std::string& attribute, bool dropped,
                 std::size_t threads, std::size_t max_line_bytes, py::object gate,
                 py::object progress, const py::kwargs& kw) {
  check_threads(static_cast<long long>(threads), true);
  const auto config = perturbator_config(attribute, kw);
  const auto gs = gate_settings(gate);
  const auto inputs = input_records(texts, max_line_bytes);
  CallHooks hooks(std::move(progress));
  std::string warning;
  const auto lines = run_released(hooks, [&] {
    const auto loaded =
        fairness::load_gated_perturbator(fairness::perturbator_settings(config), gs);
    std::vector<nlohmann::ordered_json> out;
    out.reserve(inputs.size());
    fairness::PerturbRunOptions ro;
    ro.threads = threads;
    ro.dropped = dropped;
    ro.gate = loaded.gate.get();
    ro.where = [](std::size_t k, const fairness::InputRecord&) {
      return core::SourceLocation("texts[" + std::to_string(k) + "]");
    };
    ro.check = [&hooks] { hooks.check(); };
    ro.progress = [&hooks](std::size_t done, std::size_t total) { hooks.report(done, total); };
    fairness::perturb_inputs(*loaded.perturbator, inputs, ro,
                             [&out](nlohmann::ordered_json&& j) { out.push_back(std::move(j)); });
    if (loaded.gate) warning = loaded.gate->drop_warning(loaded.gate->counts(), kGateFix);
    return out;
  });
  warn_if_gate_drops_most(warning);
  py::list records;
  for (const auto& j : lines) records.append(to_python(j));
  return records;
}

// The request of fair.test's and fair.mitigate's keywords (a FairRunRequest, as the commands
// fill it from their flags).
fairness::FairRunRequest run_request(const std::string& attribute, const py::kwargs& kw,
                                     const py::object& gate, std::size_t chunk, std::size_t threads,
                                     const std::optional<std::string>& shard,
                                     const std::vector<std::string>& merge, const std::string& out,
                                     const std::string& cache, const char* const* files) {
  fairness::FairRunRequest r;
  r.perturbator = perturbator_config(attribute, kw);
  r.gate = gate_settings(gate);
  r.chunk = chunk;
  r.threads = threads;
  if (shard) r.shard = core::parse_shard(*shard);
  r.merge = merge;
  r.out = out;
  r.quiet = true;
  check_threads(static_cast<long long>(threads), true);
  fairness::check_fair_run_request(r);
  if (!out.empty()) core::check_output_directory(out);
  if (!cache.empty()) core::check_database_file(cache);
  std::vector<core::NamedPath> merged;  // read, never written over
  for (const auto& m : merge) merged.push_back({"merge", m});
  core::check_paths_apart(merged, {}, {{"cache", cache}}, {{"out", out, {files[0], files[1]}}});
  return r;
}

// The model callable behind the answer cache of cache=, budget=, batch= (models::
// behind_answer_cache, as the commands put theirs).
models::ModelUnderTest python_model_under_test(py::object model, py::object labels,
                                               py::object model_id, const std::string& cache,
                                               std::optional<std::uint64_t> budget,
                                               std::size_t batch, CallHooks& hooks) {
  if (!py::hasattr(model, "__call__"))
    throw core::UsageError("model: expected a callable from a list of texts to scores");
  if (batch == 0) throw core::UsageError("batch: expected at least 1");
  if (budget && cache.empty()) throw core::UsageError("budget needs cache=FILE");
  if (!cache.empty() && model_id.is_none())
    throw core::UsageError(
        "cache needs model_id=NAME: the name the answers are cached under (change it when the "
        "model changes)");
  return models::behind_answer_cache(
      std::make_unique<PythonModel>(model, model_labels(model, labels),
                                    model_identity(model, model_id), batch, hooks),
      {cache, budget, batch});
}

// What a run did besides its results: 'complete' (every chunk finished: the results are
// there), 'executed' and 'resumed' chunks, the chunks' store.
void add_progress(py::dict& result, const fairness::FairRunProgress& p) {
  result["complete"] = p.complete;
  result["executed"] = p.n_executed;
  result["resumed"] = p.n_resumed;
  result["merged"] = p.merged;
}

// The run of `request` (fairness::FairRun, then `stage`: run_fair_test or run_fair_mitigate)
// without the GIL; Python's warning when the gate dropped most perturbations.
template <class Stage>
auto run_fair(fairness::FairRunRequest request, std::vector<fairness::InputRecord> inputs,
              models::ModelUnderTest model, CallHooks& hooks, Stage stage) {
  std::string warning;
  auto outcome = run_released(hooks, [&] {
    fairness::FairRun run(std::move(request), std::move(inputs), std::move(model));
    auto o = stage(run);
    if (run.gate() && o.progress.gate_counts)
      warning = run.gate()->drop_warning(*o.progress.gate_counts, kGateFix);
    return o;
  });
  warn_if_gate_drops_most(warning);
  return outcome;
}

constexpr const char* kTestFiles[] = {"violations.jsonl", "summary.json"};
constexpr const char* kMitigateFiles[] = {"mitigation.json", "mitigation.csv"};

py::dict test(py::object model, const std::vector<std::string>& texts, const std::string& attribute,
              py::object labels, py::object model_id, const std::optional<std::string>& cache_arg,
              std::optional<std::uint64_t> budget, std::size_t batch, std::size_t chunk,
              std::size_t threads, std::size_t max_line_bytes, double min_delta,
              const std::optional<std::string>& shard, const std::vector<std::string>& merge,
              const std::optional<std::string>& out_arg, py::object gate, py::object progress,
              const py::kwargs& kw) {
  const std::string cache = cache_arg.value_or(""), out = out_arg.value_or("");
  auto request =
      run_request(attribute, kw, gate, chunk, threads, shard, merge, out, cache, kTestFiles);
  auto inputs = input_records(texts, max_line_bytes);
  CallHooks hooks(std::move(progress));
  auto m = python_model_under_test(model, labels, model_id, cache, budget, batch, hooks);
  request.on_progress = [&hooks](std::uint64_t done, std::uint64_t total) {
    hooks.report(done, total);
  };
  const auto outcome =
      run_fair(std::move(request), std::move(inputs), std::move(m), hooks,
               [&](fairness::FairRun& run) { return fairness::run_fair_test(run, min_delta); });
  py::dict result;
  add_progress(result, outcome.progress);
  if (!outcome.progress.complete) return result;
  py::list violations;
  for (const auto& line : outcome.violations)
    violations.append(to_python(nlohmann::ordered_json::parse(line)));
  result["violations"] = violations;
  result["summary"] = to_python(outcome.summary_json);
  return result;
}

// Each text's gold label (None: it has none) as its position among the model's labels.
std::vector<std::optional<std::size_t>> gold_positions(const py::object& gold, std::size_t n_texts,
                                                       const models::Model& model) {
  std::vector<std::optional<std::size_t>> out(n_texts);
  if (gold.is_none()) return out;
  if (py::isinstance<py::str>(gold) || !py::isinstance<py::sequence>(gold))
    throw core::UsageError("gold: expected a list of label names (or None), one per text");
  const auto list = gold.cast<py::sequence>();
  if (list.size() != n_texts) {
    throw core::UsageError("gold: " + std::to_string(list.size()) + " labels for " +
                           std::to_string(n_texts) + " texts");
  }
  for (std::size_t i = 0; i < n_texts; ++i) {
    if (list[i].is_none()) continue;
    if (!py::isinstance<py::str>(list[i]))
      throw core::UsageError("gold[" + std::to_string(i) + "]: expected a label name or None");
    const auto label = list[i].cast<std::string>();
    const auto& labels = model.labels();
    const auto at = std::find(labels.begin(), labels.end(), label);
    if (at == labels.end())
      throw core::UsageError("gold[" + std::to_string(i) + "]: '" + label +
                             "' is not one of the model's labels");
    out[i] = static_cast<std::size_t>(at - labels.begin());
  }
  return out;
}

py::dict mitigate(py::object model, const std::vector<std::string>& texts,
                  const std::string& attribute, py::object labels, py::object gold,
                  py::object model_id, const std::optional<std::string>& cache_arg,
                  std::optional<std::uint64_t> budget, std::size_t batch, std::size_t chunk,
                  std::size_t threads, std::size_t max_line_bytes,
                  const std::vector<double>& epsilons, std::size_t max_k,
                  const std::optional<std::string>& shard, const std::vector<std::string>& merge,
                  const std::optional<std::string>& out_arg, py::object gate, py::object progress,
                  const py::kwargs& kw) {
  const auto started = std::chrono::steady_clock::now();
  const std::string cache = cache_arg.value_or(""), out = out_arg.value_or("");
  auto request =
      run_request(attribute, kw, gate, chunk, threads, shard, merge, out, cache, kMitigateFiles);
  fairness::MitigationStudyOptions so;
  so.started = started;
  so.epsilons = epsilons;
  so.max_k = max_k;
  so.batch = batch;
  fairness::check_mitigation_options(so);
  auto inputs = input_records(texts, max_line_bytes);
  CallHooks hooks(std::move(progress));
  auto m = python_model_under_test(model, labels, model_id, cache, budget, batch, hooks);
  const auto gold_at = gold_positions(gold, texts.size(), *m.model);
  request.on_progress = [&hooks](std::uint64_t done, std::uint64_t total) {
    hooks.report(done, total);
  };
  const auto outcome = run_fair(
      std::move(request), std::move(inputs), std::move(m), hooks, [&](fairness::FairRun& run) {
        return fairness::run_fair_mitigate(run, std::move(so), gold_at, {});
      });
  py::dict result;
  add_progress(result, outcome.progress);
  if (outcome.study) result["study"] = to_python(outcome.study->json);
  return result;
}

}  // namespace

void add_fair(py::module_& parent) {
  auto m = parent.def_submodule(
      "fair", "Fairness of NLP models (MT-NLP): perturb texts, test a model (docs/python.md)");
  m.def("perturb", &perturb, py::arg("texts"), py::arg("attribute") = "gender", py::kw_only(),
        py::arg("dropped") = true, py::arg("threads") = 0,
        py::arg("max_line_bytes") = kMaxTextBytes, py::arg("gate") = py::none(),
        py::arg("progress") = py::none(),
        (std::string("perturb(texts, attribute='gender', *, dropped=True, threads=0, "
                     "max_line_bytes=") +
         std::to_string(kMaxTextBytes) +
         ", gate=None, progress=None, **options) -> list[dict]\n\n"
         "One record per text, as `assay fair perturb` writes its JSON lines: the "
         "perturbations (text and record of each) and, with dropped=True, the "
         "dropped candidates with reasons. attribute: gender, religion, "
         "sexual-orientation, race, nationality, age or an attribute file. "
         "threads: 0 = every core (the records do not depend on it). "
         "max_line_bytes: a longer text is refused (ValueError), as the command's "
         "--max-line-bytes. gate: None, 'aeon' (AEON's scores on every perturbation, "
         "as --gate aeon) or a dict of its settings (action, task, sim, nat, "
         "model_dir, vectors, vectors_format, exact: the --gate-… options). "
         "progress: None or progress(done, total). options: " +
         perturbation_keywords())
            .c_str());
  m.def("test", &test, py::arg("model"), py::arg("texts"), py::kw_only(),
        py::arg("attribute") = "gender", py::arg("labels") = py::none(),
        py::arg("model_id") = py::none(), py::arg("cache") = py::none(),
        py::arg("budget") = py::none(), py::arg("batch") = kBatch, py::arg("chunk") = kChunk,
        py::arg("threads") = kThreads, py::arg("max_line_bytes") = kMaxTextBytes,
        py::arg("min_delta") = 0.0, py::arg("shard") = py::none(),
        py::arg("merge") = std::vector<std::string>{}, py::arg("out") = "",
        py::arg("gate") = py::none(), py::arg("progress") = py::none(),
        (std::string(
             "test(model, texts, *, attribute='gender', labels=None, model_id=None, cache=None, "
             "budget=None, batch=64, chunk=64, threads=0, max_line_bytes=") +
         std::to_string(kMaxTextBytes) +
         ", min_delta=0, shard=None, merge=[], out=None, gate=None, progress=None, **options) "
         "-> dict\n\n"
         "MT-NLP's Algorithm 1 as `assay fair test`: every text perturbed, the model asked "
         "for each original and its perturbations, and every perturbation whose label "
         "(argmax) differs reported. model: any callable from a list of texts to a 2-D "
         "array of scores (e.g. pipeline.predict_proba), asked `batch` texts at a time. "
         "labels: its labels in score order (default: the estimator's classes_). cache: "
         "the answer cache's SQLite file (needs model_id, the name answers are kept "
         "under); it keeps each finished chunk of `chunk` inputs too, so a call after an "
         "interrupted one resumes. budget: texts the model may be asked. min_delta: a changed "
         "label counts only when the original label's score fell by at least this much. "
         "shard: 'I/N' (or 'auto': an MPI or Slurm launcher's rank) runs that share of the "
         "chunks into cache; merge: other shards' caches copied in first. out: a directory for "
         "violations.jsonl and summary.json, as the command writes them. gate: as "
         "perturb's; only the perturbations it keeps are asked. Returns {'complete', "
         "'executed', 'resumed', 'merged' (chunks), and once every chunk is finished "
         "'violations': [...], 'summary': {...}}. options: " +
         perturbation_keywords())
            .c_str());
  m.def("mitigate", &mitigate, py::arg("model"), py::arg("texts"), py::kw_only(),
        py::arg("attribute") = "gender", py::arg("labels") = py::none(),
        py::arg("gold") = py::none(), py::arg("model_id") = py::none(),
        py::arg("cache") = py::none(), py::arg("budget") = py::none(), py::arg("batch") = kBatch,
        py::arg("chunk") = kChunk, py::arg("threads") = kThreads,
        py::arg("max_line_bytes") = kMaxTextBytes,
        py::arg("epsilons") = fairness::MitigationStudyOptions{}.epsilons,
        py::arg("max_k") = fairness::MitigationStudyOptions{}.max_k, py::arg("shard") = py::none(),
        py::arg("merge") = std::vector<std::string>{}, py::arg("out") = "",
        py::arg("gate") = py::none(), py::arg("progress") = py::none(),
        "mitigate(model, texts, *, attribute='gender', labels=None, gold=None, model_id=None, "
        "cache=None, budget=None, batch=64, chunk=64, threads=0, max_line_bytes=..., "
        "epsilons=[0.1, 0.5, 1, 1.8, 5, 10], max_k=16, shard=None, merge=[], out=None, "
        "gate=None, progress=None, **options) -> dict\n\n"
        "The neutral layer measured as `assay fair mitigate` measures it (MT-NLP Fig. 5): the "
        "texts fair.test asks, then every one answered as `fair serve` answers it, and per "
        "epsilon the violations that remain. model, labels, model_id, cache, budget, batch, "
        "chunk, threads, shard, merge, gate and options: as fair.test's. gold: each text's "
        "label (or None), for the accuracies. max_k: perturbations of a class's "
        "representative asked. out: a directory for mitigation.json and mitigation.csv. "
        "Returns {'complete', 'executed', 'resumed', 'merged', and once every chunk is "
        "finished 'study': mitigation.json's content}.");
}

}  // namespace assay::python
