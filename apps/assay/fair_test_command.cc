// `assay fair test`: MT-NLP's Algorithm 1 — perturb every input (as `fair perturb`), ask the
// model under test for the original and each perturbation (through the answer cache when
// --cache is given), and report every perturbation whose label differs: violations.jsonl and
// summary.json in --out DIR (written atomically). Exit 1 when violations are found.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "command.h"
#include "option_checks.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/jsonl.h"
#include "core/progress.h"
#include "fair_run_options.h"
#include "fairness/fairness_input.h"
#include "fairness/fairness_test_runner.h"
#include "fairness/perturbation_json.h"
#include "fairness/perturbator.h"
#include "models/answer_cache.h"
#include "models/cached_model.h"
#include "models/model_spec.h"

namespace assay::cli {
namespace {

struct FairTestOptions : FairRunOptions {
  std::string out;
};

nlohmann::ordered_json scores_json(const std::vector<double>& s) {
  auto a = nlohmann::ordered_json::array();
  for (double v : s) a.push_back(v);
  return a;
}

nlohmann::ordered_json shift_stats(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  double sum = 0;
  for (double x : v) sum += x;
  auto q = [&](double p) {
    return v[static_cast<std::size_t>(p * static_cast<double>(v.size() - 1))];
  };
  return {{"n", v.size()},    {"mean", sum / static_cast<double>(v.size())},
          {"min", v.front()}, {"p05", q(0.05)},
          {"median", q(0.5)}, {"p95", q(0.95)},
          {"max", v.back()}};
}

int run(const FairTestOptions& o) {
  auto fr = open_fair_run(o);
  const auto& inputs = fr.inputs;
  auto& model = fr.model;
  models::CachedModel* cached = fr.cached;
  const fairness::Perturbator& perturbator = *fr.perturbator;

  std::filesystem::create_directories(o.out);
  core::AtomicFileWriter violations(o.out + "/violations.jsonl");
  const auto& labels = model->labels();
  core::ProgressOptions progress_options;
  progress_options.quiet = o.quiet;
  core::Progress progress("fair test", inputs.size(), progress_options);
  std::size_t done = 0;
  fairness::FairnessTestOptions to;
  to.chunk_inputs = o.chunk;
  to.threads = o.threads;
  const auto summary = fairness::run_fairness_test(
      perturbator, *model, inputs, to,
      [&](const fairness::Violation& v) {
        nlohmann::ordered_json j;
        j["line"] = v.input->line;
        j["original"] = v.input->text;
        j["perturbed"] = v.perturbation->text;
        j["kind"] = std::string(fairness::to_string(v.perturbation->kind));
        j["group"] = v.perturbation->group;
        j["old"] = v.perturbation->old_word;
        j["new"] = v.perturbation->new_word;
        j["label_original"] = labels[v.label_original];
        j["label_perturbed"] = labels[v.label_perturbed];
        j["scores_original"] = scores_json(v.scores_original);
        j["scores_perturbed"] = scores_json(v.scores_perturbed);
        j["record"] = fairness::perturbation_to_json(*v.perturbation);
        core::write_jsonl(violations.stream(), j);
      },
      [&](std::size_t n) {
        progress.add(n - done);
        done = n;
      });
  progress.finish();
  violations.commit();

  nlohmann::ordered_json s;
  s["model"] = model->identity();
  s["attribute"] = perturbator.attribute().name;
  s["inputs"] = summary.n_inputs;
  s["mutable"] = summary.n_mutable;
  s["perturbations"] = summary.n_perturbations;
  s["perturbations_by_kind"] = summary.perturbations_by_kind;
  s["violations"] = summary.n_violations;
  s["violations_by_kind"] = summary.violations_by_kind;
  s["inputs_with_violations"] = summary.n_inputs_violated;
  std::vector<std::pair<std::string, std::size_t>> flips(summary.flips.begin(),
                                                         summary.flips.end());
  std::stable_sort(flips.begin(), flips.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  auto top = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < flips.size() && i < 20; ++i)
    top.push_back({{"substitution", flips[i].first}, {"violations", flips[i].second}});
  s["top_flips"] = top;
  nlohmann::ordered_json shifts;
  for (const auto& [group, v] : summary.score_shifts) shifts[group] = shift_stats(v);
  s["score_shift_by_group"] = shifts;
  nlohmann::ordered_json per_input = nlohmann::ordered_json::object();
  for (const auto& [n, count] : summary.perturbations_per_input)
    per_input[std::to_string(n)] = count;
  s["perturbations_per_input"] = per_input;  // Fig. 4 of `fair report`
  if (cached) {
    s["answers_from_cache"] = cached->n_hits();
    s["answers_asked"] = cached->n_queries();
  }
  core::write_file_atomically(o.out + "/summary.json", s.dump(2) + "\n");
  if (!o.quiet) {
    std::fprintf(stderr,
                 "%zu inputs, %zu mutable, %zu perturbations, %zu violations in %zu inputs "
                 "-> %s/violations.jsonl, summary.json\n",
                 summary.n_inputs, summary.n_mutable, summary.n_perturbations, summary.n_violations,
                 summary.n_inputs_violated, o.out.c_str());
    if (cached) {
      std::fprintf(stderr, "answers: %llu from %s, %llu asked of the model\n",
                   static_cast<unsigned long long>(cached->n_hits()), o.cache.c_str(),
                   static_cast<unsigned long long>(cached->n_queries()));
    }
  }
  return summary.n_violations > 0 ? kFailuresFound : kOk;
}

void add_fair_test_command(CLI::App& fair, CommandResult& result) {
  auto o = std::make_shared<FairTestOptions>();
  auto* cmd = fair.add_subcommand(
      "test",
      "Metamorphic fairness test of a model: labels must not change under perturbation; exits 1 "
      "when some perturbation changes the label");
  add_fair_run_options(cmd, *o);
  add_output_directory(cmd, "--out", o->out, "Directory for violations.jsonl and summary.json")->required();
  cmd->callback([o, &result] { result.exit_code = run(*o); });
}

}  // namespace

ASSAY_REGISTER_COMMAND("fair", "Fairness of NLP models (MT-NLP): perturb inputs, test models",
                       "test", add_fair_test_command)

}  // namespace assay::cli
