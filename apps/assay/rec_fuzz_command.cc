// `assay rec fuzz`: one heuristic, one set size, T trials against one algorithm. Prints one JSON
// line per trial (deterministic: same seed, same bytes for any --threads) and a summary line;
// timing goes to stderr. With --delta, exit 1 when some trial's Top Out exceeds it, and the
// offending sets are saved under --save-dir (without --delta, every trial's set is).
#include <cstdio>
#include <iostream>
#include <limits>
#include <memory>
#include <string>

#include "command.h"
#include "core/atomic_file.h"
#include "core/jsonl.h"
#include "option_checks.h"
#include "rec_options.h"
#include "recsys/data_spec.h"
#include "recsys/recommender_spec.h"
#include "stability/fuzz_request.h"

namespace assay::cli {
namespace {

// The request's fields are the flags' (their defaults the library's); the rest is the
// command's own.
struct RecFuzzOptions {
  stability::FuzzRequest request;
  std::string out;
  RecProgramOptions program;
};

int run(RecFuzzOptions& o) {
  auto& request = o.request;
  // Unknown names, keys and bad values fail before the data is read.
  stability::check_fuzz_request(request);
  apply_rec_program_options(o.program);
  const auto data = recsys::load_ratings(request.data);
  std::fprintf(stderr, "rec fuzz: %zu users, %zu items, %zu ratings; training %s\n", data.n_users(),
               data.n_items(), data.n_ratings(),
               recsys::normalize_recommender_spec(request.algorithm).c_str());
  const auto outcome = stability::run_fuzz(request, data);
  const auto write = [&](std::ostream& os) {
    for (const auto& record : outcome.records) core::write_jsonl(os, record);
  };
  if (o.out.empty()) {
    write(std::cout);
  } else {
    core::AtomicFileWriter writer(o.out);
    write(writer.stream());
    writer.commit();
  }
  if (outcome.n_failed > 0) {
    std::fprintf(stderr,
                 "rec fuzz: %zu of %zu trials failed (the program's reason is in their "
                 "lines)\n",
                 outcome.n_failed, outcome.n_trials);
  }
  if (outcome.n_failed < outcome.n_trials) {
    std::fprintf(stderr, "rec fuzz: mean set generation %.3f ms over %zu trials\n",
                 1e3 * outcome.mean_generation_seconds, outcome.n_trials - outcome.n_failed);
  }
  if (!request.save_dir.empty()) {
    std::fprintf(stderr, "rec fuzz: %zu sets saved under %s\n", outcome.n_saved,
                 request.save_dir.c_str());
  }
  if (!request.delta) return kOk;
  std::fprintf(stderr, "rec fuzz: %zu of %zu trials exceed Top Out %g\n", outcome.n_exceeding,
               outcome.n_trials - outcome.n_failed, *request.delta);
  return outcome.failed() ? kFailuresFound : kOk;
}

void add_rec_fuzz_command(CLI::App& rec, CommandResult& result) {
  auto o = std::make_shared<RecFuzzOptions>();
  auto* cmd = rec.add_subcommand(
      "fuzz",
      "Apply T modification sets from one heuristic, retrain, measure the oracles; exits 1 when "
      "some trial's instability exceeds δ");
  cmd->add_option("--data", o->request.data, kRecDataHelp)->required();
  cmd->add_option("--algorithm", o->request.algorithm, kRecAlgorithmHelp)->required();
  cmd->add_option("--heuristic", o->request.heuristic,
                  "AMU RMU CMU ALI AMR AMA ARAND RRAND CRAND APORTFOLIO")
      ->required();
  add_count(cmd, "--size", o->request.size, "Modifications per set",
            {.min = 1, .max = 1'000'000'000})
      ->capture_default_str();
  add_count(cmd, "--trials", o->request.trials, "Sets to try", {.min = 1, .max = 1'000'000'000})
      ->capture_default_str();
  add_count(cmd, "--seed", o->request.seed, "Campaign seed (run seeds derive from it)",
            {.min = 0, .max = std::numeric_limits<std::uint64_t>::max()})
      ->capture_default_str();
  add_count(cmd, "--threads", o->request.threads, "Trials in parallel", {.min = 1, .max = 4'096})
      ->capture_default_str();
  add_count(cmd, "--top-k", o->request.k, "Length of the recommendation lists",
            {.min = 1, .max = 1'000'000'000})
      ->capture_default_str();
  cmd->add_option("--portfolio", o->request.portfolio, "APORTFOLIO's heuristics (comma separated)")
      ->delimiter(',');
  add_finite(cmd, "--delta", o->request.delta, "Exit 1 when a trial's Top Out exceeds this (>= 0)",
             {.min = 0});
  add_output_directory(cmd, "--save-dir", o->request.save_dir,
                       "Save the sets exceeding --delta here (every trial's set without --delta); "
                       "rec replay and rec export read them",
                       {"*.json"});
  add_output_file(cmd, "--out", o->out, "Write the JSON lines to FILE (atomically)");
  add_rec_program_options(cmd, o->program);
  cmd->callback([o, &result] { result.exit_code = run(*o); });
}

}  // namespace

ASSAY_REGISTER_COMMAND("rec", "Recommender stability: recommend, fuzz, campaign, replay, export",
                       "fuzz", add_rec_fuzz_command)

}  // namespace assay::cli
