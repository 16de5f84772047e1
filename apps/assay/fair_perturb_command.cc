// `assay fair perturb`: MT-NLP's perturbator over a file of inputs — one JSON line per input
// with its perturbations (text and record of each) and the dropped candidates with reasons;
// a summary on stderr. Inputs are read and validated before anything is written.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <future>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "aeon/test_case_scorer.h"
#include "aeon/thresholds.h"
#include "command.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/jsonl.h"
#include "core/progress.h"
#include "core/thread_pool.h"
#include "fairness/fairness_input.h"
#include "fairness/perturbation_json.h"
#include "fairness/perturbator.h"
#include "option_checks.h"
#include "perturbation_options.h"

namespace assay::cli {
namespace {

struct FairPerturbOptions {
  InputFileOptions inputs;
  PerturbationOptions perturbation;
  bool no_dropped = false;
  bool quiet = false;
  std::size_t threads = 0;  // 0 = every core
  std::string out;
  // --gate aeon: AEON's test-case quality on every perturbation.
  std::string gate;
  // drop or flag; empty: flag with the offline scores (they do not separate perturbations
  // judged right from wrong: docs/fairness.md), drop with a BERT folder (AEON's own use).
  std::string gate_action;
  std::string gate_task = "sa";
  std::optional<double> gate_sim, gate_nat;
  std::string gate_model_dir, gate_vectors, gate_vectors_format = "glove";
  bool gate_exact = false;
};

// AEON scores each perturbation against its original (offline backends unless a BERT
// folder is given) and judges it with the task's thresholds; a failing perturbation is
// dropped with AEON's reason, or kept and flagged. Thread-safe: the offline scorer is, and a
// BERT scorer is called by one thread at a time.
class AeonGate {
 public:
  // `ngram`: the trigram the perturbator loaded, shared when it is the gate's (else null).
  AeonGate(const FairPerturbOptions& o, const lm::NgramModel* ngram)
      : drop_(o.gate_action == "drop" || (o.gate_action.empty() && !o.gate_model_dir.empty())) {
    thresholds_ = aeon::thresholds_for_task(o.gate_task);
    if (o.gate_sim) thresholds_.sim = *o.gate_sim;
    if (o.gate_nat) thresholds_.nat = *o.gate_nat;
    aeon::TestCaseScorerOptions so;
    so.model_dir = o.gate_model_dir;
    so.vectors = o.gate_vectors;
    so.vectors_format = o.gate_vectors_format;
    so.wordnet_dir = o.perturbation.resources.wordnet_dir;
    so.ngram = ngram;
    // SynEval's separable normaliser (precomputed sums; within 2e-4 relative of the exact
    // one) unless --gate-exact.
    so.ngram_normaliser =
        o.gate_exact ? aeon::NgramNormaliser::kBackoff : aeon::NgramNormaliser::kSeparable;
    scorer_ = std::make_unique<aeon::TestCaseScorer>(so);
  }

  // Scores the perturbations of `set`; returns their AEON records in the order kept.
  std::vector<nlohmann::ordered_json> apply(const std::string& original,
                                            fairness::PerturbationSet& set) {
    std::vector<nlohmann::ordered_json> records;
    std::vector<fairness::Perturbation> kept;
    for (auto& p : set.perturbations) {
      ++n_scored_;
      const auto score = score_of({original, p.text, {}});
      const auto verdict = aeon::judge(score.semeval, score.syneval, thresholds_);
      nlohmann::ordered_json j;
      j["SemEval"] = score.semeval;
      j["SynEval"] = score.syneval;
      j["keep"] = verdict.keep;
      if (!verdict.keep) j["reason"] = verdict.reason;
      if (!verdict.keep && drop_) {
        set.dropped.push_back({p.kind, p.group, p.old_word, p.new_word, "aeon: " + verdict.reason});
        ++n_dropped_;
        continue;
      }
      n_flagged_ += !verdict.keep;
      kept.push_back(std::move(p));
      records.push_back(std::move(j));
    }
    set.perturbations = std::move(kept);
    return records;
  }
  std::size_t n_scored() const { return n_scored_; }
  std::size_t n_dropped() const { return n_dropped_; }
  std::size_t n_flagged() const { return n_flagged_; }
  const aeon::QualityThresholds& thresholds() const { return thresholds_; }
  bool offline() const { return scorer_->offline(); }

 private:
  aeon::TestCaseScore score_of(const aeon::TestCase& c) {
    if (scorer_->offline()) return scorer_->score(c);
    const std::lock_guard lock(bert_mutex_);
    return scorer_->score(c);
  }

  bool drop_;
  aeon::QualityThresholds thresholds_;
  std::unique_ptr<aeon::TestCaseScorer> scorer_;
  std::mutex bert_mutex_;
  std::atomic<std::size_t> n_scored_{0}, n_dropped_{0}, n_flagged_{0};
};

int run(const FairPerturbOptions& o) {
  const fairness::InputOptions in = input_options(o.inputs);
  auto settings = perturbator_settings(o.perturbation);
  if (!o.gate.empty() && o.gate != "aeon")
    throw core::UsageError("--gate must be aeon, got '" + o.gate + "'");
  if (!o.gate_action.empty() && o.gate_action != "drop" && o.gate_action != "flag")
    throw core::UsageError("--gate-action must be drop or flag, got '" + o.gate_action + "'");
  if (!o.gate.empty()) aeon::thresholds_for_task(o.gate_task);  // a bad task is a usage error now
  const auto inputs = fairness::read_inputs(o.inputs.input, in);

  const auto t0 = std::chrono::steady_clock::now();
  // The offline gate reads the CMU trigram as the perturbator's fluency does: loaded once, as
  // an lm::SphinxTrie, for both (the gate is built when it is there; WordNet is shared by the
  // process already). Otherwise the gate's models load while the perturbator's do.
  const bool share_ngram =
      !o.gate.empty() && o.gate_model_dir.empty() && settings.resources.ngram_model == "cmu";
  settings.resources.ngram_trie = share_ngram;
  std::future<std::unique_ptr<AeonGate>> gate_loading;
  if (!o.gate.empty() && !share_ngram)
    gate_loading =
        std::async(std::launch::async, [&o] { return std::make_unique<AeonGate>(o, nullptr); });
  const auto resources = fairness::PerturbatorResources::load(settings.resources);
  const fairness::Perturbator perturbator(resources, std::move(settings.attribute),
                                          settings.perturbator);
  std::unique_ptr<AeonGate> gate;
  if (gate_loading.valid()) gate = gate_loading.get();
  if (share_ngram) gate = std::make_unique<AeonGate>(o, resources.lm.get());
  const double load_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  std::optional<core::AtomicFileWriter> file;
  if (!o.out.empty()) file.emplace(o.out);
  std::ostream& out = file ? file->stream() : std::cout;
  core::ProgressOptions progress_options;
  progress_options.quiet = o.quiet;
  core::Progress progress("perturb", inputs.size(), progress_options);
  std::size_t n_empty = 0, n_mutable = 0, n_analogy = 0, n_active = 0, n_name = 0, n_group = 0,
              n_dropped = 0;
  std::size_t max_set = 0;
  const auto t1 = std::chrono::steady_clock::now();
  // The inputs a chunk at a time: person nouns' analogy searches first (one pass over the
  // vectors each), then each input perturbed and gated on --threads, and the chunk's lines
  // written in input order, so the output does not depend on the thread count.
  constexpr std::size_t kChunk = 2048;
  std::vector<nlohmann::ordered_json> lines;
  for (std::size_t at = 0; at < inputs.size(); at += kChunk) {
    const std::size_t end = std::min(inputs.size(), at + kChunk);
    std::vector<std::string_view> texts;
    for (std::size_t k = at; k < end; ++k) texts.push_back(inputs[k].text);
    perturbator.prepare(texts);
    struct Counts {
      bool is_mutable = false;
      std::size_t analogy = 0, active = 0, name = 0, group = 0, dropped = 0, size = 0;
    };
    std::vector<Counts> counts(end - at);
    lines.assign(end - at, {});
    core::parallel_for(o.threads, at, end, 1, [&](std::size_t k) {
      const auto& input = inputs[k];
      fairness::PerturbationSet set;
      try {
        set = perturbator.perturb(input.text);
      } catch (core::Error& e) {
        e.set_location_if_missing(core::SourceLocation(o.inputs.input, input.line));
        throw;
      }
      std::vector<nlohmann::ordered_json> aeon_records;
      if (gate) aeon_records = gate->apply(input.text, set);
      counts[k - at] = {set.is_mutable(),
                        set.count(fairness::MutationKind::kAnalogy),
                        set.count(fairness::MutationKind::kActive),
                        set.count(fairness::MutationKind::kName),
                        set.count(fairness::MutationKind::kGroup),
                        set.dropped.size(),
                        set.perturbations.size()};
      auto j = fairness::perturbation_set_to_json(input, set, !o.no_dropped);
      for (std::size_t r = 0; r < aeon_records.size(); ++r)
        j["perturbations"][r]["aeon"] = std::move(aeon_records[r]);
      lines[k - at] = std::move(j);
    });
    for (std::size_t k = at; k < end; ++k) {
      const Counts& c = counts[k - at];
      n_empty += inputs[k].text.empty();
      n_mutable += c.is_mutable;
      n_analogy += c.analogy;
      n_active += c.active;
      n_name += c.name;
      n_group += c.group;
      n_dropped += c.dropped;
      max_set = std::max(max_set, c.size);
      core::write_jsonl(out, lines[k - at]);
      progress.add();
    }
  }
  progress.finish();
  const double run_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
  if (file) file->commit();
  if (!o.quiet) {
    const std::size_t n = inputs.size();
    std::fprintf(stderr,
                 "%zu inputs (%zu empty), %zu mutable (%.1f%%); %zu perturbations (%zu analogy, "
                 "%zu active, %zu name, %zu group), mean %.2f, max %zu; %zu candidates dropped; "
                 "attribute %s; load %.2f s, perturb %.2f s (%.0f inputs/s)\n",
                 n, n_empty, n_mutable, n ? 100.0 * static_cast<double>(n_mutable) / n : 0.0,
                 n_analogy + n_active + n_name + n_group, n_analogy, n_active, n_name, n_group,
                 n ? static_cast<double>(n_analogy + n_active + n_name + n_group) / n : 0.0,
                 max_set, n_dropped, perturbator.attribute().name.c_str(), load_s, run_s,
                 run_s > 0 ? static_cast<double>(n) / run_s : 0.0);
    if (gate) {
      std::fprintf(stderr,
                   "aeon gate: %zu perturbations scored, %zu kept, %zu dropped, %zu flagged\n",
                   gate->n_scored(), gate->n_scored() - gate->n_dropped(), gate->n_dropped(),
                   gate->n_flagged());
    }
  }
  // A gate that drops nearly everything is more likely set for another backend than right about
  // every test case: said even with --quiet.
  if (gate && gate->n_scored() > 0 && gate->n_dropped() * 10 > gate->n_scored() * 9) {
    std::fprintf(
        stderr,
        "warning: the aeon gate dropped %zu of %zu perturbations (%.0f%%); its "
        "thresholds (SemEval >= %g, SynEval >= %g) may not suit the %s scores: set "
        "--gate-sim / --gate-nat, or --gate-action flag (docs/fairness.md)\n",
        gate->n_dropped(), gate->n_scored(),
        100.0 * static_cast<double>(gate->n_dropped()) / static_cast<double>(gate->n_scored()),
        gate->thresholds().sim, gate->thresholds().nat, gate->offline() ? "offline" : "BERT");
  }
  return kOk;
}

void add_fair_perturb_command(CLI::App& fair, CommandResult& result) {
  auto o = std::make_shared<FairPerturbOptions>();
  auto* cmd = fair.add_subcommand(
      "perturb", "Perturb inputs with respect to a sensitive attribute (one JSON line per input)");
  add_input_options(cmd, o->inputs);
  add_perturbation_options(cmd, o->perturbation);
  cmd->add_flag("--no-dropped", o->no_dropped, "Leave the dropped candidates out of the output");
  add_output_file(cmd, "--out", o->out, "Write to FILE (atomically) instead of stdout");
  cmd->add_flag("--quiet", o->quiet, "No progress or summary on stderr");
  add_count(cmd, "--threads", o->threads,
            "Threads perturbing (and gating) inputs (0 = every core); outputs do not depend on it",
            {.min = 0, .max = 4'096})
      ->capture_default_str();
  auto* gate =
      cmd->add_option("--gate", o->gate,
                      "aeon: score every perturbation with AEON (SemEval, SynEval) and judge it");
  // The gate's settings mean nothing without the gate: each needs --gate.
  cmd->add_option("--gate-action", o->gate_action,
                  "drop (with AEON's reason among the dropped) or flag (keep, mark keep=false); "
                  "default: flag with the offline scores, drop with --gate-model-dir")
      ->needs(gate);
  cmd->add_option("--gate-task", o->gate_task, "AEON thresholds of the task: sa, nli or se")
      ->capture_default_str()
      ->needs(gate);
  add_finite(cmd, "--gate-sim", o->gate_sim, "Override the SemEval threshold")->needs(gate);
  add_finite(cmd, "--gate-nat", o->gate_nat, "Override the SynEval threshold")->needs(gate);
  cmd->add_option("--gate-model-dir", o->gate_model_dir,
                  "A BERT-family folder for AEON (default: offline trigram + WordNet backends)")
      ->needs(gate);
  cmd->add_flag("--gate-exact", o->gate_exact,
                "AEON's exact SynEval normaliser (default: the separable one from precomputed "
                "sums, within 2e-4 relative and faster)")
      ->needs(gate);
  cmd->add_option("--gate-vectors", o->gate_vectors, "Word vectors for AEON's offline SemEval")
      ->needs(gate);
  cmd->add_option("--gate-vectors-format", o->gate_vectors_format, "Their format")
      ->capture_default_str()
      ->needs(gate);
  cmd->callback([o, &result] { result.exit_code = run(*o); });
}

}  // namespace

ASSAY_REGISTER_COMMAND("fair", "Fairness of NLP models (MT-NLP): perturb inputs, test models",
                       "perturb", add_fair_perturb_command)

}  // namespace assay::cli
