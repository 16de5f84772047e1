#include "fairness/fairness_test_runner.h"

#include <algorithm>
#include <exception>

#include "core/error.h"
#include "core/thread_pool.h"
#include "text/unicode_props.h"

namespace assay::fairness {

void answer_inputs(const Perturbator& perturbator, models::Model& model,
                   const std::vector<InputRecord>& inputs, const FairnessTestOptions& options,
                   const std::function<void(const InputRecord&, const PerturbationSet&,
                                            std::span<const std::vector<double>>)>& on_answered,
                   const std::function<void(std::size_t)>& on_progress) {
  const std::size_t chunk = std::max<std::size_t>(1, options.chunk_inputs);
  core::ThreadPool pool(options.threads);
  for (std::size_t begin = 0; begin < inputs.size(); begin += chunk) {
    const std::size_t end = std::min(inputs.size(), begin + chunk);
    // Perturbed in parallel, each input into its own slot; the first failing input in input
    // order decides the error, whatever the thread count.
    std::vector<PerturbationSet> sets(end - begin);
    std::vector<std::exception_ptr> errors(end - begin);
    pool.parallel_for(begin, end, 1, [&](std::size_t i) {
      try {
        sets[i - begin] = perturbator.perturb(inputs[i].text);
      } catch (...) {
        errors[i - begin] = std::current_exception();
      }
    });
    for (std::size_t i = begin; i < end; ++i) {
      if (!errors[i - begin]) continue;
      try {
        std::rethrow_exception(errors[i - begin]);
      } catch (core::Error& e) {
        e.add_context("input at line " + std::to_string(inputs[i].line));
        throw;
      }
    }
    std::vector<std::string> texts;
    for (std::size_t i = begin; i < end; ++i) {
      const auto& set = sets[i - begin];
      if (!set.is_mutable()) continue;  // an input without perturbations is not asked
      texts.push_back(inputs[i].text);
      for (const auto& p : set.perturbations) texts.push_back(p.text);
    }
    const auto scores = texts.empty() ? std::vector<std::vector<double>>{} : model.predict(texts);
    std::size_t at = 0;
    for (std::size_t i = begin; i < end; ++i) {
      const auto& set = sets[i - begin];
      const std::size_t n = set.is_mutable() ? set.perturbations.size() + 1 : 0;
      on_answered(inputs[i], set, std::span<const std::vector<double>>(scores.data() + at, n));
      at += n;
    }
    if (on_progress) on_progress(end);
  }
}

FairnessTestSummary run_fairness_test(const Perturbator& perturbator, models::Model& model,
                                      const std::vector<InputRecord>& inputs,
                                      const FairnessTestOptions& options,
                                      const std::function<void(const Violation&)>& on_violation,
                                      const std::function<void(std::size_t)>& on_progress) {
  FairnessTestSummary summary;
  answer_inputs(
      perturbator, model, inputs, options,
      [&](const InputRecord& input, const PerturbationSet& set,
          std::span<const std::vector<double>> scores) {
        ++summary.n_inputs;
        ++summary.perturbations_per_input[set.perturbations.size()];
        if (!set.is_mutable()) return;
        ++summary.n_mutable;
        const auto& original = scores[0];
        const std::size_t label = models::argmax(original);
        bool violated = false;
        for (std::size_t k = 0; k < set.perturbations.size(); ++k) {
          const auto& p = set.perturbations[k];
          const auto& perturbed = scores[1 + k];
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
          on_violation(Violation{&input, &p, label, plabel, original, perturbed});
        }
        summary.n_inputs_violated += violated;
      },
      on_progress);
  return summary;
}

}  // namespace assay::fairness
