#include "model_options.h"

#include <algorithm>
#include <memory>

#include "core/interrupt.h"
#include "models/label_map.h"
#include "option_checks.h"

namespace assay::cli {

void add_model_adapter_options(CLI::App* cmd, ModelAdapterOptions& o) {
  auto& m = o.model;
  cmd->add_option("--labels", o.labels,
                  "Comma-separated label names (cmd: children that do not send their own, http:)");
  cmd->add_option("--label-map", m.http.label_map,
                  "NAME=label,...: other names of the model's labels, in http: answers given as "
                  "{label, score} objects and in the inputs' label column (e.g. 0=neg,1=pos)");
  add_finite(cmd, "--timeout", m.timeout_seconds, "Seconds an answer may take",
             {.min = 0, .min_exclusive = true})
      ->capture_default_str();
  cmd->add_option("--header", m.http.headers,
                  "http: 'Name: value' with ${VAR} from the environment (repeatable)");
  cmd->add_option("--body-template", m.http.body_template,
                  "http: request body with {text} or {texts}")
      ->capture_default_str();
  cmd->add_option("--scores-pointer", m.http.scores_pointer,
                  "http: JSON pointer to the scores in the response");
  add_count(cmd, "--concurrency", m.http.concurrency, "http: requests in parallel",
            {.min = 1, .max = 1'024})
      ->capture_default_str();
  add_count(cmd, "--retries", m.http.max_retries,
            "http: retries per request on 429, 5xx and connection errors", {.min = 0, .max = 1'000})
      ->capture_default_str();
  cmd->add_option("--ca-file", m.http.ca_file, "http: extra CA certificate file for HTTPS");
  cmd->add_option("--model-file", m.command.identity_files,
                  "cmd: a file the program reads that its command line does not name (a module "
                  "it imports): its content becomes part of the model's identity, so the answer "
                  "cache is not reused after it changes (repeatable)");
  add_count(cmd, "--restarts", m.command.max_restarts, "cmd: restarts of a child that dies",
            {.min = 0, .max = 1'000})
      ->capture_default_str();
}

void add_model_open_options(CLI::App* cmd, ModelOpenOptions& o) {
  cmd->add_option(
         "--model", o.spec,
         "lr:FILE, cmd:PROGRAM [ARGS...], http:URL, bert:DIR or afinn: (see docs/models.md)")
      ->required();
  add_database_file(cmd, "--cache", o.cache,
                    "SQLite answer cache keyed by (model identity, exact text): a rerun asks "
                    "nothing twice");
  add_count(cmd, "--budget", o.budget,
            "Ask the model about at most N texts (needs --cache); rerun to continue",
            {.min = 0, .max = 1'000'000'000'000});
  add_count(cmd, "--batch", o.batch, "Texts per call to the model", {.min = 1, .max = 1'000'000})
      ->capture_default_str();
  add_model_adapter_options(cmd, o.adapter);
}

models::ModelOptions model_options(const ModelAdapterOptions& o) {
  models::ModelOptions m = o.model;
  m.labels.clear();
  if (!o.labels.empty()) {
    std::size_t start = 0;
    while (start <= o.labels.size()) {
      const std::size_t stop = std::min(o.labels.find(',', start), o.labels.size());
      std::string label = o.labels.substr(start, stop - start);
      if (label.empty()) {
        throw core::UsageError("--labels '" + o.labels +
                               "': an empty label (expected names separated by commas)");
      }
      if (std::find(m.labels.begin(), m.labels.end(), label) != m.labels.end()) {
        throw core::UsageError("--labels '" + o.labels + "': '" + label + "' is given twice");
      }
      m.labels.push_back(std::move(label));
      start = stop + 1;
    }
  }
  try {
    (void)models::LabelMap::parse(m.http.label_map);
  } catch (core::Error& e) {
    e.add_context("--label-map");
    throw;
  }
  return m;
}

void check_model_open_options(const ModelOpenOptions& o) {
  if (o.budget && o.cache.empty()) {
    throw core::UsageError(
        "--budget needs --cache FILE (where the answered texts are kept so a rerun can "
        "continue)");
  }
  (void)model_options(o.adapter);
}

models::ModelUnderTest open_model_under_test(const ModelOpenOptions& o) {
  check_model_open_options(o);
  auto model = models::behind_answer_cache(models::open_model(o.spec, model_options(o.adapter)),
                                           {o.cache, o.budget, o.batch});
  if (!o.cache.empty()) {
    core::set_resume_hint("the answers so far are kept in " + o.cache +
                          "; rerun the same command to resume");
  }
  return model;
}

models::GoldLabels gold_labels(const models::Model& model, const ModelAdapterOptions& o) {
  try {
    return models::GoldLabels(model.labels(), models::LabelMap::parse(o.model.http.label_map));
  } catch (core::UsageError& e) {
    e.add_context("--label-map");
    throw;
  }
}

std::size_t gold_index(const models::GoldLabels& gold, const std::string& label,
                       const core::SourceLocation& where) {
  try {
    return gold.index(label, where);
  } catch (core::ParseError& e) {
    const auto& labels = gold.model_labels();
    e.add_context("map the file's labels to the model's with --label-map FILE_LABEL=" +
                  (labels.empty() ? std::string("LABEL") : labels.front()) + ",...");
    throw;
  }
}

}  // namespace assay::cli
