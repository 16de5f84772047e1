// One fairness run over a list of inputs, as `fair test` and `fair mitigate` run it and as
// assay.fair.test and assay.fair.mitigate run it in Python: the front end turns its flags or
// keywords into a FairRunRequest, reads the inputs and opens the model under test (an adapter
// spec, a Python callable) behind the answer cache (models::behind_answer_cache); FairRun loads
// the perturbator and the gate, and run_fair_test / run_fair_mitigate run MT-NLP's Algorithm 1
// over chunks of the inputs (recorded in the answer cache's file, so an interrupted run resumes
// and shards merge) and write the run's files. The front ends only translate and print.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/shard.h"
#include "fairness/fairness_input.h"
#include "fairness/fairness_run.h"
#include "fairness/fairness_test_runner.h"
#include "fairness/mitigation_study.h"
#include "fairness/perturbation_gate.h"
#include "fairness/perturbator_config.h"
#include "models/cached_model.h"

namespace assay::fairness {

// What a chunked run did and where it kept its chunks (for the front end's report).
struct FairRunProgress {
  std::size_t n_owned = 0, n_executed = 0, n_resumed = 0, merged = 0;
  bool complete = false;                    // every chunk finished: the files were written
  std::string store;                        // the file of the finished chunks ("" kept in memory)
  std::optional<FilterCounts> gate_counts;  // what the gate did (every chunk when complete)
};

struct FairRunRequest {
  PerturbatorConfig perturbator;
  GateSettings gate;        // gate "" = none: every perturbation is asked
  std::size_t chunk = 64;   // inputs perturbed per model round (≥ 1)
  std::size_t threads = 0;  // perturbing threads (0 = every core); outputs do not depend on it
  core::Shard shard;        // only this shard's chunks (needs an answer cache)
  std::vector<std::string> merge;  // other shards' answer caches, merged in first
  std::string out;                 // the directory of the run's files ("" writes none)
  std::string data;                // the inputs' name in summary.json ("" leaves it out)
  bool quiet = false;              // no progress on stderr
  // Called as chunks finish (chunks done, chunks in all), on the calling thread.
  std::function<void(std::uint64_t, std::uint64_t)> on_progress;
  // Called once this shard's chunks are finished, before the files are written.
  std::function<void(const FairRunProgress&)> on_chunks_done;
};

// The request's own errors, before anything is read or loaded: core::UsageError for a chunk of
// 0 inputs or too many threads, and the errors of perturbator_settings and
// check_gate_settings.
void check_fair_run_request(const FairRunRequest& request);

// A run opened: the perturbator and its resources, the gate, the inputs and the model.
class FairRun {
 public:
  // Checks the request (as check_fair_run_request; a shard or merge without an answer cache is
  // a core::UsageError) and loads the perturbator and the gate (load_gated_perturbator), whose
  // errors it throws; the attribute file is read once here.
  FairRun(FairRunRequest request, std::vector<InputRecord> inputs, models::ModelUnderTest model);

  const FairRunRequest& request() const { return request_; }
  const std::vector<InputRecord>& inputs() const { return inputs_; }
  const Perturbator& perturbator() const { return *loaded_.perturbator; }
  PerturbationGate* gate() const { return loaded_.gate.get(); }
  models::Model& model() { return *model_.model; }
  const models::CachedModel* cached() const { return model_.cached; }
  const std::string& cache() const { return model_.cache; }

  // The runner's options: chunks, threads, shard, progress labelled `label`, the gate's filter.
  FairnessTestOptions runner_options(std::string label) const;
  // The reuse key of the run's chunks (fair_run_key: this program's version, the perturbator's
  // options and resources, the gate's settings).
  std::string settings_key() const;

 private:
  FairRunRequest request_;
  std::vector<InputRecord> inputs_;
  models::ModelUnderTest model_;
  GatedPerturbator loaded_;
};

struct FairTestOutcome {
  FairRunProgress progress;
  FairnessTestSummary summary;          // when complete
  std::vector<std::string> violations;  // violations.jsonl's lines, when complete
  nlohmann::ordered_json summary_json;  // summary.json, when complete
};

// `fair test`: Algorithm 1 over every chunk this shard owns (fairness_test_runner.h), the
// chunks kept in the answer cache's file; once every chunk is finished, violations.jsonl and
// summary.json (with the answer cache's counts) in request.out, each written atomically.
// A violation counts only when the original label's score fell by at least `min_delta` (≥ 0).
FairTestOutcome run_fair_test(FairRun& run, double min_delta);

struct FairMitigateOutcome {
  FairRunProgress progress;
  std::optional<MitigationStudy> study;  // when complete
};

// Throws core::UsageError for options the study cannot take: no epsilon, an epsilon that is
// not finite and ≥ 0, max_k outside 1..1024, a regularisation that is not positive.
void check_mitigation_options(const MitigationStudyOptions& options);

// `fair mitigate`: the answers of every chunk (answer_inputs, kept in the answer cache's file
// beside `fair test`'s), then, once every chunk is finished, the study (study_mitigation, with
// the run's threads, filter and batch `batch`; gold[i] input i's label among the model's) and
// mitigation.json and mitigation.csv in request.out, each written atomically. `on_epsilon` as
// study_mitigation's.
FairMitigateOutcome run_fair_mitigate(FairRun& run, MitigationStudyOptions options,
                                      const std::vector<std::optional<std::size_t>>& gold,
                                      const std::function<void(const EpsilonOutcome&)>& on_epsilon);

}  // namespace assay::fairness
