// The options of every command that opens a model under test (`model predict`, `fair test`,
// `fair mitigate`, `fair serve`): one vocabulary, registered once and turned into the models
// module's options in one place, so that an http: or cmd: model is given the same flags, with
// the same checks, whichever command tests it.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "models/cached_model.h"
#include "models/gold_labels.h"
#include "models/model.h"
#include "models/model_spec.h"

namespace assay::cli {

// How the adapter reaches the model: --labels (comma-separated), --label-map, --timeout,
// --header, --body-template, --scores-pointer, --concurrency, --retries, --ca-file, --restarts.
struct ModelAdapterOptions {
  std::string labels;
  models::ModelOptions model;
};

// The model under test and its answer cache: --model, --cache, --budget, --batch and the
// adapter's options.
struct ModelOpenOptions {
  std::string spec, cache;
  std::optional<std::uint64_t> budget;
  std::size_t batch = models::AnswerCacheSettings{}.batch;
  ModelAdapterOptions adapter;
};

// Registers the adapter's options on `cmd` (their defaults as `o` holds them).
void add_model_adapter_options(CLI::App* cmd, ModelAdapterOptions& o);
// Registers --model (required), --cache, --budget, --batch and the adapter's options.
void add_model_open_options(CLI::App* cmd, ModelOpenOptions& o);

// The models module's options: --labels split at commas. Throws core::UsageError for an empty
// or repeated label and a malformed --label-map.
models::ModelOptions model_options(const ModelAdapterOptions& o);

// Checks the options without opening anything: core::UsageError for --budget without --cache,
// and the errors of model_options.
void check_model_open_options(const ModelOpenOptions& o);

// The model (model_options) behind the answer cache with --cache, else asked at most --batch
// texts per call (models::behind_answer_cache; the resume hint names the cache). Opening starts
// no process: a cmd: child starts when a text is not in the cache. Throws the errors of
// check_model_open_options, models::open_model and the cache.
models::ModelUnderTest open_model_under_test(const ModelOpenOptions& o);

// The model's labels as an input file's gold labels are named (models::GoldLabels, through
// --label-map). Throws core::UsageError when --label-map maps to a label the model lacks.
models::GoldLabels gold_labels(const models::Model& model, const ModelAdapterOptions& o);
// The position of `label` among the model's labels; the ParseError at `where` for a label the
// model does not know says how to map it with --label-map.
std::size_t gold_index(const models::GoldLabels& gold, const std::string& label,
                       const core::SourceLocation& where);

// The position among the model's labels of each record's `label` (an optional string; nullopt
// stays nullopt), every one checked: the errors of gold_labels and gold_index, the latter at
// where(record). Asks the model for its labels only when some record has one.
template <class Record, class Where>
std::vector<std::optional<std::size_t>> gold_indices(const models::Model& model,
                                                     const ModelAdapterOptions& o,
                                                     const std::vector<Record>& records,
                                                     Where where) {
  std::vector<std::optional<std::size_t>> out(records.size());
  std::optional<models::GoldLabels> gold;
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (!records[i].label) continue;
    if (!gold) gold.emplace(gold_labels(model, o));
    out[i] = gold_index(*gold, *records[i].label, where(records[i]));
  }
  return out;
}

}  // namespace assay::cli
