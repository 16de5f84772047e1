#include "gate_options.h"

#include <cstdio>

#include "core/error.h"
#include "option_checks.h"

namespace assay::cli {

void add_gate_options(CLI::App* cmd, GateOptions& o) {
  auto* gate = cmd->add_option(
      "--gate", o.gate, "aeon: score every perturbation with AEON (SemEval, SynEval) and judge it");
  // The gate's settings mean nothing without the gate: each needs --gate.
  cmd->add_option("--gate-action", o.action,
                  "drop (with AEON's reason among the dropped) or flag (keep, mark keep=false); "
                  "default: flag with the offline scores, drop with --gate-model-dir")
      ->needs(gate);
  cmd->add_option("--gate-task", o.task, "AEON thresholds of the task: sa, nli or se")
      ->capture_default_str()
      ->needs(gate);
  add_finite(cmd, "--gate-sim", o.sim, "Override the SemEval threshold")->needs(gate);
  add_finite(cmd, "--gate-nat", o.nat, "Override the SynEval threshold")->needs(gate);
  cmd->add_option("--gate-model-dir", o.model_dir,
                  "A BERT-family folder for AEON (default: offline trigram + WordNet backends)")
      ->needs(gate);
  cmd->add_flag("--gate-exact", o.exact,
                "AEON's exact SynEval normaliser (default: the separable one from precomputed "
                "sums, within 2e-4 relative and faster)")
      ->needs(gate);
  cmd->add_option("--gate-vectors", o.vectors, "Word vectors for AEON's offline SemEval")
      ->needs(gate);
  cmd->add_option("--gate-vectors-format", o.vectors_format, "Their format")
      ->capture_default_str()
      ->needs(gate);
}

void check_gate_options(const GateOptions& o) {
  if (!o.gate.empty() && o.gate != "aeon")
    throw core::UsageError("--gate must be aeon, got '" + o.gate + "'");
  if (!o.action.empty() && o.action != "drop" && o.action != "flag")
    throw core::UsageError("--gate-action must be drop or flag, got '" + o.action + "'");
  if (!o.gate.empty()) aeon::thresholds_for_task(o.task);  // a bad task is a usage error now
}

std::string gate_settings(const GateOptions& o) {
  if (o.gate.empty()) return "";
  auto number = [](const std::optional<double>& v) { return v ? std::to_string(*v) : "-"; };
  return "gate " + o.gate + " action " + (o.action.empty() ? "auto" : o.action) + " task " +
         o.task + " sim " + number(o.sim) + " nat " + number(o.nat) + " model " + o.model_dir +
         " vectors " + o.vectors + " " + o.vectors_format + (o.exact ? " exact" : "");
}

bool gate_shares_trigram(const GateOptions& o, const std::string& ngram_model) {
  return !o.gate.empty() && o.model_dir.empty() && ngram_model == "cmu";
}

FairGate::FairGate(const GateOptions& o, const std::string& wordnet_dir,
                   const lm::NgramModel* ngram)
    : drop_(o.action == "drop" || (o.action.empty() && !o.model_dir.empty())) {
  aeon::PairGateOptions go;
  go.task = o.task;
  go.sim = o.sim;
  go.nat = o.nat;
  go.scorer.model_dir = o.model_dir;
  go.scorer.vectors = o.vectors;
  go.scorer.vectors_format = o.vectors_format;
  go.scorer.wordnet_dir = wordnet_dir;
  go.scorer.ngram = ngram;
  // SynEval's separable normaliser (precomputed sums; within 2e-4 relative of the exact one)
  // unless --gate-exact.
  go.scorer.ngram_normaliser =
      o.exact ? aeon::NgramNormaliser::kBackoff : aeon::NgramNormaliser::kSeparable;
  gate_ = std::make_unique<aeon::PairGate>(go);
}

std::vector<nlohmann::ordered_json> FairGate::apply(const std::string& original,
                                                    fairness::PerturbationSet& set,
                                                    fairness::FilterCounts* counts) {
  std::vector<nlohmann::ordered_json> records;
  std::vector<fairness::Perturbation> kept;
  fairness::FilterCounts here;
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

fairness::PerturbationFilter FairGate::filter() {
  return [this](const std::string& original, fairness::PerturbationSet& set) {
    fairness::FilterCounts counts;
    apply(original, set, &counts);
    return counts;
  };
}

void FairGate::report(const fairness::FilterCounts& counts, bool quiet) const {
  const std::size_t scored = counts.scored, dropped = counts.dropped, flagged = counts.flagged;
  if (!quiet) {
    std::fprintf(stderr,
                 "aeon gate: %zu perturbations scored, %zu kept, %zu dropped, %zu flagged\n",
                 scored, scored - dropped, dropped, flagged);
  }
  // A gate that drops nearly everything is more likely set for another backend than right
  // about every test case: said even when quiet.
  const auto warning =
      aeon::drop_warning("the aeon gate", dropped, scored, "perturbations", gate_->thresholds(),
                         gate_->offline() ? "offline" : "BERT",
                         "set --gate-sim / --gate-nat, or --gate-action flag (docs/fairness.md)");
  if (!warning.empty()) std::fprintf(stderr, "%s\n", warning.c_str());
}

}  // namespace assay::cli
