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
#include "input_options.h"
#include "models/lr_model.h"
#include "models/text_input.h"
#include "option_checks.h"

namespace assay::cli {
namespace {

struct TrainLrOptions {
  InputFileOptions train;
  std::string out;
  double c = 1.0;
  bool quiet = false;
};

int run(TrainLrOptions o) {
  if (!(o.c > 0)) throw core::UsageError("--c must be positive");
  // A table is read by its header: its columns default to text and label.
  if (o.train.format == "auto" || o.train.format == "tsv" || o.train.format == "csv") {
    if (o.train.text_column.empty()) o.train.text_column = "text";
    if (o.train.label_column.empty()) o.train.label_column = "label";
  }
  if (o.train.format == "lines") {
    throw core::UsageError(
        "--input-format lines has no labels to train on: give a TSV or CSV file with a header "
        "(--text-column, --label-column) or TEXT<TAB>LABEL lines (--input-format tsv-no-header)");
  }
  const auto records = read_input(o.train, &models::read_text_records);
  std::vector<std::string> texts, labels;
  texts.reserve(records.size());
  labels.reserve(records.size());
  for (const auto& r : records) {
    if (!r.label) throw core::ParseError(r.location, "expected a text with a label, got none");
    texts.push_back(r.text);
    labels.push_back(*r.label);
  }
  const auto start = std::chrono::steady_clock::now();
  models::LogisticRegressionOptions options;
  options.c = o.c;
  models::LrTrainSummary summary;
  std::unique_ptr<models::LrModel> model;
  try {
    model = models::LrModel::train(texts, labels, options, &summary);
  } catch (core::Error& e) {
    e.set_location_if_missing(core::SourceLocation(o.train.input));
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
  add_input_options(cmd, opts->train, "--train",
                    "Labelled texts: TSV (CSV when the name ends in .csv) with a header, or "
                    "TEXT<TAB>LABEL lines (see --input-format)");
  cmd->get_option("--text-column")
      ->description("TSV/CSV: the header's name of the text column (default: text)");
  cmd->get_option("--label-column")
      ->description("TSV/CSV: the header's name of the label column (default: label)");
  add_output_file(cmd, "--out", opts->out, "Model file to write (atomically)")->required();
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
