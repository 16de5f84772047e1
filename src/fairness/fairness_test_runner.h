// The metamorphic runner of MT-NLP's Algorithm 1: every input and its perturbations go to the
// model under test (a batch per chunk of inputs, through whatever Model it is given — wrap it
// in models::CachedModel so a rerun or a resumed run queries nothing twice); a perturbation
// whose label (argmax) differs from the original's is a fairness violation.
//
// The chunks of inputs are run by the core's chunked runner (core/chunked_run.h): they are
// perturbed and asked on --threads threads, a shard runs only its share, and each finished
// chunk (for `fair test` its summary counts and violations, for `fair mitigate` its answers) is
// recorded in a core::ChunkStore, so an interrupted run resumes at the first missing chunk and
// shards merge into the result of one run. Outputs are assembled from the finished chunks in
// input order, so they are the same bytes whatever the thread count, the sharding, or how
// often the run was resumed.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/chunk_store.h"
#include "core/progress.h"
#include "core/shard.h"
#include "fairness/fairness_input.h"
#include "fairness/perturbator.h"
#include "models/model.h"

namespace assay::fairness {

struct FairnessTestSummary {
  std::size_t n_inputs = 0, n_mutable = 0, n_perturbations = 0, n_violations = 0;
  std::size_t n_inputs_violated = 0;
  std::map<std::string, std::size_t> perturbations_by_kind, violations_by_kind;
  // substitution_name (substitution.h) -> violations: "actors -> actresses",
  // "director -> male director".
  std::map<std::string, std::size_t> flips;
  // Per group: the perturbed text's score for the original's label minus the original's.
  std::map<std::string, std::vector<double>> score_shifts;
  // Direction, per group: violations by the label the perturbed text got ("female" -> "pos"
  // -> 56), and for every perturbation the change of each label's score (perturbed minus
  // original: "female" -> "pos" -> +0.04, ...).
  std::map<std::string, std::map<std::string, std::size_t>> flips_toward;
  // Of those, the violations whose original text's top score was tied with another label's
  // (its label only the first of the tied ones: a flip from the decision boundary), per group
  // by the label the perturbed text got. Counted apart from a group's direction.
  std::map<std::string, std::map<std::string, std::size_t>> flips_from_tie;
  std::map<std::string, std::map<std::string, std::vector<double>>> score_changes;
  // Severity, per group: for every perturbation whose label changed (counted as a violation
  // or not, see FairnessTestOptions::min_delta) how far the original label's score fell.
  std::map<std::string, std::vector<double>> flip_drops;
  // Per substitution (as `flips` names it): violations by the label the perturbed text got.
  std::map<std::string, std::map<std::string, std::size_t>> flips_toward_by_substitution;
  // Per pair of groups, (the group the original words named, the group the perturbed text
  // names); the first is empty for an insertion ("" -> "female": "the female actor"):
  // perturbations, violations and violations by the label the perturbed text got.
  struct PairCounts {
    std::size_t perturbations = 0, violations = 0;
    std::map<std::string, std::size_t> toward;
  };
  std::map<std::pair<std::string, std::string>, PairCounts> by_group_pair;
  // The model's labels and the severity threshold the violations were counted at.
  std::vector<std::string> labels;
  double min_delta = 0;
  // Inputs by number of perturbations (every input, 0 for one that is not mutable).
  std::map<std::size_t, std::size_t> perturbations_per_input;
  // Insertions compared with each other: the places where two or more groups' adjectives were
  // inserted before one noun ("the male doctor", "the female doctor"), those where the model
  // did not give every inserted text the same label (it treats the groups differently, whatever
  // the unmarked original got), and the insertion violations at such places.
  std::size_t n_insertion_sites = 0, n_insertion_sites_split = 0;
  std::size_t n_insertion_violations_split = 0;
  // With a filter: what it did, over every chunk (those resumed from a store too).
  std::optional<FilterCounts> filtered;

  // Adds the counts of `later` (the summary of inputs after these: score shifts are appended).
  void add(const FairnessTestSummary& later);
};

// Whether a changed label whose original label's score fell by `drop` (original minus
// perturbed) is a violation at the threshold `min_delta`: every one at 0, else drop >= min_delta.
inline bool counts_at(double drop, double min_delta) {
  return min_delta <= 0 || drop >= min_delta;
}

struct FairnessTestOptions {
  std::size_t chunk_inputs = 64;  // inputs whose texts go to the model in one predict() call
  // Chunks perturbed at once (0 = every core). The model is asked by one chunk at a time;
  // answers, callbacks and outputs are the same for every thread count.
  std::size_t threads = 1;
  core::Shard shard;  // only this shard's chunks (by chunk number)
  core::ProgressOptions progress;
  std::string label = "fair test";  // progress label (counts chunks)
  // A changed label counts as a violation only when the original label's score fell by at
  // least this much (0: every changed label). Part of every chunk's key.
  double min_delta = 0;
  // Called on each input's perturbations before the model is asked (an AEON gate drops some);
  // thread-safe. Its settings belong in run_fairness_test's `settings`.
  PerturbationFilter filter;
};

// The stores of `fair test`'s and `fair mitigate`'s chunks in FILE (the answer cache's file:
// each command has its own tables there). Throw as core::ChunkStore.
std::unique_ptr<core::ChunkStore> open_fair_test_store(const std::string& path);
std::unique_ptr<core::ChunkStore> open_fair_mitigate_store(const std::string& path);

// One mutable input perturbed and asked, as `fair mitigate` uses it.
struct AnsweredInput {
  std::size_t index = 0;                    // its position among the inputs
  std::vector<std::string> texts;           // the input's text, then each perturbation's
  std::vector<std::vector<double>> scores;  // the model's scores of each of `texts`
};

struct FairnessAnswers {
  std::vector<AnsweredInput> inputs;     // the mutable inputs, in input order (when complete)
  std::optional<FilterCounts> filtered;  // with a filter: what it did, over every chunk
  bool complete = false;
  std::size_t n_chunks = 0, n_owned = 0, n_resumed = 0, n_executed = 0;  // as FairnessTestRun
};

// The asking half of Algorithm 1 for `fair mitigate`: perturbs every input and asks the model
// for each mutable one's original and perturbations (one predict() per chunk), recording each
// chunk's answers in `store` (nullptr: kept in memory; options.shard must then be whole), and
// returns every mutable input's texts and scores in input order once every chunk is finished.
// Keys and errors as run_fairness_test.
FairnessAnswers answer_inputs(const Perturbator& perturbator, models::Model& model,
                              const std::vector<InputRecord>& inputs,
                              const FairnessTestOptions& options, const std::string& settings,
                              core::ChunkStore* store);

struct FairnessTestRun {
  // Both complete only when `complete`: every chunk of the inputs is finished.
  FairnessTestSummary summary;
  std::vector<std::string> violations;  // violations.jsonl's lines (no newline), input order
  bool complete = false;
  std::size_t n_chunks = 0;    // chunks of the inputs
  std::size_t n_owned = 0;     // of them, this shard's
  std::size_t n_resumed = 0;   // of those, found finished in the store (resumed or merged)
  std::size_t n_executed = 0;  // perturbed and asked by this run
};

// Runs Algorithm 1 over the chunks this shard owns that `store` lacks, recording each in the
// store as it finishes, then assembles every chunk from the store in input order. Without a
// store (nullptr) the chunks are kept in memory and options.shard must be whole. A chunk's key
// is its place and a content hash of `settings` (everything else that decides its result: the
// perturbator's options and resources, the program version), the model's identity and its
// inputs' lines and texts. Errors as answer_inputs; every chunk recorded before stays.
FairnessTestRun run_fairness_test(const Perturbator& perturbator, models::Model& model,
                                  const std::vector<InputRecord>& inputs,
                                  const FairnessTestOptions& options, const std::string& settings,
                                  core::ChunkStore* store);

}  // namespace assay::fairness
