#include "fair_run_options.h"

#include <cstdio>
#include <filesystem>

#include "core/error.h"
#include "core/interrupt.h"
#include "core/unit_store.h"
#include "fairness/sensitive_attribute.h"
#include "models/answer_cache.h"
#include "models/model_spec.h"
#include "option_checks.h"
#include "version.h"

namespace assay::cli {

void add_fair_run_options(CLI::App* cmd, FairRunOptions& o) {
  add_model_open_options(cmd, o.model);
  add_input_options(cmd, o.inputs);
  add_count(cmd, "--chunk", o.chunk, "Inputs perturbed per model round",
            {.min = 1, .max = 100'000'000})
      ->capture_default_str();
  add_count(cmd, "--threads", o.threads,
            "Threads perturbing inputs (0 = every core); outputs do not depend on it",
            {.min = 0, .max = 4'096})
      ->capture_default_str();
  add_perturbation_options(cmd, o.perturbation);
  add_gate_options(cmd, o.gate);
  cmd->add_flag("--quiet", o.quiet, "No progress or summary on stderr");
}

FairRun open_fair_run(const FairRunOptions& o) {
  // Bad input, model, perturbator and gate options fail before anything is read or opened.
  (void)text_input_options(o.inputs);
  check_model_open_options(o.model);
  auto settings = perturbator_settings(o.perturbation);
  check_gate_options(o.gate);
  FairRun run;
  run.inputs = read_input(o.inputs, &fairness::read_inputs);
  run.model = open_model_under_test(o.model, &run.cached);
  run.gold = gold_indices(*run.model, o.model.adapter, run.inputs,
                          [&](const fairness::InputRecord& input) {
                            return core::SourceLocation(o.inputs.input, input.line);
                          });
  open_perturbator(std::move(settings), o.gate, o.perturbation.resources.wordnet_dir, run);
  return run;
}

void open_perturbator(PerturbatorSettings settings, const GateOptions& gate,
                      const std::string& wordnet_dir, FairRun& run) {
  const bool share_ngram = gate_shares_trigram(gate, settings.resources.ngram_model);
  settings.resources.ngram_trie = share_ngram;
  open_perturbator(std::move(settings), run);
  if (!gate.gate.empty()) {
    run.gate = std::make_unique<FairGate>(gate, wordnet_dir,
                                          share_ngram ? run.resources->lm.get() : nullptr);
  }
}

void open_perturbator(PerturbatorSettings settings, FairRun& run) {
  run.resources = std::make_unique<fairness::PerturbatorResources>(
      fairness::PerturbatorResources::load(settings.resources));
  run.perturbator = std::make_unique<fairness::Perturbator>(
      *run.resources, std::move(settings.attribute), settings.perturbator);
}

void open_perturbator(const PerturbationOptions& o, FairRun& run) {
  open_perturbator(perturbator_settings(o), run);
}

namespace {

// "PATH (SIZE bytes, modified T)" for a file, "PATH" for anything else (a name).
std::string file_stamp(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (path.empty() || !fs::is_regular_file(path, ec)) return path;
  const auto size = fs::file_size(path, ec);
  const auto modified = fs::last_write_time(path, ec).time_since_epoch().count();
  return path + " (" + std::to_string(size) + " bytes, modified " + std::to_string(modified) + ")";
}

}  // namespace

std::string fair_run_settings(const FairRunOptions& o, const FairRun& run) {
  const auto& attribute = run.perturbator->attribute();
  const auto& po = run.perturbator->options();
  namespace fs = std::filesystem;
  std::error_code ec;
  const bool attribute_file = fs::is_regular_file(attribute.source, ec);
  const auto& r = o.perturbation.resources;
  const std::string kg =
      r.kg.rfind("conceptnet:", 0) == 0 ? "conceptnet:" + file_stamp(r.kg.substr(11)) : r.kg;
  const auto real = [](double x) {
    char s[64];
    std::snprintf(s, sizeof s, "%.17g", x);
    return std::string(s);
  };
  const auto yes_no = [](bool b) { return std::string(b ? "yes" : "no"); };
  std::string s = std::string("assay ") + kAssayVersion;
  s += "\nattribute " + attribute.name + " " +
       (attribute_file ? core::file_content_hash(attribute.source) : attribute.source);
  s += "\ntagger " + r.tagger_dir + "\nwordnet " + r.wordnet_dir + "\nkg " + kg;
  s += "\nngram " + r.ngram_model;
  s += "\nvectors " + file_stamp(r.vectors) + " " + r.vectors_format + " " +
       std::to_string(r.vectors_limit);
  s += "\nchoice " + std::string(fairness::to_string(po.choice));
  s += "\nfluency-ratio " + real(po.fluency_ratio);
  s += "\nmax-per-input " + std::to_string(po.max_per_input);
  s += "\nall-occurrences " + yes_no(po.all_occurrences);
  s += "\nmin-cosine " + real(po.min_cosine);
  s += "\nvectors-restrict " + std::to_string(po.vectors_restrict);
  s += "\nstrict " + yes_no(po.strict);
  s += "\nnarrow-persons " + yes_no(po.narrow_persons);
  s += "\nnoun-modifiers " + yes_no(po.active_noun_modifiers);
  s += "\nanalogy " + yes_no(po.analogy) + "\nactive " + yes_no(po.active);
  const auto content = [](const std::string& path) {
    return path.empty() || path == "none" ? std::string("none") : core::file_content_hash(path);
  };
  s += "\ngender-lexicon " + content(r.gender_lexicon);
  s += "\nfirst-names " + content(r.first_names);
  s += "\ncoreference " + yes_no(po.coreference);
  s += "\nseed " + std::to_string(po.seed);
  if (const auto gate = gate_settings(o.gate); !gate.empty()) s += "\n" + gate;
  return s;
}

}  // namespace assay::cli
