#include "fairness/fairness_test_runner.h"

#include "core/error.h"
#include "text/unicode_props.h"

namespace assay::fairness {

FairnessTestSummary run_fairness_test(const Perturbator& perturbator, models::Model& model,
                                      const std::vector<InputRecord>& inputs,
                                      const FairnessTestOptions& options,
                                      const std::function<void(const Violation&)>& on_violation,
                                      const std::function<void(std::size_t)>& on_progress) {
  FairnessTestSummary summary;
  const std::size_t chunk = std::max<std::size_t>(1, options.chunk_inputs);
  for (std::size_t begin = 0; begin < inputs.size(); begin += chunk) {
    const std::size_t end = std::min(inputs.size(), begin + chunk);
    std::vector<PerturbationSet> sets;
    std::vector<std::string> texts;
    for (std::size_t i = begin; i < end; ++i) {
      try {
        sets.push_back(perturbator.perturb(inputs[i].text));
      } catch (core::Error& e) {
        e.add_context("input at line " + std::to_string(inputs[i].line));
        throw;
      }
      if (!sets.back().is_mutable()) continue;  // an input without perturbations is not asked
      texts.push_back(inputs[i].text);
      for (const auto& p : sets.back().perturbations) texts.push_back(p.text);
    }
    const auto scores = texts.empty() ? std::vector<std::vector<double>>{} : model.predict(texts);
    std::size_t at = 0;
    for (std::size_t i = begin; i < end; ++i) {
      const auto& set = sets[i - begin];
      ++summary.n_inputs;
      if (!set.is_mutable()) continue;
      ++summary.n_mutable;
      const auto& original = scores[at++];
      const std::size_t label = models::argmax(original);
      bool violated = false;
      for (const auto& p : set.perturbations) {
        const auto& perturbed = scores[at++];
        const std::size_t plabel = models::argmax(perturbed);
        const std::string kind(to_string(p.kind));
        ++summary.n_perturbations;
        ++summary.perturbations_by_kind[kind];
        summary.score_shifts[p.group].push_back(perturbed[label] - original[label]);
        if (plabel == label) continue;
        violated = true;
        ++summary.n_violations;
        ++summary.violations_by_kind[kind];
        ++summary.flips[text::to_lower(p.old_word) + " -> " + text::to_lower(p.new_word)];
        on_violation(Violation{&inputs[i], &p, label, plabel, original, perturbed});
      }
      summary.n_inputs_violated += violated;
    }
    if (on_progress) on_progress(end);
  }
  return summary;
}

}  // namespace assay::fairness
