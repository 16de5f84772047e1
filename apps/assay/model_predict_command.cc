// `assay model predict`: asks a model under test about every input text and writes one JSON
// line per input: {"text", "scores", "label"} (label = the label of the largest score), and
// "gold" (the input's label, as the model names it) with --label-column or tsv-no-header input.
// With --cache the batches are chunks kept in the cache's file (models/prediction_run.h): a
// rerun resumes at the first missing batch, --shard asks a share into its own cache, and
// --merge gathers the shards' chunks before the lines are written.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "command.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/file_lock.h"
#include "core/version.h"
#include "input_options.h"
#include "model_options.h"
#include "models/cached_model.h"
#include "models/prediction_run.h"
#include "models/text_input.h"
#include "option_checks.h"
#include "shard_options.h"

namespace assay::cli {
namespace {

struct ModelPredictOptions {
  ModelOpenOptions model;
  InputFileOptions inputs;
  std::string out;
  bool quiet = false;
  ShardOptions sharding;
};

int run(const ModelPredictOptions& o) {
  (void)text_input_options(o.inputs);  // bad options fail before anything is read
  check_model_open_options(o.model);
  require_store(o.sharding, o.model.cache, "--cache");
  const core::Shard shard = shard_of(o.sharding);
  const auto records = read_input(o.inputs, &models::read_text_records);
  auto opened = open_model_under_test(o.model);
  models::Model* model = opened.model.get();
  const models::CachedModel* cached = opened.cached;
  // Every label is checked before the model is asked anything.
  const auto gold = gold_indices(*model, o.model.adapter, records,
                                 [](const models::TextRecord& r) { return r.location; });
  const auto n_labelled = static_cast<std::size_t>(
      std::count_if(gold.begin(), gold.end(), [](const auto& g) { return g.has_value(); }));
  // Finished chunks live in the answer cache's file, beside the answers.
  std::unique_ptr<core::ChunkStore> store;
  core::FileLock lock;
  if (!o.model.cache.empty()) {
    store = models::open_prediction_store(o.model.cache);
    lock = store->lock();
    merge_shards(o.sharding, *store, o.quiet);
  }
  models::PredictionRunOptions po;
  po.batch = o.model.batch;
  po.shard = shard;
  po.progress.quiet = o.quiet;
  po.cache = o.model.cache;
  const auto run = models::predict_records(*model, records, gold, po,
                                           std::string("assay ") + core::kVersion, store.get());
  if (store) {
    report_chunked_run(
        {run.chunks.n_owned, run.chunks.n_executed, run.chunks.n_resumed, run.chunks.complete},
        shard, o.model.batch, store->path(), "--cache", o.out.empty() ? "the predictions" : o.out,
        o.quiet);
  }
  if (!run.chunks.complete) return kOk;  // a shard: its chunks are in its cache
  const std::size_t n_correct = run.n_correct;
  if (o.out.empty()) {
    std::cout << run.lines;
    std::cout.flush();
  } else {
    core::AtomicFileWriter writer(o.out);
    writer.stream() << run.lines;
    writer.commit();
  }
  if (cached && !o.quiet) {
    std::cerr << "assay model predict: " << records.size() << " inputs, " << cached->n_hits()
              << " answered from " << o.model.cache << ", " << cached->n_queries()
              << " asked of the model\n";
  }
  if (n_labelled > 0 && !o.quiet) {
    std::fprintf(stderr, "assay model predict: accuracy %.2f%% (%zu of %zu labelled inputs)\n",
                 100.0 * static_cast<double>(n_correct) / static_cast<double>(n_labelled),
                 n_correct, n_labelled);
  }
  return kOk;
}

void add_model_predict_command(CLI::App& group, CommandResult& result) {
  auto opts = std::make_shared<ModelPredictOptions>();
  auto* cmd = group.add_subcommand(
      "predict", "Scores and label of every input text under a model (one JSON line each)");
  add_model_open_options(cmd, opts->model);
  add_input_options(cmd, opts->inputs);
  add_output_file(cmd, "--out", opts->out, "Write the JSON lines to FILE (atomically)");
  add_shard_options(cmd, opts->sharding, "--cache");
  cmd->add_flag("--quiet", opts->quiet, "No progress or summary on stderr");
  cmd->callback([opts, &result] { result.exit_code = run(*opts); });
}

}  // namespace

ASSAY_REGISTER_COMMAND("model", "Models under test: predict, train the built-in LR baseline",
                       "predict", add_model_predict_command)

}  // namespace assay::cli
