#include "fairness/perturbation_gate.h"

#include <future>
#include <utility>

#include "core/error.h"

namespace assay::fairness {

void check_gate_settings(const GateSettings& s) {
  if (!s.gate.empty() && s.gate != "aeon")
    throw core::UsageError("gate: expected aeon, got '" + s.gate + "'");
  if (!s.action.empty() && s.action != "drop" && s.action != "flag")
    throw core::UsageError("gate action: expected drop or flag, got '" + s.action + "'");
  if (!s.gate.empty()) aeon::thresholds_for_task(s.task);  // a bad task is a usage error now
}

std::string gate_settings_key(const GateSettings& s) {
  if (s.gate.empty()) return "";
  auto number = [](const std::optional<double>& v) { return v ? std::to_string(*v) : "-"; };
  return "gate " + s.gate + " action " + (s.action.empty() ? "auto" : s.action) + " task " +
         s.task + " sim " + number(s.sim) + " nat " + number(s.nat) + " model " + s.model_dir +
         " vectors " + s.vectors + " " + s.vectors_format + (s.exact ? " exact" : "");
}

bool gate_shares_trigram(const GateSettings& s, const std::string& ngram_model) {
  return !s.gate.empty() && s.model_dir.empty() && ngram_model == "cmu";
}

PerturbationGate::PerturbationGate(const GateSettings& s, const std::string& wordnet_dir,
                                   const lm::NgramModel* ngram)
    : drop_(s.action == "drop" || (s.action.empty() && !s.model_dir.empty())) {
  aeon::PairGateOptions go;
  go.task = s.task;
  go.sim = s.sim;
  go.nat = s.nat;
  go.scorer.model_dir = s.model_dir;
  go.scorer.vectors = s.vectors;
  go.scorer.vectors_format = s.vectors_format;
  go.scorer.wordnet_dir = wordnet_dir;
  go.scorer.ngram = ngram;
  // SynEval's separable normaliser (precomputed sums; within 2e-4 relative of the exact one)
  // unless exact.
  go.scorer.ngram_normaliser =
      s.exact ? aeon::NgramNormaliser::kBackoff : aeon::NgramNormaliser::kSeparable;
  gate_ = std::make_unique<aeon::PairGate>(go);
}

std::vector<nlohmann::ordered_json> PerturbationGate::apply(const std::string& original,
                                                            PerturbationSet& set,
                                                            FilterCounts* counts) {
  std::vector<nlohmann::ordered_json> records;
  std::vector<Perturbation> kept;
  FilterCounts here;
  for (auto& p : set.perturbations) {
    ++here.scored;
    const auto verdict = gate_->judge(original, p.text);
    nlohmann::ordered_json j;
    j["SemEval"] = verdict.semeval;
    j["SynEval"] = verdict.syneval;
    j["keep"] = verdict.keep;
    if (!verdict.keep) j["reason"] = verdict.reason;
    if (!verdict.keep && drop_) {
      set.dropped.push_back({p.kind, p.group, p.old_word, p.new_word, "aeon: " + verdict.reason});
      ++here.dropped;
      continue;
    }
    here.flagged += !verdict.keep;
    kept.push_back(std::move(p));
    records.push_back(std::move(j));
  }
  set.perturbations = std::move(kept);
  n_scored_ += here.scored;
  n_dropped_ += here.dropped;
  n_flagged_ += here.flagged;
  if (counts) counts->add(here);
  return records;
}

PerturbationFilter PerturbationGate::filter() {
  return [this](const std::string& original, PerturbationSet& set) {
    FilterCounts counts;
    apply(original, set, &counts);
    return counts;
  };
}

std::string PerturbationGate::summary(const FilterCounts& counts) {
  return "aeon gate: " + std::to_string(counts.scored) + " perturbations scored, " +
         std::to_string(counts.scored - counts.dropped) + " kept, " +
         std::to_string(counts.dropped) + " dropped, " + std::to_string(counts.flagged) +
         " flagged";
}

std::string PerturbationGate::drop_warning(const FilterCounts& counts,
                                           const std::string& fix) const {
  // A gate that drops nearly everything is more likely set for another backend than right
  // about every test case.
  return aeon::drop_warning("the aeon gate", counts.dropped, counts.scored, "perturbations",
                            gate_->thresholds(), gate_->offline() ? "offline" : "BERT", fix);
}

GatedPerturbator load_gated_perturbator(PerturbatorSettings settings, const GateSettings& gate) {
  const bool share_ngram = gate_shares_trigram(gate, settings.resources.ngram_model);
  settings.resources.ngram_trie = share_ngram;
  const std::string wordnet_dir = settings.resources.wordnet_dir;
  // A gate with models of its own loads while the perturbator's do (WordNet is shared by the
  // process already).
  std::future<std::unique_ptr<PerturbationGate>> gate_loading;
  if (!gate.gate.empty() && !share_ngram) {
    gate_loading = std::async(std::launch::async, [&gate, &wordnet_dir] {
      return std::make_unique<PerturbationGate>(gate, wordnet_dir, nullptr);
    });
  }
  GatedPerturbator out;
  static_cast<LoadedPerturbator&>(out) = load_perturbator(std::move(settings));
  if (gate_loading.valid()) out.gate = gate_loading.get();
  if (share_ngram)
    out.gate = std::make_unique<PerturbationGate>(gate, wordnet_dir, out.resources->lm.get());
  return out;
}

}  // namespace assay::fairness
