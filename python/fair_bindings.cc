// assay.fair: MT-NLP's perturbator and metamorphic fairness test, as `assay fair perturb` and
// `assay fair test` run them (the same library calls, records and summary).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bindings.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/output_path.h"
#include "core/thread_pool.h"
#include "fairness/fairness_input.h"
#include "fairness/fairness_run.h"
#include "fairness/fairness_summary_json.h"
#include "fairness/fairness_test_runner.h"
#include "fairness/perturb_run.h"
#include "fairness/perturbation_gate.h"
#include "fairness/perturbation_json.h"
#include "fairness/perturbator.h"
#include "fairness/perturbator_config.h"
#include "interrupt.h"
#include "json_value.h"
#include "models/answer_cache.h"
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

// The command's default --max-line-bytes.
const std::size_t kMaxTextBytes = models::TextInputOptions{}.max_line_bytes;

// gate=None, 'aeon' or a dict of the gate's settings ({'action': 'drop', 'sim': 0.8, ...}: the
// command's --gate-… options without the prefix).
fairness::GateSettings gate_settings(const py::object& gate) {
  fairness::GateSettings s;
  if (gate.is_none()) return s;
  if (py::isinstance<py::str>(gate)) {
    s.gate = gate.cast<std::string>();
  } else if (py::isinstance<py::dict>(gate)) {
    s.gate = "aeon";
    const auto text = [](const std::string& key, py::handle v) {
      if (!py::isinstance<py::str>(v))
        throw core::UsageError("gate['" + key + "']: expected a string");
      return v.cast<std::string>();
    };
    for (const auto& [k, v] : gate.cast<py::dict>()) {
      const std::string key = py::str(k);
      if (key == "gate") {
        s.gate = text(key, v);
      } else if (key == "action") {
        s.action = text(key, v);
      } else if (key == "task") {
        s.task = text(key, v);
      } else if (key == "sim" || key == "nat") {
        if (py::isinstance<py::bool_>(v) ||
            !(py::isinstance<py::float_>(v) || py::isinstance<py::int_>(v)))
          throw core::UsageError("gate['" + key + "']: expected a number");
        const double x = v.cast<double>();
        const std::string name = "gate['" + key + "']";
        check_finite(x, name.c_str());
        (key == "sim" ? s.sim : s.nat) = x;
      } else if (key == "model_dir") {
        s.model_dir = text(key, v);
      } else if (key == "vectors") {
        s.vectors = text(key, v);
      } else if (key == "vectors_format") {
        s.vectors_format = text(key, v);
      } else if (key == "exact") {
        if (!py::isinstance<py::bool_>(v)) throw core::UsageError("gate['exact']: expected a bool");
        s.exact = v.cast<bool>();
      } else {
        throw core::UsageError("gate: unknown setting '" + key +
                               "' (gate, action, task, sim, nat, model_dir, vectors, "
                               "vectors_format, exact)");
      }
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

struct TestOutcome {
  std::vector<std::string> violations;
  nlohmann::ordered_json summary;
};

py::dict test(py::object model, const std::vector<std::string>& texts, const std::string& attribute,
              py::object labels, py::object model_id, const std::optional<std::string>& cache_arg,
              std::optional<std::uint64_t> budget, std::size_t batch, std::size_t chunk,
              std::size_t threads, std::size_t max_line_bytes,
              const std::optional<std::string>& out_arg, py::object gate, py::object progress,
              const py::kwargs& kw) {
  const auto config = perturbator_config(attribute, kw);
  const auto gs = gate_settings(gate);
  const auto inputs = input_records(texts, max_line_bytes);
  const std::string cache = cache_arg.value_or(""), out = out_arg.value_or("");
  if (!py::hasattr(model, "__call__"))
    throw core::UsageError("model: expected a callable from a list of texts to scores");
  if (batch == 0) throw core::UsageError("batch: expected at least 1");
  if (chunk == 0) throw core::UsageError("chunk: expected at least 1");
  check_threads(static_cast<long long>(threads), true);
  if (budget && cache.empty()) throw core::UsageError("budget needs cache=FILE");
  if (!cache.empty() && model_id.is_none())
    throw core::UsageError(
        "cache needs model_id=NAME: the name the answers are cached under (change it when the "
        "model changes)");
  if (!out.empty()) core::check_output_directory(out);
  if (!cache.empty()) core::check_database_file(cache);
  core::check_paths_apart({}, {}, {{"cache", cache}},
                          {{"out", out, {"violations.jsonl", "summary.json"}}});
  CallHooks hooks(std::move(progress));
  std::unique_ptr<models::Model> m = std::make_unique<PythonModel>(
      model, model_labels(model, labels), model_identity(model, model_id), batch, hooks);
  models::CachedModel* cached = nullptr;
  if (!cache.empty()) {
    auto c = std::make_unique<models::CachedModel>(std::move(m),
                                                   std::make_shared<models::AnswerCache>(cache),
                                                   models::CachedModelOptions{budget, batch});
    cached = c.get();
    m = std::move(c);
  }
  std::string warning;
  auto outcome = run_released(hooks, [&] {
    const auto loaded =
        fairness::load_gated_perturbator(fairness::perturbator_settings(config), gs);
    fairness::FairnessTestOptions to;
    if (loaded.gate) to.filter = loaded.gate->filter();
    to.chunk_inputs = chunk;
    to.threads = threads;
    to.progress.quiet = true;
    to.progress.on_add = [&hooks](std::uint64_t done, std::uint64_t total) {
      hooks.report(done, total);
    };
    auto run = fairness::run_fairness_test(*loaded.perturbator, *m, inputs, to, "python", nullptr);
    if (loaded.gate) warning = loaded.gate->drop_warning(loaded.gate->counts(), kGateFix);
    TestOutcome o;
    o.summary = fairness::fairness_summary_json(run.summary, m->identity(),
                                                loaded.perturbator->attribute().name);
    if (cached) {
      o.summary["answers_from_cache"] = cached->n_hits();
      o.summary["answers_asked"] = cached->n_queries();
    }
    o.violations = std::move(run.violations);
    if (!out.empty()) {  // the command's two files, each written atomically
      std::filesystem::create_directories(out);
      core::AtomicFileWriter file(out + "/violations.jsonl");
      for (const auto& line : o.violations) file.stream() << line << '\n';
      file.commit();
      core::write_file_atomically(out + "/summary.json", o.summary.dump(2) + "\n");
    }
    return o;
  });
  warn_if_gate_drops_most(warning);
  py::list violations;
  for (const auto& line : outcome.violations)
    violations.append(to_python(nlohmann::ordered_json::parse(line)));
  py::dict result;
  result["violations"] = violations;
  result["summary"] = to_python(outcome.summary);
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
         kPerturbationKeywords)
            .c_str());
  m.def("test", &test, py::arg("model"), py::arg("texts"), py::kw_only(),
        py::arg("attribute") = "gender", py::arg("labels") = py::none(),
        py::arg("model_id") = py::none(), py::arg("cache") = py::none(),
        py::arg("budget") = py::none(), py::arg("batch") = 64, py::arg("chunk") = 64,
        py::arg("threads") = 0, py::arg("max_line_bytes") = kMaxTextBytes, py::arg("out") = "",
        py::arg("gate") = py::none(), py::arg("progress") = py::none(),
        (std::string(
             "test(model, texts, *, attribute='gender', labels=None, model_id=None, cache=None, "
             "budget=None, batch=64, chunk=64, threads=0, max_line_bytes=") +
         std::to_string(kMaxTextBytes) +
         ", out=None, gate=None, progress=None, **options) "
         "-> dict\n\n"
         "MT-NLP's Algorithm 1 as `assay fair test`: every text perturbed, the model asked "
         "for each original and its perturbations, and every perturbation whose label "
         "(argmax) differs reported. model: any callable from a list of texts to a 2-D "
         "array of scores (e.g. pipeline.predict_proba), asked `batch` texts at a time. "
         "labels: its labels in score order (default: the estimator's classes_). cache: "
         "the answer cache's SQLite file (needs model_id, the name answers are kept "
         "under); budget: texts the model may be asked. out: a directory for "
         "violations.jsonl and summary.json, as the command writes them. gate: as "
         "perturb's; only the perturbations it keeps are asked. Returns "
         "{'violations': [...], 'summary': {...}}. options: " +
         kPerturbationKeywords)
            .c_str());
}

}  // namespace assay::python
