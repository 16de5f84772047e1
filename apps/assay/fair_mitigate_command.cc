// `assay fair mitigate`: MT-NLP's neutral layer measured as the paper's Fig. 5 does
// (fairness/mitigation_study.h). Every input is perturbed and asked as in `fair test` (same
// options, same texts, so with the same --cache it asks the model nothing new); then every
// text is answered as `fair serve` with the same options and --max-k answers it (the class
// layer, fairness/neutral_class.h) and, for each ε of --epsilon, the violations that remain
// (argmax f(x') ≠ argmax f(x0)) are counted as a percentage of those before, beside Theorem 1
// within each input's own set and the reference code's weighting (which certifies
// ln(1 + e^ε)). Cost: texts asked per input, wall time.
// DIR/mitigation.json and DIR/mitigation.csv, written atomically. Exit 0 (a study), 2 for bad
// input.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "command.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "fair_run_options.h"
#include "fairness/fairness_test_runner.h"
#include "fairness/mitigation_study.h"
#include "models/text_input.h"
#include "option_checks.h"
#include "shard_options.h"

namespace assay::cli {
namespace {

struct FairMitigateOptions : FairRunOptions {
  std::vector<double> epsilons = fairness::MitigationStudyOptions{}.epsilons;
  std::size_t max_k = fairness::MitigationStudyOptions{}.max_k;  // as fair serve's --max-k
  // The adversarial-training comparison (the paper's "LR Base"), for an lr: model.
  std::string adversarial_train;
  std::string adversarial_text_column = "text", adversarial_label_column = "label";
  double adversarial_c = 1.0;
  std::string adversarial_model_out;
};

// The labelled training file of --adversarial-train, its labels as the model under test names
// them (so that the retrained LR's answers compare with the test inputs' labels).
fairness::AdversarialTraining read_training_data(const FairMitigateOptions& o,
                                                 const models::Model& model) {
  models::TextInputOptions in;
  in.text_column = o.adversarial_text_column;
  in.label_column = o.adversarial_label_column;
  fairness::AdversarialTraining data;
  data.path = o.adversarial_train;
  data.c = o.adversarial_c;
  data.model_out = o.adversarial_model_out;
  data.records = models::read_text_records(o.adversarial_train, in);
  const auto gold = gold_indices(model, o.model.adapter, data.records,
                                 [](const models::TextRecord& r) { return r.location; });
  for (const auto& g : gold) data.labels.push_back(model.labels()[g.value()]);
  return data;
}

void report_epsilon(const fairness::EpsilonOutcome& e) {
  std::fprintf(stderr,
               "epsilon %g: %zu of %zu violations remain (each input's own set: %zu, reference "
               "weighting: %zu)%s\n",
               e.epsilon, e.violations, e.violations_before, e.input_set_violations,
               e.reference_violations,
               e.pairs_outside_class == 0 ? ""
                                          : (", " + std::to_string(e.pairs_outside_class) +
                                             " pairs outside one class (not certified)")
                                                .c_str());
}

int run(const FairMitigateOptions& o) {
  fairness::MitigationStudyOptions so;
  so.started = std::chrono::steady_clock::now();
  so.epsilons = o.epsilons;
  so.max_k = o.max_k;
  so.batch = o.model.batch;
  fairness::check_mitigation_options(so);
  const bool adversarial = !o.adversarial_train.empty();
  if (adversarial && o.model.spec.rfind("lr:", 0) != 0)
    throw core::UsageError(
        "--adversarial-train retrains the built-in LR: --model must be lr:FILE, got '" +
        o.model.spec + "'");
  if (!(o.adversarial_c > 0)) throw core::UsageError("--adversarial-c must be positive");
  if (adversarial && (o.adversarial_text_column.empty() || o.adversarial_label_column.empty()))
    throw core::UsageError(
        "--adversarial-train reads a TSV or CSV file by its header: --adversarial-text-column "
        "and --adversarial-label-column must name its columns");
  auto opened = open_fair_run(o);
  auto& fr = *opened.run;
  // The training file is checked before the model is asked anything.
  if (adversarial) so.adversarial = read_training_data(o, fr.model());
  const auto outcome = fairness::run_fair_mitigate(fr, std::move(so), opened.gold,
                                                   [&o](const fairness::EpsilonOutcome& e) {
                                                     if (!o.quiet) report_epsilon(e);
                                                   });
  if (!outcome.progress.complete) return kOk;
  const auto& study = *outcome.study;
  if (adversarial && !o.quiet) {
    const auto& a = study.json["adversarial_training"];
    std::fprintf(stderr,
                 "adversarial training (LR retrained on %zu texts + %zu perturbations): %zu of %zu "
                 "violations remain\n",
                 a["train_texts"].get<std::size_t>(), a["perturbations_added"].get<std::size_t>(),
                 a["violations"].get<std::size_t>(), study.violations_before);
  }
  if (!o.quiet) {
    std::fprintf(stderr,
                 "%zu inputs, %zu mutable, %zu perturbations, %zu violations before smoothing "
                 "-> %s/mitigation.json, mitigation.csv\n",
                 study.n_inputs, study.n_mutable, study.n_perturbations, study.violations_before,
                 o.out.c_str());
  }
  report_answers(o, fr);
  report_fair_run_gate(o, fr, outcome.progress);
  return kOk;
}

void add_fair_mitigate_command(CLI::App& fair, CommandResult& result) {
  auto o = std::make_shared<FairMitigateOptions>();
  auto* cmd = fair.add_subcommand(
      "mitigate",
      "The neutral layer: violations that remain after (epsilon, k)-fair smoothing, per epsilon, "
      "as a percentage of those before (MT-NLP Fig. 5), and its cost");
  add_fair_run_options(cmd, *o);
  add_output_directory(cmd, "--out", o->out, "Directory for mitigation.json and mitigation.csv",
                       {"mitigation.json", "mitigation.csv"})
      ->required();
  add_finite(cmd, "--epsilon", o->epsilons, "Comma-separated epsilons (default 0.1,0.5,1,1.8,5,10)",
             {.min = 0})
      ->delimiter(',');
  add_count(cmd, "--max-k", o->max_k,
            "Perturbations of a class's representative asked (fair serve's --max-k)",
            {.min = 1, .max = 1024})
      ->capture_default_str();
  auto* train = cmd->add_option(
      "--adversarial-train", o->adversarial_train,
      "With --model lr:FILE: the labelled file it was trained on (as model train-lr "
      "reads it); the LR is retrained on it plus its perturbations and its "
      "violations are reported beside the neutral layer's (the paper's LR Base)");
  cmd->add_option("--adversarial-text-column", o->adversarial_text_column, "Its text column")
      ->capture_default_str();
  cmd->add_option("--adversarial-label-column", o->adversarial_label_column, "Its label column")
      ->capture_default_str();
  add_finite(cmd, "--adversarial-c", o->adversarial_c,
             "Inverse regularisation of the retrained LR (model train-lr --c)", {.min = 0})
      ->capture_default_str();
  add_output_file(cmd, "--adversarial-model-out", o->adversarial_model_out,
                  "Save the retrained LR (an lr: model file, written atomically)")
      ->needs(train);
  cmd->callback([o, &result] { result.exit_code = run(*o); });
}

}  // namespace

ASSAY_REGISTER_COMMAND("fair", "Fairness of NLP models (MT-NLP): perturb inputs, test models",
                       "mitigate", add_fair_mitigate_command)

}  // namespace assay::cli
