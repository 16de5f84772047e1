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

#include "command.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/jsonl.h"
#include "core/progress.h"
#include "core/thread_pool.h"
#include "fairness/fairness_input.h"
#include "fairness/fairness_run.h"
#include "fairness/perturbation_json.h"
#include "fairness/perturbator.h"
#include "gate_options.h"
#include "input_options.h"
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
  GateOptions gate;  // --gate aeon: AEON's test-case quality on every perturbation
};

int run(const FairPerturbOptions& o) {
  (void)text_input_options(o.inputs);  // bad options fail before anything is read
  auto settings = perturbator_settings(o.perturbation);
  check_gate_options(o.gate);
  const auto inputs = read_input(o.inputs, &fairness::read_inputs);

  const auto t0 = std::chrono::steady_clock::now();
  // The offline gate reads the CMU trigram as the perturbator's fluency does: loaded once, as
  // an lm::SphinxTrie, for both (the gate is built when it is there; WordNet is shared by the
  // process already). Otherwise the gate's models load while the perturbator's do.
  const bool share_ngram = gate_shares_trigram(o.gate, settings.resources.ngram_model);
  settings.resources.ngram_trie = share_ngram;
  const std::string wordnet_dir = o.perturbation.resources.wordnet_dir;
  std::future<std::unique_ptr<FairGate>> gate_loading;
  if (!o.gate.gate.empty() && !share_ngram)
    gate_loading = std::async(std::launch::async, [&o, &wordnet_dir] {
      return std::make_unique<FairGate>(o.gate, wordnet_dir, nullptr);
    });
  const auto loaded = fairness::load_perturbator(std::move(settings));
  const fairness::Perturbator& perturbator = *loaded.perturbator;
  std::unique_ptr<FairGate> gate;
  if (gate_loading.valid()) gate = gate_loading.get();
  if (share_ngram)
    gate = std::make_unique<FairGate>(o.gate, wordnet_dir, loaded.resources->lm.get());
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
  }
  if (gate) gate->report(gate->counts(), o.quiet);
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
  add_gate_options(cmd, o->gate);
  cmd->callback([o, &result] { result.exit_code = run(*o); });
}

}  // namespace

ASSAY_REGISTER_COMMAND("fair", "Fairness of NLP models (MT-NLP): perturb inputs, test models",
                       "perturb", add_fair_perturb_command)

}  // namespace assay::cli
