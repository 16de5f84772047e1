// `assay aeon score`: SemEval and SynEval of test cases (pairs from two line files, JSON lines,
// or an annotation CSV) with local Hugging Face checkpoints, or offline (CMU trigram, word
// vectors / WordNet) when no checkpoint is given; JSON lines or CSV out. With --store the
// pairs are scored in chunks kept in that SQLite file (aeon/score_run.h): a rerun resumes at
// the first missing chunk, --shard scores a share into its own store, and --merge gathers the
// shards' chunks before the output is written.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "aeon/score_run.h"
#include "aeon/test_case.h"
#include "aeon/test_case_scorer.h"
#include "command.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/file_lock.h"
#include "core/jsonl.h"
#include "core/version.h"
#include "lm/bert_model.h"
#include "lm/model_spec.h"
#include "lm/sphinx_model.h"
#include "option_checks.h"
#include "shard_options.h"

namespace assay::cli {
namespace {

struct AeonScoreOptions {
  std::string original, generated, pairs, annotations;
  std::string model_dir, embedding_dir;
  std::string ngram_model = "cmu", vectors, vectors_format = "glove";
  std::string wordnet_dir = wordnet::kDefaultDir;
  std::string format = "jsonl";
  std::string variant = "reference";
  std::string pooling = "auto";
  std::string out;
  bool keep_markers = false;
  std::string syneval_column = "absolute";
  std::string ngram_normaliser = "backoff";
  int threads = 2;
  std::string store;
  std::size_t chunk = 256;
  ShardOptions sharding;
  bool quiet = false;
};

// Everything besides the pairs and the scorer's backends that decides a chunk's lines.
std::string score_settings(const AeonScoreOptions& o) {
  std::string s = std::string("assay ") + core::kVersion;
  s += "\nmodel-dir " + o.model_dir + "\nembedding-dir " + o.embedding_dir;
  s += "\nngram-model " + o.ngram_model + "\nngram-normaliser " + o.ngram_normaliser;
  s += "\nvectors " + o.vectors + " " + o.vectors_format + "\nwordnet " + o.wordnet_dir;
  s += "\nvariant " + o.variant + "\npooling " + o.pooling;
  s += std::string("\nkeep-markers ") + (o.keep_markers ? "yes" : "no");
  return s;
}

// Writes what `emit` produces to standard output (`path` empty) or atomically to `path`.
template <typename Emit>
void write_output(const std::string& path, Emit&& emit) {
  if (path.empty()) {
    emit(std::cout);
    return;
  }
  core::AtomicFileWriter writer(path);
  emit(writer.stream());
  writer.commit();
}

int run(const AeonScoreOptions& o) {
  const int n_inputs =
      (!o.original.empty() || !o.generated.empty()) + !o.pairs.empty() + !o.annotations.empty();
  if (n_inputs != 1 || (o.original.empty() != o.generated.empty())) {
    throw core::UsageError(
        "give exactly one input: --original FILE --generated FILE, "
        "--pairs FILE.jsonl, or --annotations FILE.csv");
  }
  if (o.format != "jsonl" && o.format != "csv") {
    throw core::UsageError("--format must be jsonl or csv, got '" + o.format + "'");
  }
  aeon::TestCaseScorerOptions so;
  so.model_dir = o.model_dir;
  so.embedding_dir = o.embedding_dir;
  so.ngram_model = lm::ngram_model_path(o.ngram_model);
  so.vectors = o.vectors;
  so.vectors_format = o.vectors_format;
  so.wordnet_dir = o.wordnet_dir;
  if (o.ngram_normaliser == "enumerate")
    so.ngram_normaliser = aeon::NgramNormaliser::kEnumerate;
  else if (o.ngram_normaliser != "backoff")
    throw core::UsageError("--ngram-normaliser must be backoff or enumerate, got '" +
                           o.ngram_normaliser + "'");
  if (o.threads < 1) throw core::UsageError("--threads must be at least 1");
  require_store(o.sharding, o.store, "--store");
  if (!o.store.empty() && !o.annotations.empty()) {
    throw core::UsageError(
        "--store, --shard and --merge score pairs (--pairs or "
        "--original/--generated), not --annotations");
  }
  const core::Shard shard = shard_of(o.sharding);
  if (!o.vectors.empty() && (!o.model_dir.empty() || !o.embedding_dir.empty())) {
    throw core::UsageError(
        "--vectors selects the offline SemEval; it cannot be combined with "
        "--model-dir/--embedding-dir");
  }
  if (o.variant == "paper")
    so.semeval.variant = aeon::SemEvalVariant::kPaper;
  else if (o.variant != "reference")
    throw core::UsageError("--variant must be reference or paper");
  if (o.pooling == "pooler")
    so.semeval.pooling = aeon::EmbeddingPooling::kPooler;
  else if (o.pooling == "cls")
    so.semeval.pooling = aeon::EmbeddingPooling::kCls;
  else if (o.pooling != "auto")
    throw core::UsageError("--pooling must be auto, pooler or cls");
  aeon::SynEvalColumn syneval_column = aeon::SynEvalColumn::kAbsolute;
  if (o.syneval_column == "relative")
    syneval_column = aeon::SynEvalColumn::kRelative;
  else if (o.syneval_column != "absolute")
    throw core::UsageError("--syneval-column must be absolute or relative, got '" +
                           o.syneval_column + "'");
  if (syneval_column == aeon::SynEvalColumn::kRelative && o.annotations.empty()) {
    throw core::UsageError(
        "--syneval-column applies to --annotations only (JSON lines and CSV "
        "output always carry SynEval_relative)");
  }
  lm::set_blas_threads(o.threads);
  std::vector<aeon::TestCase> cases;
  if (!o.pairs.empty())
    cases = aeon::read_jsonl_pairs(o.pairs, !o.keep_markers);
  else if (!o.original.empty())
    cases = aeon::read_line_pairs(o.original, o.generated, !o.keep_markers);
  aeon::TestCaseScorer scorer(so);

  if (!o.annotations.empty()) {
    write_output(o.out, [&](std::ostream& os) {
      aeon::score_annotation_csv(o.annotations, os, scorer, syneval_column, o.threads);
    });
    return kOk;
  }
  std::unique_ptr<core::ChunkStore> store;
  core::FileLock lock;
  if (!o.store.empty()) {
    store = aeon::open_score_store(o.store);
    lock = store->lock();
    merge_shards(o.sharding, *store, o.quiet);
  }
  aeon::ScoreRunOptions ro;
  ro.chunk_inputs = o.chunk;
  ro.threads = o.threads;
  ro.shard = shard;
  ro.progress.quiet = o.quiet || !store;  // without a store, as quiet as before
  const auto format = o.format == "csv" ? aeon::ScoreFormat::kCsv : aeon::ScoreFormat::kJsonl;
  const auto run =
      aeon::score_test_cases(scorer, cases, format, ro, score_settings(o), store.get());
  if (store) {
    report_chunked_run({run.n_owned, run.n_executed, run.n_resumed, run.complete}, shard, o.chunk,
                       store->path(), "--store", o.out.empty() ? "the scores" : o.out, o.quiet);
  }
  if (!run.complete) return kOk;  // a shard: its chunks are in its store
  write_output(o.out, [&](std::ostream& os) {
    if (format == aeon::ScoreFormat::kCsv) os << aeon::score_csv_header();
    for (const auto& lines : run.results) os << lines;
  });
  return kOk;
}

void add_aeon_score_command(CLI::App& aeon, CommandResult& result) {
  auto opts = std::make_shared<AeonScoreOptions>();
  auto* cmd =
      aeon.add_subcommand("score", "SemEval (consistency) and SynEval (naturalness) of test cases");
  cmd->add_option("--original", opts->original, "Original texts, one per line");
  cmd->add_option("--generated", opts->generated,
                  "Generated texts, one per line (pairs with --original)");
  cmd->add_option("--pairs", opts->pairs,
                  "JSON lines with \"original\"/\"generated\" (or ori_text/adv_text)");
  cmd->add_option(
      "--annotations", opts->annotations,
      "AEON annotation CSV: rewrite its SemEval/SynEval columns (for `assay aeon eval`)");
  cmd->add_option("--model-dir", opts->model_dir,
                  "Hugging Face masked LM directory (bert-base-uncased)");
  cmd->add_option("--embedding-dir", opts->embedding_dir,
                  "Hugging Face embedding model directory (sup-simcse-bert-base-uncased)");
  cmd->add_option(
         "--ngram-model", opts->ngram_model,
         "Offline SynEval (no checkpoint): cmu (the CMU trigram), sphinx:FILE or arpa:FILE")
      ->capture_default_str();
  cmd->add_option("--vectors", opts->vectors,
                  "Offline SemEval: word-vector file (default: WordNet-only similarity)");
  cmd->add_option("--vectors-format", opts->vectors_format,
                  "glove, word2vec, word2vec-bin or fasttext")
      ->capture_default_str();
  cmd->add_option("--wordnet-dir", opts->wordnet_dir, "Offline SemEval: WordNet 3.0 database")
      ->capture_default_str();
  cmd->add_option("--format", opts->format, "jsonl or csv (ignored with --annotations)")
      ->capture_default_str();
  cmd->add_option("--variant", opts->variant, "SemEval variant: reference (code) or paper")
      ->capture_default_str();
  cmd->add_option("--pooling", opts->pooling, "Sentence vector: auto, pooler or cls")
      ->capture_default_str();
  add_count(cmd, "--threads", opts->threads,
            "Threads: offline backends score pairs in parallel (same output for any "
            "count); checkpoints use them for BLAS",
            {.min = 1, .max = 4'096})
      ->capture_default_str();
  cmd->add_option("--ngram-normaliser", opts->ngram_normaliser,
                  "Offline SynEval normaliser: backoff (exact back-off sums, lock-free model) or "
                  "enumerate (the reference: sphinxbase look-ups for every candidate, slow)")
      ->capture_default_str();
  cmd->add_flag("--keep-markers", opts->keep_markers, "Do not strip [[...]] mutation markers");
  cmd->add_option("--syneval-column", opts->syneval_column,
                  "With --annotations: SynEval column holds absolute Nat(generated) (the paper) "
                  "or relative Nat(generated) - Nat(original)")
      ->capture_default_str();
  add_output_file(cmd, "--out", opts->out, "Write to FILE (atomically) instead of stdout");
  add_database_file(cmd, "--store", opts->store,
                    "SQLite file of finished chunks of pairs: a rerun resumes there (one process "
                    "at a time); with --shard, this shard's");
  add_count(cmd, "--chunk", opts->chunk, "Pairs per chunk (with --store)",
            {.min = 1, .max = 1'000'000'000})
      ->capture_default_str();
  add_shard_options(cmd, opts->sharding, "--store");
  cmd->add_flag("--quiet", opts->quiet, "No progress on stderr");
  cmd->callback([opts, &result] { result.exit_code = run(*opts); });
}

}  // namespace

ASSAY_REGISTER_COMMAND("aeon", "Test-case quality (AEON): score, filter and evaluate", "score",
                       add_aeon_score_command)

}  // namespace assay::cli
