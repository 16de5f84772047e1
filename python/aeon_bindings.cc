// assay.aeon: AEON's test-case quality, as `assay aeon score` and `assay aeon filter` compute
// it (the same scorer, thresholds and records).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "aeon/score_request.h"
#include "aeon/sentence_splitter.h"
#include "aeon/test_case.h"
#include "aeon/test_case_scorer.h"
#include "aeon/thresholds.h"
#include "bindings.h"
#include "core/error.h"
#include "core/output_path.h"
#include "core/shard.h"
#include "interrupt.h"
#include "json_value.h"
#include "lm/bert_model.h"
#include "thread_count.h"

namespace assay::python {
namespace py = pybind11;
namespace {

py::list score(const std::vector<std::string>& originals, const std::vector<std::string>& generated,
               const std::string& ngram_model, const std::string& vectors,
               const std::string& vectors_format, const std::string& wordnet_dir,
               const std::string& model_dir, const std::string& embedding_dir,
               const std::string& variant, const std::string& pooling,
               const std::string& ngram_normaliser, bool keep_markers, int threads,
               std::size_t chunk, const std::optional<std::string>& store,
               const std::optional<std::string>& shard, const std::vector<std::string>& merge,
               py::object progress) {
  if (originals.size() != generated.size())
    throw core::UsageError("originals and generated: expected as many texts in each, got " +
                           std::to_string(originals.size()) + " and " +
                           std::to_string(generated.size()));
  check_threads(threads, false);
  aeon::ScoreRequest request;
  request.model_dir = model_dir;
  request.embedding_dir = embedding_dir;
  request.ngram_model = ngram_model;
  request.vectors = vectors;
  request.vectors_format = vectors_format;
  request.wordnet_dir = wordnet_dir;
  request.variant = variant;
  request.pooling = pooling;
  request.ngram_normaliser = ngram_normaliser;
  request.keep_markers = keep_markers;
  request.threads = threads;
  request.chunk = chunk;
  request.store = store.value_or("");
  if (shard) request.shard = core::parse_shard(*shard);
  request.merge = merge;
  (void)aeon::scorer_options(request);  // bad settings fail before any work
  if (!request.store.empty()) core::check_database_file(request.store);
  std::vector<aeon::TestCase> cases(originals.size());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    cases[i].original = keep_markers ? originals[i] : aeon::strip_mutation_markers(originals[i]);
    cases[i].generated = keep_markers ? generated[i] : aeon::strip_mutation_markers(generated[i]);
    cases[i].where = core::SourceLocation("generated[" + std::to_string(i) + "]");
  }
  CallHooks hooks(std::move(progress));
  request.progress.quiet = true;
  request.progress.on_add = [&hooks](std::uint64_t done, std::uint64_t total) {
    hooks.report(done, total);
  };
  const auto run = run_released(hooks, [&] {
    lm::set_blas_threads(threads);
    return aeon::run_score_request(request, cases);
  });
  // The records of `assay aeon score --format jsonl`, one per line (none from a shard's call:
  // its chunks are in its store).
  py::list records;
  for (std::size_t at = 0; at < run.lines.size();) {
    const std::size_t end = run.lines.find('\n', at);
    records.append(to_python(nlohmann::ordered_json::parse(run.lines.substr(at, end - at))));
    at = end + 1;
  }
  return records;
}

double score_field(const py::dict& record, const char* key, std::size_t index) {
  const std::string where = "records[" + std::to_string(index) + "]";
  if (!record.contains(key))
    throw core::ParseError(core::SourceLocation(where), std::string("missing field '") + key + "'");
  py::object v = record[key];
  if (v.is_none()) return std::nan("");
  if (!py::isinstance<py::float_>(v) && !py::isinstance<py::int_>(v))
    throw core::ParseError(core::SourceLocation(where),
                           std::string("field '") + key + "' is not a number");
  return v.cast<double>();
}

py::tuple filter(const py::list& records, const std::string& task,
                 std::optional<double> sim_threshold, std::optional<double> nat_threshold) {
  aeon::QualityThresholds t = aeon::thresholds_for_task(task);
  if (sim_threshold) check_finite(*sim_threshold, "sim_threshold");
  if (nat_threshold) check_finite(*nat_threshold, "nat_threshold");
  if (sim_threshold) t.sim = *sim_threshold;
  if (nat_threshold) t.nat = *nat_threshold;
  py::list kept, dropped;
  for (std::size_t i = 0; i < records.size(); ++i) {
    py::object item = records[i];
    if (!py::isinstance<py::dict>(item))
      throw core::ParseError(core::SourceLocation("records[" + std::to_string(i) + "]"),
                             "expected a dict (a record of assay.aeon.score)");
    const auto record = item.cast<py::dict>();
    const auto v =
        aeon::judge(score_field(record, "SemEval", i), score_field(record, "SynEval", i), t);
    // A copy: the caller's records are left as they are.
    py::dict out = record.attr("copy")().cast<py::dict>();
    if (v.keep) {
      kept.append(std::move(out));
    } else {
      out["reason"] = v.reason;
      dropped.append(std::move(out));
    }
  }
  return py::make_tuple(kept, dropped);
}

}  // namespace

void add_aeon(py::module_& parent) {
  auto m = parent.def_submodule(
      "aeon", "Quality of generated test cases (AEON): score and filter (docs/python.md)");
  const aeon::ScoreRequest d;  // the command's defaults
  m.def("score", &score, py::arg("originals"), py::arg("generated"), py::kw_only(),
        py::arg("ngram_model") = d.ngram_model, py::arg("vectors") = d.vectors,
        py::arg("vectors_format") = d.vectors_format, py::arg("wordnet_dir") = d.wordnet_dir,
        py::arg("model_dir") = d.model_dir, py::arg("embedding_dir") = d.embedding_dir,
        py::arg("variant") = d.variant, py::arg("pooling") = d.pooling,
        py::arg("ngram_normaliser") = d.ngram_normaliser, py::arg("keep_markers") = d.keep_markers,
        py::arg("threads") = d.threads, py::arg("chunk") = d.chunk, py::arg("store") = py::none(),
        py::arg("shard") = py::none(), py::arg("merge") = std::vector<std::string>{},
        py::arg("progress") = py::none(),
        "score(originals, generated, *, ngram_model='cmu', vectors='', vectors_format='glove', "
        "wordnet_dir=<Debian's>, model_dir='', embedding_dir='', variant='reference', "
        "pooling='auto', ngram_normaliser='backoff', keep_markers=False, threads=2, chunk=256, "
        "store=None, shard=None, merge=[], progress=None) -> list[dict]\n\n"
        "SemEval (consistency) and SynEval (naturalness) of each pair (originals[i], "
        "generated[i]), as `assay aeon score` writes them: offline (the CMU trigram, WordNet "
        "or word vectors) unless model_dir and embedding_dir name Hugging Face checkpoints. "
        "[[...]] markers are stripped unless keep_markers. The pairs are scored `chunk` at a "
        "time; with store (an SQLite file) each finished chunk is kept there, so a call after "
        "an interrupted one resumes; shard='I/N' scores that share into its store and returns "
        "[], merge=[stores] copies other shards' chunks in first.");
  m.def("filter", &filter, py::arg("records"), py::arg("task"), py::kw_only(),
        py::arg("sim_threshold") = py::none(), py::arg("nat_threshold") = py::none(),
        "filter(records, task, *, sim_threshold=None, nat_threshold=None) -> (kept, dropped)\n\n"
        "Splits scored records (from score) by AEON's thresholds for the task (sa, nli, se), "
        "as `assay aeon filter`: the dropped ones get 'reason'.");
}

}  // namespace assay::python
