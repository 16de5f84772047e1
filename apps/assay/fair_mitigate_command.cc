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
  std::string out;
  std::vector<double> epsilons = {0.1, 0.5, 1, 1.8, 5, 10};
  std::size_t max_k = 16;  // as fair serve's --max-k
  // The adversarial-training comparison (the paper's "LR Base"), for an lr: model.
  std::string adversarial_train;
  std::string adversarial_text_column = "text", adversarial_label_column = "label";
  double adversarial_c = 1.0;
  std::string adversarial_model_out;
  ShardOptions sharding;
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

int run(const FairMitigateOptions& o) {
  if (o.epsilons.empty()) throw core::UsageError("--epsilon needs at least one value");
  for (double e : o.epsilons) {
    if (!std::isfinite(e) || e < 0)
      throw core::UsageError("--epsilon: " + std::to_string(e) + " is not a finite value >= 0");
  }
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
  const core::Shard shard = shard_of(o.sharding);
  require_store(o.sharding, o.model.cache, "--cache");
  fairness::MitigationStudyOptions so;
  so.started = std::chrono::steady_clock::now();
  so.epsilons = o.epsilons;
  so.threads = o.threads;
  so.max_k = o.max_k;
  so.batch = o.model.batch;
  auto fr = open_fair_run(o);
  // The training file is checked before the model is asked anything.
  if (adversarial) so.adversarial = read_training_data(o, *fr.model);

  const auto to = runner_options(o, fr, shard, "fair mitigate");
  so.filter = to.filter;
  // Finished chunks live in the answer cache's file, beside the answers (and `fair test`'s).
  const auto store = open_fair_run_store(o, o.sharding, &fairness::open_fair_mitigate_store);
  so.asking = std::chrono::steady_clock::now();
  auto answers = fairness::answer_inputs(*fr.perturbator, *fr.model, fr.inputs, to,
                                         fair_run_settings(o, fr), store.store.get());
  report_chunked_run({answers.n_owned, answers.n_executed, answers.n_resumed, answers.complete},
                     shard, o.chunk, store.store.get(), "--cache", o.out, o.quiet);
  // A shard's chunks are in its cache; the outputs come from the run that merges them all.
  if (!answers.complete) return kOk;
  std::filesystem::create_directories(o.out);
  const auto filtered = answers.filtered;
  const auto study = fairness::study_mitigation(
      *fr.perturbator, *fr.model, fr.cached, fr.inputs.size(), fr.gold, std::move(answers), so,
      [&o](const fairness::EpsilonOutcome& e) {
        if (o.quiet) return;
        std::fprintf(stderr,
                     "epsilon %g: %zu of %zu violations remain (each input's own set: %zu, "
                     "reference weighting: %zu)%s\n",
                     e.epsilon, e.violations, e.violations_before, e.input_set_violations,
                     e.reference_violations,
                     e.pairs_outside_class == 0 ? ""
                                                : (", " + std::to_string(e.pairs_outside_class) +
                                                   " pairs outside one class (not certified)")
                                                      .c_str());
      });
  if (adversarial && !o.quiet) {
    const auto& a = study.json["adversarial_training"];
    std::fprintf(stderr,
                 "adversarial training (LR retrained on %zu texts + %zu perturbations): %zu of %zu "
                 "violations remain\n",
                 a["train_texts"].get<std::size_t>(), a["perturbations_added"].get<std::size_t>(),
                 a["violations"].get<std::size_t>(), study.violations_before);
  }
  core::write_file_atomically(o.out + "/mitigation.csv", study.csv);
  core::write_file_atomically(o.out + "/mitigation.json", study.json.dump(2) + "\n");
  if (!o.quiet) {
    std::fprintf(stderr,
                 "%zu inputs, %zu mutable, %zu perturbations, %zu violations before smoothing "
                 "-> %s/mitigation.json, mitigation.csv\n",
                 study.n_inputs, study.n_mutable, study.n_perturbations, study.violations_before,
                 o.out.c_str());
  }
  report_answers(o, fr);
  if (fr.gate) report_gate(*fr.gate, filtered ? *filtered : fr.gate->counts(), o.quiet);
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
  add_shard_options(cmd, o->sharding, "--cache");
  cmd->callback([o, &result] { result.exit_code = run(*o); });
}

}  // namespace

ASSAY_REGISTER_COMMAND("fair", "Fairness of NLP models (MT-NLP): perturb inputs, test models",
                       "mitigate", add_fair_mitigate_command)

}  // namespace assay::cli
