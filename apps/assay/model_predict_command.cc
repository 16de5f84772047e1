// `assay model predict`: asks a model under test about every input text and writes one JSON
// line per input: {"text", "scores", "label"} (label = the label of the largest score).
#include <chrono>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "command.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/interrupt.h"
#include "core/jsonl.h"
#include "core/progress.h"
#include "models/cached_model.h"
#include "models/model_error.h"
#include "models/model_spec.h"
#include "models/text_input.h"
#include "option_checks.h"

namespace assay::cli {
namespace {

struct ModelPredictOptions {
  std::string model;
  std::string input;
  std::string text_column;
  bool latin1 = false;
  std::string cache;
  std::optional<std::uint64_t> budget;
  std::size_t batch = 64;
  std::string out;
  bool quiet = false;
  models::ModelOptions model_options;
};

// Runs the model over the records and writes the JSON lines; returns the number written.
void predict_all(const ModelPredictOptions& o, const std::vector<models::TextRecord>& records,
                 models::Model& model, std::ostream& os) {
  core::ProgressOptions progress_options;
  progress_options.quiet = o.quiet;
  core::Progress progress("predict", records.size(), progress_options);
  const auto& labels = model.labels();
  for (std::size_t begin = 0; begin < records.size(); begin += o.batch) {
    const std::size_t end = std::min(records.size(), begin + o.batch);
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
                        o.cache +
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
      j["label"] = labels.at(models::argmax(scores[k]));
      core::write_jsonl(os, j);
    }
    progress.add(texts.size());
  }
  progress.finish();
}

int run(const ModelPredictOptions& o) {
  if (o.batch == 0) throw core::UsageError("--batch must be at least 1");
  if (o.budget && o.cache.empty()) {
    throw core::UsageError(
        "--budget needs --cache FILE (where the answered texts are kept so a "
        "rerun can continue)");
  }
  models::TextInputOptions input;
  input.text_column = o.text_column;
  input.latin1 = o.latin1;
  const auto records = models::read_text_records(o.input, input);
  models::CachedModelOptions cache_options;
  cache_options.budget = o.budget;
  cache_options.batch_size = o.batch;
  models::CachedModel* cached = nullptr;
  std::unique_ptr<models::Model> model =
      models::open_model_with_cache(o.model, o.model_options, o.cache, cache_options, &cached);
  if (!o.cache.empty()) {
    core::set_resume_hint("the answers so far are kept in " + o.cache +
                          "; rerun the same command to resume");
  }
  if (o.out.empty()) {
    predict_all(o, records, *model, std::cout);
    std::cout.flush();
  } else {
    core::AtomicFileWriter writer(o.out);
    predict_all(o, records, *model, writer.stream());
    writer.commit();
  }
  if (cached && !o.quiet) {
    std::cerr << "assay model predict: " << records.size() << " inputs, " << cached->n_hits()
              << " answered from " << o.cache << ", " << cached->n_queries()
              << " asked of the model\n";
  }
  return kOk;
}

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= s.size()) {
    const std::size_t comma = s.find(',', start);
    const std::size_t stop = comma == std::string::npos ? s.size() : comma;
    out.push_back(s.substr(start, stop - start));
    start = stop + 1;
  }
  return out;
}

void add_model_predict_command(CLI::App& group, CommandResult& result) {
  auto opts = std::make_shared<ModelPredictOptions>();
  auto labels = std::make_shared<std::string>();
  auto* cmd = group.add_subcommand(
      "predict", "Scores and label of every input text under a model (one JSON line each)");
  cmd->add_option("--model", opts->model,
                  "lr:FILE, cmd:PROGRAM [ARGS...], http:URL or bert:DIR (see docs/models.md)")
      ->required();
  cmd->add_option("--input", opts->input,
                  "Texts: one per line, or TSV/CSV with --text-column; - is stdin")
      ->required();
  cmd->add_option("--text-column", opts->text_column,
                  "Read a TSV (CSV when the name ends in .csv) with a header; the text column");
  cmd->add_flag("--latin1", opts->latin1, "The input is ISO-8859-1, not UTF-8");
  add_database_file(cmd, "--cache", opts->cache,
                    "SQLite answer cache keyed by (model identity, exact text)");
  add_count(cmd, "--budget", opts->budget,
            "Ask the model about at most N texts (needs --cache); rerun to continue",
            {.min = 0, .max = 1'000'000'000'000});
  add_count(cmd, "--batch", opts->batch, "Texts per predict call", {.min = 1, .max = 1'000'000})
      ->capture_default_str();
  add_output_file(cmd, "--out", opts->out, "Write the JSON lines to FILE (atomically)");
  cmd->add_option("--labels", *labels,
                  "Comma-separated label names (cmd: children that do not send their own)");
  add_finite(cmd, "--timeout", opts->model_options.timeout_seconds, "Seconds an answer may take",
             {.min = 0, .min_exclusive = true})
      ->capture_default_str();
  cmd->add_option("--header", opts->model_options.http.headers,
                  "http: 'Name: value' with ${VAR} from the environment (repeatable)");
  cmd->add_option("--body-template", opts->model_options.http.body_template,
                  "http: request body with {text} or {texts}")
      ->capture_default_str();
  cmd->add_option("--scores-pointer", opts->model_options.http.scores_pointer,
                  "http: JSON pointer to the scores in the response");
  cmd->add_option("--label-map", opts->model_options.http.label_map,
                  "http: ANSWER=label,... for answers given as {label, score} objects");
  add_count(cmd, "--concurrency", opts->model_options.http.concurrency,
            "http: requests in parallel", {.min = 1, .max = 1'024})
      ->capture_default_str();
  add_count(cmd, "--retries", opts->model_options.http.max_retries,
            "http: retries per request on 429, 5xx and connection errors", {.min = 0, .max = 1'000})
      ->capture_default_str();
  cmd->add_option("--ca-file", opts->model_options.http.ca_file,
                  "http: extra CA certificate file for HTTPS");
  add_count(cmd, "--restarts", opts->model_options.command.max_restarts,
            "cmd: restarts of a child that dies", {.min = 0, .max = 1'000})
      ->capture_default_str();
  cmd->add_flag("--quiet", opts->quiet, "No progress or summary on stderr");
  cmd->callback([opts, labels, &result] {
    if (!labels->empty()) opts->model_options.labels = split_commas(*labels);
    result.exit_code = run(*opts);
  });
}

}  // namespace

ASSAY_REGISTER_COMMAND("model", "Models under test: predict, train the built-in LR baseline",
                       "predict", add_model_predict_command)

}  // namespace assay::cli
