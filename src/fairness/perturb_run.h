// `fair perturb` as one library run, for the command and for Python alike: every input
// perturbed (and gated), one JSON record per input handed over in input order, the counts of
// the summary line. The inputs go 2,048 at a time: person nouns' analogy searches for a chunk
// first (one pass over the vectors each), then its inputs perturbed on `threads` threads, so
// the records do not depend on the thread count.
#pragma once

#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/error.h"
#include "fairness/fairness_input.h"
#include "fairness/perturbation_gate.h"
#include "fairness/perturbator.h"

namespace assay::fairness {

struct PerturbRunOptions {
  std::size_t threads = 0;  // 0 = every core
  bool dropped = true;      // each record lists the dropped candidates
  PerturbationGate* gate = nullptr;
  // Where input `index`'s errors point (default: its line, without a file name).
  std::function<core::SourceLocation(std::size_t index, const InputRecord&)> where;
  // Called before each input is perturbed, on any thread: throws to stop the run.
  std::function<void()> check;
  // Called after each chunk's records were handed over: (inputs done, inputs in all).
  std::function<void(std::size_t, std::size_t)> progress;
};

// What the summary line counts.
struct PerturbRunCounts {
  std::size_t inputs = 0, empty = 0, mutable_inputs = 0;
  std::size_t analogy = 0, active = 0, name = 0, group = 0, dropped = 0, max_per_input = 0;
  std::size_t perturbations() const { return analogy + active + name + group; }
};

// Perturbs every input; `sink` gets each input's record (perturbation_set_to_json, with the
// gate's "aeon" record in each kept perturbation) on the calling thread, in input order.
// Throws the perturbator's errors with the input's location (options.where) and what `check`,
// `progress` and `sink` throw.
PerturbRunCounts perturb_inputs(const Perturbator& perturbator,
                                const std::vector<InputRecord>& inputs,
                                const PerturbRunOptions& options,
                                const std::function<void(nlohmann::ordered_json&&)>& sink);

// "N inputs (E empty), M mutable (P%); … attribute A; load L s, perturb R s (X inputs/s)".
std::string perturb_summary(const PerturbRunCounts& counts, const std::string& attribute,
                            double load_seconds, double run_seconds);

}  // namespace assay::fairness
