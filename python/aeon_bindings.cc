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

#include "aeon/score_record.h"
#include "aeon/sentence_splitter.h"
#include "aeon/test_case.h"
#include "aeon/test_case_scorer.h"
#include "aeon/thresholds.h"
#include "bindings.h"
#include "core/error.h"
#include "interrupt.h"
#include "json_value.h"
#include "lm/bert_model.h"
#include "lm/model_spec.h"
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
               py::object progress) {
  if (originals.size() != generated.size())
    throw core::UsageError("originals and generated: expected as many texts in each, got " +
                           std::to_string(originals.size()) + " and " +
                           std::to_string(generated.size()));
  check_threads(threads, false);
  aeon::TestCaseScorerOptions so;
  so.model_dir = model_dir;
  so.embedding_dir = embedding_dir;
  so.ngram_model = lm::ngram_model_path(ngram_model);
  so.vectors = vectors;
  so.vectors_format = vectors_format;
  so.wordnet_dir = wordnet_dir;
  if (ngram_normaliser == "enumerate")
    so.ngram_normaliser = aeon::NgramNormaliser::kEnumerate;
  else if (ngram_normaliser != "backoff")
    throw core::UsageError("ngram_normaliser: expected backoff or enumerate, got '" +
                           ngram_normaliser + "'");
  if (!vectors.empty() && (!model_dir.empty() || !embedding_dir.empty()))
    throw core::UsageError(
        "vectors selects the offline SemEval; it cannot be combined with model_dir/embedding_dir");
  if (variant == "paper")
    so.semeval.variant = aeon::SemEvalVariant::kPaper;
  else if (variant != "reference")
    throw core::UsageError("variant: expected reference or paper, got '" + variant + "'");
  if (pooling == "pooler")
    so.semeval.pooling = aeon::EmbeddingPooling::kPooler;
  else if (pooling == "cls")
    so.semeval.pooling = aeon::EmbeddingPooling::kCls;
  else if (pooling != "auto")
    throw core::UsageError("pooling: expected auto, pooler or cls, got '" + pooling + "'");
  std::vector<aeon::TestCase> cases(originals.size());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    cases[i].original = keep_markers ? originals[i] : aeon::strip_mutation_markers(originals[i]);
    cases[i].generated = keep_markers ? generated[i] : aeon::strip_mutation_markers(generated[i]);
    cases[i].where = core::SourceLocation("generated[" + std::to_string(i) + "]");
  }
  CallHooks hooks(std::move(progress));
  std::string semeval_backend, syneval_backend;
  const auto scores = run_released(hooks, [&] {
    lm::set_blas_threads(threads);
    aeon::TestCaseScorer scorer(so);
    semeval_backend = scorer.semeval_backend();
    syneval_backend = scorer.syneval_backend();
    // A chunk at a time, so that progress is reported and Ctrl-C is heard between chunks
    // (every case is scored on its own: the scores do not depend on the chunks).
    constexpr std::size_t kChunk = 64;
    std::vector<aeon::TestCaseScore> all;
    for (std::size_t at = 0; at < cases.size(); at += kChunk) {
      hooks.check();
      const std::size_t end = std::min(cases.size(), at + kChunk);
      const std::vector<aeon::TestCase> chunk(cases.begin() + static_cast<std::ptrdiff_t>(at),
                                              cases.begin() + static_cast<std::ptrdiff_t>(end));
      auto part = scorer.score_all(chunk, threads);
      all.insert(all.end(), part.begin(), part.end());
      hooks.report(end, cases.size());
    }
    return all;
  });
  // The records of `assay aeon score --format jsonl`.
  py::list records;
  for (std::size_t i = 0; i < cases.size(); ++i)
    records.append(
        to_python(aeon::score_record(cases[i], scores[i], semeval_backend, syneval_backend)));
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
  const aeon::TestCaseScorerOptions defaults;
  m.def("score", &score, py::arg("originals"), py::arg("generated"), py::kw_only(),
        py::arg("ngram_model") = "cmu", py::arg("vectors") = "",
        py::arg("vectors_format") = "glove", py::arg("wordnet_dir") = defaults.wordnet_dir,
        py::arg("model_dir") = "", py::arg("embedding_dir") = "", py::arg("variant") = "reference",
        py::arg("pooling") = "auto", py::arg("ngram_normaliser") = "backoff",
        py::arg("keep_markers") = false, py::arg("threads") = 2, py::arg("progress") = py::none(),
        "score(originals, generated, *, ngram_model='cmu', vectors='', vectors_format='glove', "
        "wordnet_dir=<Debian's>, model_dir='', embedding_dir='', variant='reference', "
        "pooling='auto', ngram_normaliser='backoff', keep_markers=False, threads=2, "
        "progress=None) -> list[dict]\n\n"
        "SemEval (consistency) and SynEval (naturalness) of each pair (originals[i], "
        "generated[i]), as `assay aeon score` writes them: offline (the CMU trigram, WordNet "
        "or word vectors) unless model_dir and embedding_dir name Hugging Face checkpoints. "
        "[[...]] markers are stripped unless keep_markers.");
  m.def("filter", &filter, py::arg("records"), py::arg("task"), py::kw_only(),
        py::arg("sim_threshold") = py::none(), py::arg("nat_threshold") = py::none(),
        "filter(records, task, *, sim_threshold=None, nat_threshold=None) -> (kept, dropped)\n\n"
        "Splits scored records (from score) by AEON's thresholds for the task (sa, nli, se), "
        "as `assay aeon filter`: the dropped ones get 'reason'.");
}

}  // namespace assay::python
