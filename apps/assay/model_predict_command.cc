// `assay model predict`: asks a model under test about every input text and writes one JSON
// line per input: {"text", "scores", "label"} (label = the label of the largest score), and
// "gold" (the input's label, as the model names it) with --label-column or tsv-no-header input.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "command.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/jsonl.h"
#include "core/progress.h"
#include "input_options.h"
#include "model_options.h"
#include "models/cached_model.h"
#include "models/model_error.h"
#include "models/text_input.h"
#include "option_checks.h"

namespace assay::cli {
namespace {

struct ModelPredictOptions {
  ModelOpenOptions model;
  InputFileOptions inputs;
  std::string out;
  bool quiet = false;
};

// Runs the model over the records and writes the JSON lines; returns how many labelled records
// the model labelled as their gold label says.
std::size_t predict_all(const ModelPredictOptions& o,
                        const std::vector<models::TextRecord>& records,
                        const std::vector<std::optional<std::size_t>>& gold, models::Model& model,
                        std::ostream& os) {
  core::ProgressOptions progress_options;
  progress_options.quiet = o.quiet;
  core::Progress progress("predict", records.size(), progress_options);
  const auto& labels = model.labels();
  const std::size_t batch = o.model.batch;
  std::size_t n_correct = 0;
  for (std::size_t begin = 0; begin < records.size(); begin += batch) {
    const std::size_t end = std::min(records.size(), begin + batch);
    std::vector<std::string> texts;
    texts.reserve(end - begin);
    for (std::size_t i = begin; i < end; ++i) texts.push_back(records[i].text);
    std::vector<std::vector<double>> scores;
    try {
      scores = model.predict(texts);
    } catch (models::BudgetExhausted& e) {
      const std::size_t remaining = e.n_unanswered() + (records.size() - end);
      throw core::Error(std::string(e.what()) + ": " + std::to_string(remaining) + " of " +
                        std::to_string(records.size()) + " inputs remain unanswered; the " +
                        std::to_string(records.size() - remaining) + " answered are kept in " +
                        o.model.cache +
                        "; rerun the same command with a larger --budget (or none) to continue "
                        "without asking them again");
    } catch (models::ModelError& e) {
      if (e.batch_index() && *e.batch_index() < texts.size()) {
        e.set_location_if_missing(records[begin + *e.batch_index()].location);
      } else {
        e.add_context("while predicting " + records[begin].location.to_string() + " to line " +
                      std::to_string(records[end - 1].location.line));
      }
      throw;
    }
    for (std::size_t k = 0; k < texts.size(); ++k) {
      nlohmann::ordered_json j;
      j["text"] = texts[k];
      j["scores"] = scores[k];
      const std::size_t label = models::argmax(scores[k]);
      j["label"] = labels.at(label);
      if (const auto& g = gold[begin + k]) {
        j["gold"] = labels.at(*g);
        n_correct += *g == label;
      }
      core::write_jsonl(os, j);
    }
    progress.add(texts.size());
  }
  progress.finish();
  return n_correct;
}

int run(const ModelPredictOptions& o) {
  (void)text_input_options(o.inputs);  // bad options fail before anything is read
  check_model_open_options(o.model);
  const auto records = read_input(o.inputs, &models::read_text_records);
  models::CachedModel* cached = nullptr;
  std::unique_ptr<models::Model> model = open_model_under_test(o.model, &cached);
  // Every label is checked before the model is asked anything.
  const auto gold = gold_indices(*model, o.model.adapter, records,
                                 [](const models::TextRecord& r) { return r.location; });
  const auto n_labelled = static_cast<std::size_t>(
      std::count_if(gold.begin(), gold.end(), [](const auto& g) { return g.has_value(); }));
  std::size_t n_correct = 0;
  if (o.out.empty()) {
    n_correct = predict_all(o, records, gold, *model, std::cout);
    std::cout.flush();
  } else {
    core::AtomicFileWriter writer(o.out);
    n_correct = predict_all(o, records, gold, *model, writer.stream());
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
  cmd->add_flag("--quiet", opts->quiet, "No progress or summary on stderr");
  cmd->callback([opts, &result] { result.exit_code = run(*opts); });
}

}  // namespace

ASSAY_REGISTER_COMMAND("model", "Models under test: predict, train the built-in LR baseline",
                       "predict", add_model_predict_command)

}  // namespace assay::cli
