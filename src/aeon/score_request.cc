#include "aeon/score_request.h"

#include "core/error.h"
#include "core/file_lock.h"
#include "core/version.h"
#include "lm/model_spec.h"

namespace assay::aeon {
namespace {

// `value` among `names` (the option's choices), else a core::UsageError naming `option`.
std::size_t choice(const std::string& value, std::initializer_list<const char*> names,
                   const char* option) {
  std::size_t i = 0;
  std::string known;
  for (const char* n : names) {
    if (value == n) return i;
    known += (known.empty() ? "" : ", ") + std::string(n);
    ++i;
  }
  throw core::UsageError(std::string(option) + ": expected one of " + known + ", got '" + value +
                         "'");
}

}  // namespace

TestCaseScorerOptions scorer_options(const ScoreRequest& r) {
  TestCaseScorerOptions so;
  so.model_dir = r.model_dir;
  so.embedding_dir = r.embedding_dir;
  so.ngram_model = lm::ngram_model_path(r.ngram_model);
  so.vectors = r.vectors;
  so.vectors_format = r.vectors_format;
  so.wordnet_dir = r.wordnet_dir;
  if (choice(r.ngram_normaliser, {"backoff", "enumerate"}, "ngram normaliser") == 1)
    so.ngram_normaliser = NgramNormaliser::kEnumerate;
  if (choice(r.variant, {"reference", "paper"}, "variant") == 1)
    so.semeval.variant = SemEvalVariant::kPaper;
  switch (choice(r.pooling, {"auto", "pooler", "cls"}, "pooling")) {
    case 1:
      so.semeval.pooling = EmbeddingPooling::kPooler;
      break;
    case 2:
      so.semeval.pooling = EmbeddingPooling::kCls;
      break;
    default:
      break;
  }
  (void)score_format(r);
  if (!r.vectors.empty() && (!r.model_dir.empty() || !r.embedding_dir.empty())) {
    throw core::UsageError(
        "word vectors select the offline SemEval; they cannot be combined with checkpoints "
        "(a model or embedding directory)");
  }
  if (r.threads < 1) throw core::UsageError("threads: expected at least 1");
  if (r.chunk == 0) throw core::UsageError("chunk: expected at least 1 pair");
  if (r.store.empty() && (!r.shard.whole() || !r.merge.empty())) {
    throw core::UsageError(
        "a shard of a run, or a merge of shards, needs a store: each shard records its "
        "finished chunks there");
  }
  return so;
}

ScoreFormat score_format(const ScoreRequest& r) {
  return choice(r.format, {"jsonl", "csv"}, "format") == 1 ? ScoreFormat::kCsv
                                                           : ScoreFormat::kJsonl;
}

std::string score_settings(const ScoreRequest& r) {
  std::string s = std::string("assay ") + core::kVersion;
  s += "\nmodel-dir " + r.model_dir + "\nembedding-dir " + r.embedding_dir;
  s += "\nngram-model " + r.ngram_model + "\nngram-normaliser " + r.ngram_normaliser;
  s += "\nvectors " + r.vectors + " " + r.vectors_format + "\nwordnet " + r.wordnet_dir;
  s += "\nvariant " + r.variant + "\npooling " + r.pooling;
  s += std::string("\nkeep-markers ") + (r.keep_markers ? "yes" : "no");
  return s;
}

ScoreOutcome run_score_request(const ScoreRequest& r, const std::vector<TestCase>& cases) {
  TestCaseScorer scorer(scorer_options(r));
  std::unique_ptr<core::ChunkStore> store;
  core::FileLock lock;
  ScoreOutcome out;
  if (!r.store.empty()) {
    store = open_score_store(r.store);
    lock = store->lock();
    for (const auto& other : r.merge) out.merged += store->merge(other);
    out.store = store->path();
  }
  ScoreRunOptions ro;
  ro.chunk_inputs = r.chunk;
  ro.threads = r.threads;
  ro.shard = r.shard;
  ro.progress = r.progress;
  const auto run =
      score_test_cases(scorer, cases, score_format(r), ro, score_settings(r), store.get());
  out.n_owned = run.n_owned;
  out.n_executed = run.n_executed;
  out.n_resumed = run.n_resumed;
  out.complete = run.complete;
  out.semeval_backend = scorer.semeval_backend();
  out.syneval_backend = scorer.syneval_backend();
  if (run.complete) {
    for (const auto& lines : run.results) out.lines += lines;
  }
  return out;
}

}  // namespace assay::aeon
