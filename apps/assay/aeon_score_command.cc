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

#include "aeon/score_request.h"
#include "aeon/test_case.h"
#include "aeon/test_case_scorer.h"
#include "command.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "lm/bert_model.h"
#include "option_checks.h"
#include "shard_options.h"

namespace assay::cli {
namespace {

// The request's fields are the flags' (their defaults the library's); the rest is the
// command's own.
struct AeonScoreOptions {
  aeon::ScoreRequest request;
  std::string original, generated, pairs, annotations;
  std::string out;
  std::string syneval_column = "absolute";
  ShardOptions sharding;
  bool quiet = false;
};

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

int run(AeonScoreOptions& o) {
  auto& request = o.request;
  const int n_inputs =
      (!o.original.empty() || !o.generated.empty()) + !o.pairs.empty() + !o.annotations.empty();
  if (n_inputs != 1 || (o.original.empty() != o.generated.empty())) {
    throw core::UsageError(
        "give exactly one input: --original FILE --generated FILE, "
        "--pairs FILE.jsonl, or --annotations FILE.csv");
  }
  require_store(o.sharding, request.store, "--store");
  if (!request.store.empty() && !o.annotations.empty()) {
    throw core::UsageError(
        "--store, --shard and --merge score pairs (--pairs or "
        "--original/--generated), not --annotations");
  }
  request.shard = shard_of(o.sharding);
  request.merge = o.sharding.merge;
  request.progress.quiet = o.quiet || request.store.empty();  // without a store, quiet
  const auto scorer_options = aeon::scorer_options(request);
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
  lm::set_blas_threads(request.threads);
  if (!o.annotations.empty()) {
    aeon::TestCaseScorer scorer(scorer_options);
    write_output(o.out, [&](std::ostream& os) {
      aeon::score_annotation_csv(o.annotations, os, scorer, syneval_column, request.threads);
    });
    return kOk;
  }
  const auto cases = !o.pairs.empty()
                         ? aeon::read_jsonl_pairs(o.pairs, !request.keep_markers)
                         : aeon::read_line_pairs(o.original, o.generated, !request.keep_markers);
  const auto run = aeon::run_score_request(request, cases);
  if (!run.store.empty()) {
    report_merged(o.sharding, run.merged, run.store, o.quiet);
    report_chunked_run({run.n_owned, run.n_executed, run.n_resumed, run.complete}, request.shard,
                       request.chunk, run.store, "--store", o.out.empty() ? "the scores" : o.out,
                       o.quiet);
  }
  if (!run.complete) return kOk;  // a shard: its chunks are in its store
  write_output(o.out, [&](std::ostream& os) {
    if (aeon::score_format(request) == aeon::ScoreFormat::kCsv) os << aeon::score_csv_header();
    os << run.lines;
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
  cmd->add_option("--model-dir", opts->request.model_dir,
                  "Hugging Face masked LM directory (bert-base-uncased)");
  cmd->add_option("--embedding-dir", opts->request.embedding_dir,
                  "Hugging Face embedding model directory (sup-simcse-bert-base-uncased)");
  cmd->add_option(
         "--ngram-model", opts->request.ngram_model,
         "Offline SynEval (no checkpoint): cmu (the CMU trigram), sphinx:FILE or arpa:FILE")
      ->capture_default_str();
  cmd->add_option("--vectors", opts->request.vectors,
                  "Offline SemEval: word-vector file (default: WordNet-only similarity)");
  cmd->add_option("--vectors-format", opts->request.vectors_format,
                  "glove, word2vec, word2vec-bin or fasttext")
      ->capture_default_str();
  cmd->add_option("--wordnet-dir", opts->request.wordnet_dir,
                  "Offline SemEval: WordNet 3.0 database")
      ->capture_default_str();
  cmd->add_option("--format", opts->request.format, "jsonl or csv (ignored with --annotations)")
      ->capture_default_str();
  cmd->add_option("--variant", opts->request.variant, "SemEval variant: reference (code) or paper")
      ->capture_default_str();
  cmd->add_option("--pooling", opts->request.pooling, "Sentence vector: auto, pooler or cls")
      ->capture_default_str();
  add_count(cmd, "--threads", opts->request.threads,
            "Threads: offline backends score pairs in parallel (same output for any "
            "count); checkpoints use them for BLAS",
            {.min = 1, .max = 4'096})
      ->capture_default_str();
  cmd->add_option("--ngram-normaliser", opts->request.ngram_normaliser,
                  "Offline SynEval normaliser: backoff (exact back-off sums, lock-free model) or "
                  "enumerate (the reference: sphinxbase look-ups for every candidate, slow)")
      ->capture_default_str();
  cmd->add_flag("--keep-markers", opts->request.keep_markers,
                "Do not strip [[...]] mutation markers");
  cmd->add_option("--syneval-column", opts->syneval_column,
                  "With --annotations: SynEval column holds absolute Nat(generated) (the paper) "
                  "or relative Nat(generated) - Nat(original)")
      ->capture_default_str();
  add_output_file(cmd, "--out", opts->out, "Write to FILE (atomically) instead of stdout");
  add_database_file(cmd, "--store", opts->request.store,
                    "SQLite file of finished chunks of pairs: a rerun resumes there (one process "
                    "at a time); with --shard, this shard's");
  add_count(cmd, "--chunk", opts->request.chunk, "Pairs per chunk (with --store)",
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
