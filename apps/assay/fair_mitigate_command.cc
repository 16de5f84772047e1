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
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "command.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/progress.h"
#include "fair_run_options.h"
#include "fairness/fairness_test_runner.h"
#include "fairness/neutral_layer.h"
#include "option_checks.h"

namespace assay::cli {
namespace {

struct FairMitigateOptions : FairRunOptions {
  std::string out;
  std::vector<double> epsilons = {0.1, 0.5, 1, 1.8, 5, 10};
};

struct AnsweredSet {
  std::vector<std::vector<double>> scores;  // M(x0), then M of each perturbation
  std::optional<std::size_t> gold;          // index of the input's label among the model's
};

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
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

nlohmann::ordered_json percent(std::size_t part, std::size_t whole) {
  if (whole == 0) return nullptr;
  return 100.0 * static_cast<double>(part) / static_cast<double>(whole);
}

int run(const FairMitigateOptions& o) {
  if (o.epsilons.empty()) throw core::UsageError("--epsilon needs at least one value");
  for (double e : o.epsilons) {
    if (!std::isfinite(e) || e < 0)
      throw core::UsageError("--epsilon: " + std::to_string(e) + " is not a finite value >= 0");
  }
  const auto start = Clock::now();
  auto fr = open_fair_run(o);
  const auto& labels = fr.model->labels();
  std::filesystem::create_directories(o.out);

  core::ProgressOptions progress_options;
  progress_options.quiet = o.quiet;
  core::Progress progress("fair mitigate", fr.inputs.size(), progress_options);
  std::size_t done = 0, n_perturbations = 0, n_labelled = 0;
  std::vector<AnsweredSet> sets;
  fairness::FairnessTestOptions to;
  to.chunk_inputs = o.chunk;
  const auto asking = Clock::now();
  fairness::answer_inputs(
      *fr.perturbator, *fr.model, fr.inputs, to,
      [&](const fairness::InputRecord& input, const fairness::PerturbationSet& set,
          std::span<const std::vector<double>> scores) {
        if (!set.is_mutable()) return;
        AnsweredSet a;
        a.scores.assign(scores.begin(), scores.end());
        if (input.label) {
          for (std::size_t l = 0; l < labels.size(); ++l)
            if (labels[l] == *input.label) a.gold = l;
        }
        n_labelled += a.gold.has_value();
        n_perturbations += set.perturbations.size();
        sets.push_back(std::move(a));
      },
      [&](std::size_t n) {
        progress.add(n - done);
        done = n;
      });
  progress.finish();
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
  core::write_file_atomically(o.out + "/mitigation.csv", csv.str());
  core::write_file_atomically(o.out + "/mitigation.json", j.dump(2) + "\n");
  if (!o.quiet) {
    std::fprintf(stderr,
                 "%zu inputs, %zu mutable, %zu perturbations, %zu violations before smoothing "
                 "-> %s/mitigation.json, mitigation.csv\n",
                 fr.inputs.size(), n_mutable, n_perturbations, before.violations, o.out.c_str());
    if (fr.cached) {
      std::fprintf(stderr, "answers: %llu from %s, %llu asked of the model\n",
                   static_cast<unsigned long long>(fr.cached->n_hits()), o.cache.c_str(),
                   static_cast<unsigned long long>(fr.cached->n_queries()));
    }
  }
  return kOk;
}

void add_fair_mitigate_command(CLI::App& fair, CommandResult& result) {
  auto o = std::make_shared<FairMitigateOptions>();
  auto* cmd = fair.add_subcommand(
      "mitigate",
      "The neutral layer: violations that remain after (epsilon, k)-fair smoothing, per epsilon, "
      "as a percentage of those before (MT-NLP Fig. 5), and its cost");
  add_fair_run_options(cmd, *o);
  add_output_directory(cmd, "--out", o->out, "Directory for mitigation.json and mitigation.csv")->required();
  add_finite(cmd, "--epsilon", o->epsilons, "Comma-separated epsilons (default 0.1,0.5,1,1.8,5,10)",
             {.min = 0})
      ->delimiter(',');
  cmd->callback([o, &result] { result.exit_code = run(*o); });
}

}  // namespace

ASSAY_REGISTER_COMMAND("fair", "Fairness of NLP models (MT-NLP): perturb inputs, test models",
                       "mitigate", add_fair_mitigate_command)

}  // namespace assay::cli
