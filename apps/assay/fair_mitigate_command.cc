// `assay fair mitigate`: MT-NLP's neutral layer measured as the paper's Fig. 5 does. Every
// input is perturbed and asked as in `fair test` (same options, same texts, so with the same
// --cache it asks the model nothing new); then, for each ε of --epsilon, the outputs of each
// input and its perturbations are smoothed (fairness::neutral_smooth, (ε, k = |S|)-fair) and
// the violations that remain (argmax f(x_i) ≠ argmax f(x0)) are counted as a percentage of
// those before, beside the reference code's weighting (which certifies ln(1 + e^ε)). Cost:
// texts asked per input (k + 1), wall time. DIR/mitigation.json and DIR/mitigation.csv,
// written atomically. Exit 0 (a study), 2 for bad input.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "command.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/file_lock.h"
#include "core/progress.h"
#include "core/thread_pool.h"
#include "fair_run_options.h"
#include "fairness/fairness_test_runner.h"
#include "fairness/neutral_layer.h"
#include "models/lr_model.h"
#include "models/text_input.h"
#include "option_checks.h"
#include "shard_options.h"

namespace assay::cli {
namespace {

struct FairMitigateOptions : FairRunOptions {
  std::string out;
  std::vector<double> epsilons = {0.1, 0.5, 1, 1.8, 5, 10};
  // The adversarial-training comparison (the paper's "LR Base"), for an lr: model.
  std::string adversarial_train;
  std::string adversarial_text_column = "text", adversarial_label_column = "label";
  double adversarial_c = 1.0;
  std::string adversarial_model_out;
  ShardOptions sharding;
};

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

struct AnsweredSet {
  std::vector<std::vector<double>> scores;  // M(x0), then M of each perturbation
  std::optional<std::size_t> gold;          // index of the input's label among the model's
  std::vector<std::string> texts;           // x0 and its perturbations (adversarial training)
};

nlohmann::ordered_json percent(std::size_t part, std::size_t whole) {
  if (whole == 0) return nullptr;
  return 100.0 * static_cast<double>(part) / static_cast<double>(whole);
}

// The paper's "LR Base": the built-in LR retrained on its training data plus every
// perturbation of that data (each with its original's label), then asked about the same test
// inputs and perturbations; its violations, as a share of the model's before any mitigation.
// The labelled training file of --adversarial-train, its labels as the model under test names
// them (so that the retrained LR's answers compare with the test inputs' labels).
struct TrainingData {
  std::vector<models::TextRecord> records;
  std::vector<std::string> labels;
};

TrainingData read_training_data(const FairMitigateOptions& o, const models::Model& model) {
  models::TextInputOptions in;
  in.text_column = o.adversarial_text_column;
  in.label_column = o.adversarial_label_column;
  TrainingData data;
  data.records = models::read_text_records(o.adversarial_train, in);
  const auto gold = gold_indices(model, o.model.adapter, data.records,
                                 [](const models::TextRecord& r) { return r.location; });
  for (const auto& g : gold) data.labels.push_back(model.labels()[g.value()]);
  return data;
}

nlohmann::ordered_json adversarial_training(const FairMitigateOptions& o, const FairRun& fr,
                                            const TrainingData& data,
                                            const std::vector<AnsweredSet>& sets,
                                            std::size_t violations_before) {
  const auto start = Clock::now();
  const auto& records = data.records;
  std::vector<fairness::PerturbationSet> perturbed(records.size());
  core::parallel_for(o.threads, 0, records.size(), 16, [&](std::size_t i) {
    try {
      perturbed[i] = fr.perturbator->perturb(records[i].text);
    } catch (core::Error& e) {
      e.set_location_if_missing(records[i].location);
      throw;
    }
  });
  std::vector<std::string> texts, labels;
  std::size_t added = 0, mutable_train = 0;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const std::string& label = data.labels[i];
    texts.push_back(records[i].text);
    labels.push_back(label);
    mutable_train += perturbed[i].is_mutable();
    for (const auto& p : perturbed[i].perturbations) {
      texts.push_back(p.text);
      labels.push_back(label);
      ++added;
    }
  }
  const double seconds_perturbing = seconds_since(start);
  const auto training = Clock::now();
  models::LogisticRegressionOptions lo;
  lo.c = o.adversarial_c;
  models::LrTrainSummary ts;
  std::unique_ptr<models::LrModel> lr;
  try {
    lr = models::LrModel::train(texts, labels, lo, &ts);
  } catch (core::Error& e) {
    e.set_location_if_missing(core::SourceLocation(o.adversarial_train));
    throw;
  }
  const double seconds_training = seconds_since(training);
  if (!o.adversarial_model_out.empty()) lr->save(o.adversarial_model_out);
  // Every test text in one call, in input order.
  std::vector<std::string> asked;
  for (const auto& set : sets) asked.insert(asked.end(), set.texts.begin(), set.texts.end());
  const auto scores = asked.empty() ? std::vector<std::vector<double>>{} : lr->predict(asked);
  std::size_t at = 0, violations = 0, inputs = 0, correct = 0, labelled = 0;
  for (const auto& set : sets) {
    const std::size_t label = models::argmax(scores[at]);
    std::size_t here = 0;
    for (std::size_t k = 1; k < set.texts.size(); ++k)
      here += models::argmax(scores[at + k]) != label;
    violations += here;
    inputs += here > 0;
    if (set.gold) {
      ++labelled;
      correct += lr->labels()[label] == fr.model->labels()[*set.gold];
    }
    at += set.texts.size();
  }
  nlohmann::ordered_json j;
  j["train"] = o.adversarial_train;
  j["c"] = o.adversarial_c;
  j["train_texts"] = records.size();
  j["train_mutable"] = mutable_train;
  j["perturbations_added"] = added;
  j["model"] = lr->identity();
  j["lbfgs_iterations"] = ts.n_iterations;
  j["converged"] = ts.converged;
  j["violations"] = violations;
  j["remaining_percent"] = percent(violations, violations_before);
  j["inputs_with_violations"] = inputs;
  if (labelled > 0) j["accuracy"] = percent(correct, labelled);
  j["seconds_perturbing_training_data"] = seconds_perturbing;
  j["seconds_training"] = seconds_training;
  return j;
}

// Violations left by a smoothing: perturbations whose smoothed label differs from x0's.
struct Remaining {
  std::size_t violations = 0, inputs = 0, labels_changed = 0, correct = 0;
  double max_realised = 0;
};

template <class Smooth>
Remaining count_remaining(const std::vector<AnsweredSet>& sets, Smooth smooth) {
  Remaining r;
  for (const auto& set : sets) {
    const auto s = smooth(set.scores);
    std::size_t here = 0;
    for (std::size_t i = 1; i < s.scores.size(); ++i)
      here += models::argmax(s.scores[i]) != s.label;
    r.violations += here;
    r.inputs += here > 0;
    r.labels_changed += s.label != models::argmax(set.scores[0]);
    r.correct += set.gold && *set.gold == s.label;
    r.max_realised = std::max(r.max_realised, fairness::realised_epsilon(s.scores));
  }
  return r;
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
  const auto start = Clock::now();
  auto fr = open_fair_run(o);
  // The training file is checked before the model is asked anything.
  const TrainingData training = adversarial ? read_training_data(o, *fr.model) : TrainingData{};

  fairness::FairnessTestOptions to;
  to.chunk_inputs = o.chunk;
  to.threads = o.threads;
  to.shard = shard;
  to.progress.quiet = o.quiet;
  to.label = "fair mitigate";
  if (fr.gate) to.filter = fr.gate->filter();
  // Finished chunks live in the answer cache's file, beside the answers (and `fair test`'s).
  std::unique_ptr<core::ChunkStore> store;
  core::FileLock lock;
  if (!o.model.cache.empty()) {
    store = fairness::open_fair_mitigate_store(o.model.cache);
    lock = store->lock();
    merge_shards(o.sharding, *store, o.quiet);
  }
  const auto asking = Clock::now();
  auto answers = fairness::answer_inputs(*fr.perturbator, *fr.model, fr.inputs, to,
                                         fair_run_settings(o, fr), store.get());
  report_chunked_run({answers.n_owned, answers.n_executed, answers.n_resumed, answers.complete},
                     shard, o.chunk, store.get(), "--cache", o.out, o.quiet);
  // A shard's chunks are in its cache; the outputs come from the run that merges them all.
  if (!answers.complete) return kOk;
  std::filesystem::create_directories(o.out);
  std::size_t n_perturbations = 0, n_labelled = 0;
  std::vector<AnsweredSet> sets;
  for (auto& input : answers.inputs) {
    AnsweredSet a;
    a.scores = std::move(input.scores);
    a.gold = fr.gold[input.index];  // the input's label, checked against the model's when read
    n_labelled += a.gold.has_value();
    n_perturbations += input.texts.size() - 1;
    if (adversarial) a.texts = std::move(input.texts);
    sets.push_back(std::move(a));
  }
  const double seconds_asking = seconds_since(asking);

  // Before: the model's own outputs (ε = ∞ of either weighting, computed without smoothing).
  Remaining before;
  for (const auto& set : sets) {
    const std::size_t label = models::argmax(set.scores[0]);
    std::size_t here = 0;
    for (std::size_t i = 1; i < set.scores.size(); ++i)
      here += models::argmax(set.scores[i]) != label;
    before.violations += here;
    before.inputs += here > 0;
    before.correct += set.gold && *set.gold == label;
  }

  const std::size_t n_mutable = sets.size();
  nlohmann::ordered_json j;
  j["model"] = fr.model->identity();
  j["attribute"] = fr.perturbator->attribute().name;
  j["inputs"] = fr.inputs.size();
  j["mutable"] = n_mutable;
  j["perturbations"] = n_perturbations;
  j["violations_before"] = before.violations;
  j["inputs_with_violations_before"] = before.inputs;
  if (n_labelled > 0) {
    j["labelled_mutable"] = n_labelled;
    j["accuracy_before"] = percent(before.correct, n_labelled);
  }
  std::size_t max_k = 0;
  for (const auto& s : sets) max_k = std::max(max_k, s.scores.size() - 1);
  nlohmann::ordered_json cost;
  // What the layer asks when serving: k + 1 texts for a mutable input, 1 for any other.
  cost["queries_per_mutable_input"] =
      n_mutable ? static_cast<double>(n_mutable + n_perturbations) / static_cast<double>(n_mutable)
                : 0.0;
  cost["queries_per_input"] = fr.inputs.empty()
                                  ? 0.0
                                  : static_cast<double>(fr.inputs.size() + n_perturbations) /
                                        static_cast<double>(fr.inputs.size());
  cost["max_k"] = max_k;
  cost["seconds_perturbing_and_asking"] = seconds_asking;
  if (fr.cached) {
    cost["answers_from_cache"] = fr.cached->n_hits();
    cost["answers_asked"] = fr.cached->n_queries();
  }

  auto rows = nlohmann::ordered_json::array();
  std::ostringstream csv;
  csv.precision(10);
  csv << "epsilon,violations_before,violations_after,remaining_percent,inputs_with_violations,"
         "labels_changed,max_realised_epsilon,reference_certified_epsilon,"
         "reference_violations_after,reference_remaining_percent,seconds\n";
  double seconds_smoothing = 0;
  for (double eps : o.epsilons) {
    const auto t = Clock::now();
    const auto ours =
        count_remaining(sets, [eps](const auto& s) { return fairness::neutral_smooth(s, eps); });
    const double seconds = seconds_since(t);
    seconds_smoothing += seconds;
    const auto ref =
        count_remaining(sets, [eps](const auto& s) { return fairness::reference_smooth(s, eps); });
    const double ref_certified = eps + std::log1p(std::exp(-eps));  // ln(1 + e^ε)
    nlohmann::ordered_json row;
    row["epsilon"] = eps;
    row["certificate"] = {{"epsilon", eps}, {"k_max", max_k}};
    row["violations"] = ours.violations;
    row["remaining_percent"] = percent(ours.violations, before.violations);
    row["inputs_with_violations"] = ours.inputs;
    row["labels_changed"] = ours.labels_changed;  // smoothed label of x0 ≠ the model's
    if (n_labelled > 0) row["accuracy"] = percent(ours.correct, n_labelled);
    row["max_realised_epsilon"] = ours.max_realised;
    row["seconds"] = seconds;
    row["reference"] = {{"certified_epsilon", ref_certified},
                        {"violations", ref.violations},
                        {"remaining_percent", percent(ref.violations, before.violations)},
                        {"max_realised_epsilon", ref.max_realised}};
    rows.push_back(row);
    auto pct = [](const nlohmann::ordered_json& v) {
      return v.is_null() ? std::string() : std::to_string(v.get<double>());
    };
    csv << eps << ',' << before.violations << ',' << ours.violations << ','
        << pct(row["remaining_percent"]) << ',' << ours.inputs << ',' << ours.labels_changed << ','
        << ours.max_realised << ',' << ref_certified << ',' << ref.violations << ','
        << pct(row["reference"]["remaining_percent"]) << ',' << seconds << '\n';
    if (!o.quiet) {
      std::fprintf(stderr, "epsilon %g: %zu of %zu violations remain (reference weighting: %zu)\n",
                   eps, ours.violations, before.violations, ref.violations);
    }
  }
  cost["seconds_smoothing"] = seconds_smoothing;
  cost["seconds_total"] = seconds_since(start);
  j["cost"] = cost;
  j["epsilons"] = rows;
  if (adversarial) {
    j["adversarial_training"] = adversarial_training(o, fr, training, sets, before.violations);
    const auto& a = j["adversarial_training"];
    if (!o.quiet) {
      std::fprintf(
          stderr,
          "adversarial training (LR retrained on %zu texts + %zu perturbations): %zu of %zu "
          "violations remain\n",
          a["train_texts"].get<std::size_t>(), a["perturbations_added"].get<std::size_t>(),
          a["violations"].get<std::size_t>(), before.violations);
    }
  }
  core::write_file_atomically(o.out + "/mitigation.csv", csv.str());
  core::write_file_atomically(o.out + "/mitigation.json", j.dump(2) + "\n");
  if (!o.quiet) {
    std::fprintf(stderr,
                 "%zu inputs, %zu mutable, %zu perturbations, %zu violations before smoothing "
                 "-> %s/mitigation.json, mitigation.csv\n",
                 fr.inputs.size(), n_mutable, n_perturbations, before.violations, o.out.c_str());
    if (fr.cached) {
      std::fprintf(stderr, "answers: %llu from %s, %llu asked of the model\n",
                   static_cast<unsigned long long>(fr.cached->n_hits()), o.model.cache.c_str(),
                   static_cast<unsigned long long>(fr.cached->n_queries()));
    }
  }
  if (fr.gate) fr.gate->report(answers.filtered ? *answers.filtered : fr.gate->counts(), o.quiet);
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
  cmd->add_option("--adversarial-train", o->adversarial_train,
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
  cmd->add_option("--adversarial-model-out", o->adversarial_model_out,
                  "Save the retrained LR (an lr: model file)");
  add_shard_options(cmd, o->sharding, "--cache");
  cmd->callback([o, &result] { result.exit_code = run(*o); });
}

}  // namespace

ASSAY_REGISTER_COMMAND("fair", "Fairness of NLP models (MT-NLP): perturb inputs, test models",
                       "mitigate", add_fair_mitigate_command)

}  // namespace assay::cli
