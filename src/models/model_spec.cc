#include "models/model_spec.h"

#include <filesystem>

#include "core/error.h"
#include "models/bert_classifier.h"
#include "models/command_model.h"
#include "models/http_model.h"
#include "models/lexicon_model.h"
#include "models/lr_model.h"

namespace assay::models {
namespace {

const char* kSpecForms =
    "expected lr:FILE, cmd:PROGRAM [ARGS...], http:URL (or an http:// or https:// URL), "
    "bert:DIR or afinn: (afinn:FILE)";

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

}  // namespace

std::unique_ptr<Model> open_model(const std::string& spec, const ModelOptions& options) {
  std::unique_ptr<Model> model;
  if (!options.command.identity_files.empty() && !starts_with(spec, "cmd:")) {
    throw core::UsageError("--model-file applies to cmd: models only (the identity of " + spec +
                           " already covers what it reads)");
  }
  if (starts_with(spec, "lr:")) {
    const std::string path = spec.substr(3);
    if (path.empty())
      throw core::UsageError("model spec 'lr:' names no file; " + std::string(kSpecForms));
    model = LrModel::load(path);
  } else if (starts_with(spec, "cmd:")) {
    return std::make_unique<CommandModel>(spec.substr(4), options);  // applies --labels itself
  } else if (starts_with(spec, "http://") || starts_with(spec, "https://")) {
    return std::make_unique<HttpModel>(spec, options);
  } else if (starts_with(spec, "http:")) {
    return std::make_unique<HttpModel>(spec.substr(5), options);
  } else if (starts_with(spec, "bert:")) {
    const std::string dir = spec.substr(5);
    if (dir.empty())
      throw core::UsageError("model spec 'bert:' names no folder; " + std::string(kSpecForms));
    model = std::make_unique<BertClassifier>(dir);
  } else if (starts_with(spec, "afinn:")) {
    std::string path = spec.substr(6);
    if (path.empty()) {
      path = LexiconModel::builtin_path();
      std::error_code ec;
      if (!std::filesystem::is_regular_file(path, ec)) {
        throw core::MissingResourceError(
            core::SourceLocation(path),
            "the built-in AFINN-165 lexicon of 'afinn:' is not installed: run "
            "scripts/setup.sh, which fetches it (or name a "
            "lexicon file: afinn:FILE)");
      }
    }
    model = LexiconModel::load(path);
  } else {
    throw core::UsageError("unknown model spec '" + spec + "'; " + kSpecForms);
  }
  if (!options.labels.empty() && options.labels != model->labels()) {
    throw core::UsageError("the labels given name " + std::to_string(options.labels.size()) +
                           " labels but " + model->identity() + " has its own labels");
  }
  return model;
}

}  // namespace assay::models
