#include "fairness/mitigation_study.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <set>
#include <sstream>
#include <unordered_map>
#include <utility>

#include "core/error.h"
#include "core/thread_pool.h"
#include "fairness/neutral_class.h"
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

// The violations of one input: of the texts' scores after the first (its perturbations'), those
// whose label (argmax) is not `label` (the original's).
std::size_t violations_of(const std::vector<double>* first, std::size_t n_texts,
                          std::size_t label) {
  std::size_t n = 0;
  for (std::size_t i = 1; i < n_texts; ++i) n += models::argmax(first[i]) != label;
  return n;
}

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
    const std::size_t here = violations_of(&scores[at], set.texts.size(), label);
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
    const std::size_t here = violations_of(s.scores.data(), s.scores.size(), s.label);
    r.violations += here;
    r.inputs += here > 0;
    r.labels_changed += s.label != models::argmax(set.scores[0]);
    r.correct += set.gold && *set.gold == s.label;
    r.max_realised = std::max(r.max_realised, realised_epsilon(s.scores));
  }
  return r;
}

}  // namespace

// The class layer's answers for every text of every set (neutral_class.h): the plan, and the
// model's outputs for each planned text (those `fair test` asked are known; the rest are asked).
struct ClassOutputs {
  NeutralPlan plan;
  std::vector<std::vector<double>> outputs;  // per plan.texts
  std::vector<std::size_t> first;            // per set: its x0's index among the planned inputs
  std::size_t asked = 0;                     // texts asked for the neighbourhoods
};

ClassOutputs class_outputs(const Perturbator& perturbator, models::Model& model,
                           const std::vector<AnsweredSet>& sets,
                           const MitigationStudyOptions& options) {
  ClassOutputs c;
  std::vector<std::string> inputs;
  std::unordered_map<std::string, const std::vector<double>*> known;
  for (const auto& set : sets) {
    c.first.push_back(inputs.size());
    for (std::size_t i = 0; i < set.texts.size(); ++i) {
      inputs.push_back(set.texts[i]);
      known.emplace(set.texts[i], &set.scores[i]);
    }
  }
  c.plan = plan_neutral(perturbator, inputs, options.max_k, options.filter, options.threads);
  c.outputs.resize(c.plan.texts.size());
  std::vector<std::size_t> missing;
  for (std::size_t t = 0; t < c.plan.texts.size(); ++t) {
    if (auto it = known.find(c.plan.texts[t]); it != known.end()) {
      c.outputs[t] = *it->second;
    } else {
      missing.push_back(t);
    }
  }
  const std::size_t batch = std::max<std::size_t>(options.batch, 1);
  for (std::size_t b = 0; b < missing.size(); b += batch) {
    std::vector<std::string> asked;
    for (std::size_t i = b; i < std::min(missing.size(), b + batch); ++i)
      asked.push_back(c.plan.texts[missing[i]]);
    auto got = model.predict(asked);
    for (std::size_t i = 0; i < got.size(); ++i) c.outputs[missing[b + i]] = std::move(got[i]);
  }
  c.asked = missing.size();
  return c;
}

// What the class layer leaves at one ε: violations, and the realised ε of every pair (x0, x')
// — within the certificate when both are of one class.
struct ClassRemaining {
  std::size_t violations = 0, inputs = 0, labels_changed = 0, correct = 0;
  std::size_t pairs = 0, pairs_outside = 0;
  double max_realised = 0, max_realised_outside = 0, weight_sum = 0;
  // The first pairs outside one class: (x0, x') by their index in the plan.
  std::vector<std::pair<std::size_t, std::size_t>> outside_examples;
};

ClassRemaining class_remaining(const std::vector<AnsweredSet>& sets, const ClassOutputs& c,
                               double epsilon) {
  ClassRemaining r;
  for (std::size_t s = 0; s < sets.size(); ++s) {
    const std::size_t x0 = c.first[s];
    const auto f0 = answer_planned(c.plan, x0, c.outputs, epsilon);
    r.weight_sum += f0.smoothed.weight;
    std::size_t here = 0;
    for (std::size_t i = 1; i < sets[s].texts.size(); ++i) {
      const auto fi = answer_planned(c.plan, x0 + i, c.outputs, epsilon);
      here += fi.smoothed.label != f0.smoothed.label;
      const double realised = realised_epsilon({f0.smoothed.scores, fi.smoothed.scores});
      ++r.pairs;
      if (c.plan.representative[x0 + i] == c.plan.representative[x0]) {
        r.max_realised = std::max(r.max_realised, realised);
      } else {
        ++r.pairs_outside;
        r.max_realised_outside = std::max(r.max_realised_outside, realised);
        if (r.outside_examples.size() < 10) r.outside_examples.emplace_back(x0, x0 + i);
      }
    }
    r.violations += here;
    r.inputs += here > 0;
    r.labels_changed += f0.smoothed.label != models::argmax(sets[s].scores[0]);
    r.correct += sets[s].gold && *sets[s].gold == f0.smoothed.label;
  }
  return r;
}

MitigationStudy study_mitigation(const Perturbator& perturbator, models::Model& model,
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
    a.texts = std::move(input.texts);
    sets.push_back(std::move(a));
  }
  const auto class_start = Clock::now();
  const ClassOutputs classes = class_outputs(perturbator, model, sets, options);
  const double seconds_classes = seconds_since(class_start);
  const double seconds_asking = seconds_since(options.asking);

  // Before: the model's own outputs (ε = ∞ of either weighting, computed without smoothing).
  Remaining before;
  for (const auto& set : sets) {
    const std::size_t label = models::argmax(set.scores[0]);
    const std::size_t here = violations_of(set.scores.data(), set.scores.size(), label);
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
  // What the layer asks when serving an input: the input and its class's neighbourhood, each
  // distinct text once (an input that is not mutable is counted as one text).
  std::size_t served = 0;
  std::set<std::string> representatives;
  for (std::size_t s = 0; s < sets.size(); ++s) {
    const std::size_t x0 = classes.first[s];
    const auto& around = classes.plan.neighbourhood[x0];
    const bool inside =
        std::find(around.begin(), around.end(), classes.plan.own[x0]) != around.end();
    served += around.size() + (inside ? 0 : 1);
    representatives.insert(classes.plan.representative[x0]);
  }
  j["layer"] = {{"max_k", options.max_k},
                {"classes", representatives.size()},
                {"texts_asked_for_neighbourhoods", classes.asked}};
  nlohmann::ordered_json cost;
  cost["queries_per_mutable_input"] =
      n_mutable ? static_cast<double>(served) / static_cast<double>(n_mutable) : 0.0;
  cost["queries_per_input"] = n_inputs == 0 ? 0.0
                                            : static_cast<double>(served + n_inputs - n_mutable) /
                                                  static_cast<double>(n_inputs);
  cost["max_k"] = max_k;
  cost["seconds_perturbing_and_asking"] = seconds_asking;
  cost["seconds_neighbourhoods"] = seconds_classes;
  if (cached) {
    cost["answers_from_cache"] = cached->n_hits();
    cost["answers_asked"] = cached->n_queries();
  }

  auto rows = nlohmann::ordered_json::array();
  std::ostringstream csv;
  csv.precision(10);
  csv << "epsilon,violations_before,violations_after,remaining_percent,inputs_with_violations,"
         "labels_changed,max_realised_epsilon,pairs,pairs_outside_class,"
         "input_set_violations_after,input_set_remaining_percent,reference_certified_epsilon,"
         "reference_violations_after,reference_remaining_percent,seconds\n";
  double seconds_smoothing = 0;
  for (double eps : options.epsilons) {
    const auto t = Clock::now();
    const auto ours = class_remaining(sets, classes, eps);
    const double seconds = seconds_since(t);
    seconds_smoothing += seconds;
    const auto own_set =
        count_remaining(sets, [eps](const auto& s) { return neutral_smooth(s, eps); });
    const auto ref =
        count_remaining(sets, [eps](const auto& s) { return reference_smooth(s, eps); });
    const double ref_certified = eps + std::log1p(std::exp(-eps));  // ln(1 + e^ε)
    nlohmann::ordered_json row;
    row["epsilon"] = eps;
    row["certificate"] = {{"epsilon", eps}, {"k_max", options.max_k}};
    row["violations"] = ours.violations;
    row["remaining_percent"] = percent(ours.violations, before.violations);
    row["inputs_with_violations"] = ours.inputs;
    row["labels_changed"] = ours.labels_changed;  // smoothed label of x0 ≠ the model's
    if (n_labelled > 0) row["accuracy"] = percent(ours.correct, n_labelled);
    row["max_realised_epsilon"] = ours.max_realised;
    row["pairs"] = ours.pairs;
    row["pairs_outside_class"] = ours.pairs_outside;
    row["max_realised_epsilon_outside_class"] = ours.max_realised_outside;
    row["mean_weight"] = sets.empty() ? 0.0 : ours.weight_sum / static_cast<double>(sets.size());
    row["seconds"] = seconds;
    row["input_set"] = {{"violations", own_set.violations},
                        {"remaining_percent", percent(own_set.violations, before.violations)},
                        {"max_realised_epsilon", own_set.max_realised}};
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
        << ours.max_realised << ',' << ours.pairs << ',' << ours.pairs_outside << ','
        << own_set.violations << ',' << pct(row["input_set"]["remaining_percent"]) << ','
        << ref_certified << ',' << ref.violations << ','
        << pct(row["reference"]["remaining_percent"]) << ',' << seconds << '\n';
    if (on_epsilon)
      on_epsilon({eps, before.violations, ours.violations, ref.violations, own_set.violations,
                  ours.pairs_outside});
  }
  // The pairs the certificate does not cover (the same at every ε), for the reader to see why.
  if (!options.epsilons.empty()) {
    const auto any = class_remaining(sets, classes, options.epsilons.front());
    auto examples = nlohmann::ordered_json::array();
    for (const auto& [a, b] : any.outside_examples) {
      const auto& texts = classes.plan.texts;
      examples.push_back({{"input", texts[classes.plan.own[a]]},
                          {"perturbation", texts[classes.plan.own[b]]},
                          {"input_class", classes.plan.representative[a]},
                          {"perturbation_class", classes.plan.representative[b]}});
    }
    j["layer"]["outside_class_examples"] = examples;
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
