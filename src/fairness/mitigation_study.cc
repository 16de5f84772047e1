#include "fairness/mitigation_study.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <sstream>
#include <utility>

#include "core/error.h"
#include "core/thread_pool.h"
#include "fairness/neutral_layer.h"
#include "models/lr_model.h"

namespace assay::fairness {
namespace {

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

// The retrained LR's violations, as a share of the model's before any mitigation.
nlohmann::ordered_json adversarial_training(const Perturbator& perturbator,
                                            const models::Model& model,
                                            const AdversarialTraining& data, std::size_t threads,
                                            const std::vector<AnsweredSet>& sets,
                                            std::size_t violations_before) {
  const auto start = Clock::now();
  const auto& records = data.records;
  std::vector<PerturbationSet> perturbed(records.size());
  core::parallel_for(threads, 0, records.size(), 16, [&](std::size_t i) {
    try {
      perturbed[i] = perturbator.perturb(records[i].text);
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
  lo.c = data.c;
  models::LrTrainSummary ts;
  std::unique_ptr<models::LrModel> lr;
  try {
    lr = models::LrModel::train(texts, labels, lo, &ts);
  } catch (core::Error& e) {
    e.set_location_if_missing(core::SourceLocation(data.path));
    throw;
  }
  const double seconds_training = seconds_since(training);
  if (!data.model_out.empty()) lr->save(data.model_out);
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
      correct += lr->labels()[label] == model.labels()[*set.gold];
    }
    at += set.texts.size();
  }
  nlohmann::ordered_json j;
  j["train"] = data.path;
  j["c"] = data.c;
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
    r.max_realised = std::max(r.max_realised, realised_epsilon(s.scores));
  }
  return r;
}

}  // namespace

MitigationStudy study_mitigation(const Perturbator& perturbator, const models::Model& model,
                                 const models::CachedModel* cached, std::size_t n_inputs,
                                 const std::vector<std::optional<std::size_t>>& gold,
                                 FairnessAnswers answers, const MitigationStudyOptions& options,
                                 const std::function<void(const EpsilonOutcome&)>& on_epsilon) {
  const bool adversarial = options.adversarial.has_value();
  std::size_t n_perturbations = 0, n_labelled = 0;
  std::vector<AnsweredSet> sets;
  for (auto& input : answers.inputs) {
    AnsweredSet a;
    a.scores = std::move(input.scores);
    a.gold = gold[input.index];  // the input's label, checked against the model's when read
    n_labelled += a.gold.has_value();
    n_perturbations += input.texts.size() - 1;
    if (adversarial) a.texts = std::move(input.texts);
    sets.push_back(std::move(a));
  }
  const double seconds_asking = seconds_since(options.asking);

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
  j["format"] = kMitigationFormat;
  j["model"] = model.identity();
  j["attribute"] = perturbator.attribute().name;
  j["inputs"] = n_inputs;
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
  cost["queries_per_input"] = n_inputs == 0 ? 0.0
                                            : static_cast<double>(n_inputs + n_perturbations) /
                                                  static_cast<double>(n_inputs);
  cost["max_k"] = max_k;
  cost["seconds_perturbing_and_asking"] = seconds_asking;
  if (cached) {
    cost["answers_from_cache"] = cached->n_hits();
    cost["answers_asked"] = cached->n_queries();
  }

  auto rows = nlohmann::ordered_json::array();
  std::ostringstream csv;
  csv.precision(10);
  csv << "epsilon,violations_before,violations_after,remaining_percent,inputs_with_violations,"
         "labels_changed,max_realised_epsilon,reference_certified_epsilon,"
         "reference_violations_after,reference_remaining_percent,seconds\n";
  double seconds_smoothing = 0;
  for (double eps : options.epsilons) {
    const auto t = Clock::now();
    const auto ours =
        count_remaining(sets, [eps](const auto& s) { return neutral_smooth(s, eps); });
    const double seconds = seconds_since(t);
    seconds_smoothing += seconds;
    const auto ref =
        count_remaining(sets, [eps](const auto& s) { return reference_smooth(s, eps); });
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
    if (on_epsilon) on_epsilon({eps, before.violations, ours.violations, ref.violations});
  }
  cost["seconds_smoothing"] = seconds_smoothing;
  cost["seconds_total"] = seconds_since(options.started);
  j["cost"] = cost;
  j["epsilons"] = rows;
  if (adversarial) {
    j["adversarial_training"] = adversarial_training(perturbator, model, *options.adversarial,
                                                     options.threads, sets, before.violations);
  }
  MitigationStudy out;
  out.json = std::move(j);
  out.csv = csv.str();
  out.n_inputs = n_inputs;
  out.n_mutable = n_mutable;
  out.n_perturbations = n_perturbations;
  out.violations_before = before.violations;
  return out;
}

}  // namespace assay::fairness
