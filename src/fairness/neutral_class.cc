#include "fairness/neutral_class.h"

#include <algorithm>
#include <functional>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "core/error.h"
#include "core/thread_pool.h"

namespace assay::fairness {
namespace {

// fn over [0, n): on the calling thread for one thread (a request of the proxy), else on a pool.
void for_each_index(std::size_t threads, std::size_t n, std::size_t grain,
                    const std::function<void(std::size_t)>& fn) {
  if (threads == 1 || n <= 1) {
    for (std::size_t i = 0; i < n; ++i) fn(i);
  } else {
    core::parallel_for(threads, 0, n, grain, fn);
  }
}

}  // namespace

NeutralPlan plan_neutral(const Perturbator& perturbator, const std::vector<std::string>& inputs,
                         std::size_t max_k, const PerturbationFilter& filter, std::size_t threads,
                         const std::atomic<bool>* abandoned) {
  const auto stop = [abandoned] { return abandoned && abandoned->load(); };
  NeutralPlan plan;
  std::unordered_map<std::string, std::size_t> index;
  auto add = [&](const std::string& text) {
    const auto [it, fresh] = index.try_emplace(text, plan.texts.size());
    if (fresh) plan.texts.push_back(text);
    return it->second;
  };
  // Representatives, and each distinct one's neighbourhood (perturbed in parallel).
  plan.representative.resize(inputs.size());
  for_each_index(threads, inputs.size(), 16, [&](std::size_t i) {
    if (!stop()) plan.representative[i] = perturbator.neutral_form(inputs[i]);
  });
  if (stop()) throw RequestAbandoned();
  std::unordered_map<std::string, std::size_t> class_of;
  std::vector<std::string> classes;
  for (const auto& r : plan.representative) {
    if (class_of.try_emplace(r, classes.size()).second) classes.push_back(r);
  }
  std::vector<std::vector<std::string>> members(classes.size());
  for_each_index(threads, classes.size(), 4, [&](std::size_t c) {
    if (stop()) return;
    PerturbationSet set;
    try {
      set = perturbator.perturb(classes[c], max_k);
    } catch (const core::ParseError& e) {
      // Name the first input of this class.
      std::size_t first = 0;
      while (plan.representative[first] != classes[c]) ++first;
      if (inputs.size() == 1) throw;
      throw core::ParseError("input " + std::to_string(first) + ": " + e.what());
    }
    if (filter) filter(classes[c], set);
    auto& m = members[c];
    m.push_back(classes[c]);
    const std::size_t k = std::min(max_k, set.perturbations.size());
    for (std::size_t p = 0; p < k; ++p) m.push_back(std::move(set.perturbations[p].text));
  });
  if (stop()) throw RequestAbandoned();
  std::vector<std::vector<std::size_t>> class_texts(classes.size());
  plan.own.reserve(inputs.size());
  plan.neighbourhood.reserve(inputs.size());
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    plan.own.push_back(add(inputs[i]));
    const std::size_t c = class_of.at(plan.representative[i]);
    if (class_texts[c].empty())
      for (const auto& t : members[c]) class_texts[c].push_back(add(t));
    plan.neighbourhood.push_back(class_texts[c]);
  }
  return plan;
}

NeutralClassAnswer answer_planned(const NeutralPlan& plan, std::size_t i,
                                  const std::vector<std::vector<double>>& outputs, double epsilon) {
  std::vector<std::vector<double>> around;
  around.reserve(plan.neighbourhood[i].size());
  for (std::size_t t : plan.neighbourhood[i]) around.push_back(outputs[t]);
  NeutralClassAnswer a;
  a.reference = class_reference(around);
  a.smoothed = class_smooth(outputs[plan.own[i]], a.reference, epsilon);
  a.k = around.size() - 1;
  return a;
}

}  // namespace assay::fairness
