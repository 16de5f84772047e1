// `assay model train-lr`: trains the built-in bag-of-words logistic regression (scikit-learn's
// CountVectorizer and LogisticRegression defaults) from a labelled TSV/CSV and saves it for
// `--model lr:FILE`.
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>

#include "command.h"
#include "core/error.h"
#include "core/progress.h"
#include "models/lr_model.h"
#include "models/text_input.h"
#include "option_checks.h"

namespace assay::cli {
namespace {

struct TrainLrOptions {
  std::string train;
  std::string out;
  std::string text_column = "text";
  std::string label_column = "label";
  bool latin1 = false;
  double c = 1.0;
  bool quiet = false;
};

int run(const TrainLrOptions& o) {
  if (!(o.c > 0)) throw core::UsageError("--c must be positive");
  models::TextInputOptions input;
  input.text_column = o.text_column;
  input.label_column = o.label_column;
  input.latin1 = o.latin1;
  const auto records = models::read_text_records(o.train, input);
  std::vector<std::string> texts, labels;
  texts.reserve(records.size());
  labels.reserve(records.size());
  for (const auto& r : records) {
    texts.push_back(r.text);
    labels.push_back(r.label);
  }
  const auto start = std::chrono::steady_clock::now();
  models::LogisticRegressionOptions options;
  options.c = o.c;
  models::LrTrainSummary summary;
  std::unique_ptr<models::LrModel> model;
  try {
    model = models::LrModel::train(texts, labels, options, &summary);
  } catch (core::Error& e) {
    e.set_location_if_missing(core::SourceLocation(o.train));
    throw;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  model->save(o.out);
  if (!o.quiet) {
    std::fprintf(stderr,
                 "assay model train-lr: %zu documents, %zu features, %zu labels; L-BFGS %d "
                 "iterations (%s), %s; wrote %s\n",
                 summary.n_documents, summary.n_features, model->labels().size(),
                 summary.n_iterations, summary.converged ? "converged" : "not converged",
                 core::Progress::format_duration(seconds).c_str(), o.out.c_str());
  }
  return kOk;
}

void add_model_train_lr_command(CLI::App& group, CommandResult& result) {
  auto opts = std::make_shared<TrainLrOptions>();
  auto* cmd = group.add_subcommand(
      "train-lr", "Train the built-in bag-of-words logistic regression (lr:FILE models)");
  cmd->add_option("--train", opts->train,
                  "Labelled texts: TSV (CSV when the name ends in .csv) with a header")
      ->required();
  add_output_file(cmd, "--out", opts->out, "Model file to write (atomically)")->required();
  cmd->add_option("--text-column", opts->text_column, "Column holding the text")
      ->capture_default_str();
  cmd->add_option("--label-column", opts->label_column, "Column holding the label")
      ->capture_default_str();
  cmd->add_flag("--latin1", opts->latin1, "The file is ISO-8859-1, not UTF-8");
  add_finite(cmd, "--c", opts->c, "Inverse L2 regularisation strength (scikit-learn's C)",
             {.min = 0, .min_exclusive = true})
      ->capture_default_str();
  cmd->add_flag("--quiet", opts->quiet, "No summary on stderr");
  cmd->callback([opts, &result] { result.exit_code = run(*opts); });
}

}  // namespace

ASSAY_REGISTER_COMMAND("model", "Models under test: predict, train the built-in LR baseline",
                       "train-lr", add_model_train_lr_command)

}  // namespace assay::cli
