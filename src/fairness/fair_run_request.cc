#include "fairness/fair_run_request.h"

#include <cmath>
#include <filesystem>
#include <utility>

#include "core/atomic_file.h"
#include "core/chunk_store.h"
#include "core/error.h"
#include "core/file_lock.h"
#include "core/version.h"
#include "fairness/fairness_summary_json.h"

namespace assay::fairness {
namespace {

// The store of the run's finished chunks in the answer cache's file (`open`: fair test's or
// fair mitigate's tables), locked, with the other shards' stores merged in; none without a
// cache.
struct RunStore {
  std::unique_ptr<core::ChunkStore> store;
  core::FileLock lock;
  std::size_t merged = 0;
};

RunStore open_run_store(const FairRun& run,
                        std::unique_ptr<core::ChunkStore> (*open)(const std::string&)) {
  RunStore out;
  if (run.cache().empty()) return out;
  out.store = open(run.cache());
  out.lock = out.store->lock();
  for (const auto& other : run.request().merge) out.merged += out.store->merge(other);
  return out;
}

template <class Counts>
FairRunProgress progress_of(const Counts& c, const RunStore& store,
                            const std::optional<FilterCounts>& filtered, const FairRun& run) {
  FairRunProgress p;
  p.n_owned = c.n_owned;
  p.n_executed = c.n_executed;
  p.n_resumed = c.n_resumed;
  p.complete = c.complete;
  p.merged = store.merged;
  if (store.store) p.store = store.store->path();
  // Resumed chunks were gated when they ran: the counts over every chunk come with a complete
  // run; before that, what this process's gate did.
  if (run.gate()) p.gate_counts = c.complete && filtered ? *filtered : run.gate()->counts();
  if (run.request().on_chunks_done) run.request().on_chunks_done(p);
  return p;
}

}  // namespace

namespace {

// The request's checks that read no file.
void check_run_shape(const FairRunRequest& r) {
  if (r.chunk == 0) throw core::UsageError("chunk: expected at least 1 input per model round");
  if (r.threads > 4096) {
    throw core::UsageError("threads: expected at most 4096, got " + std::to_string(r.threads));
  }
  check_gate_settings(r.gate);
}

}  // namespace

void check_fair_run_request(const FairRunRequest& r) {
  check_run_shape(r);
  (void)perturbator_settings(r.perturbator);
}

FairRun::FairRun(FairRunRequest request, std::vector<InputRecord> inputs,
                 models::ModelUnderTest model)
    : request_(std::move(request)), inputs_(std::move(inputs)), model_(std::move(model)) {
  check_run_shape(request_);  // the perturbator's settings are checked as they load, below
  if (model_.cache.empty() && (!request_.shard.whole() || !request_.merge.empty())) {
    throw core::UsageError(
        "a shard of a run, or a merge of shards, needs the answer cache's file: each shard "
        "records its finished chunks there");
  }
  loaded_ = load_gated_perturbator(perturbator_settings(request_.perturbator), request_.gate);
}

FairnessTestOptions FairRun::runner_options(std::string label) const {
  FairnessTestOptions to;
  to.chunk_inputs = request_.chunk;
  to.threads = request_.threads;
  to.shard = request_.shard;
  to.progress.quiet = request_.quiet;
  to.progress.on_add = request_.on_progress;
  to.label = std::move(label);
  if (loaded_.gate) to.filter = loaded_.gate->filter();
  return to;
}

std::string FairRun::settings_key() const {
  return fair_run_key(std::string("assay ") + core::kVersion, request_.perturbator, perturbator(),
                      gate_settings_key(request_.gate));
}

FairTestOutcome run_fair_test(FairRun& run, double min_delta) {
  if (!std::isfinite(min_delta) || min_delta < 0) {
    throw core::UsageError("min_delta: expected a finite score change >= 0, got " +
                           std::to_string(min_delta));
  }
  const auto store = open_run_store(run, &open_fair_test_store);
  auto to = run.runner_options("fair test");
  to.min_delta = min_delta;
  auto r = run_fairness_test(run.perturbator(), run.model(), run.inputs(), to, run.settings_key(),
                             store.store.get());
  FairTestOutcome out;
  out.progress = progress_of(r, store, r.summary.filtered, run);
  // A shard's chunks are in its cache; the files come from the run that merges them all.
  if (!r.complete) return out;
  out.summary_json = fairness_summary_json(r.summary, run.model().identity(),
                                           run.perturbator().attribute().name, run.request().data);
  if (const auto* cached = run.cached()) {
    out.summary_json["answers_from_cache"] = cached->n_hits();
    out.summary_json["answers_asked"] = cached->n_queries();
  }
  if (const auto& dir = run.request().out; !dir.empty()) {
    std::filesystem::create_directories(dir);
    core::AtomicFileWriter violations(dir + "/violations.jsonl");
    for (const auto& line : r.violations) violations.stream() << line << '\n';
    violations.commit();
    core::write_file_atomically(dir + "/summary.json", out.summary_json.dump(2) + "\n");
  }
  out.summary = std::move(r.summary);
  out.violations = std::move(r.violations);
  return out;
}

void check_mitigation_options(const MitigationStudyOptions& o) {
  if (o.epsilons.empty()) throw core::UsageError("epsilon: expected at least one value");
  for (double e : o.epsilons) {
    if (!std::isfinite(e) || e < 0)
      throw core::UsageError("epsilon: " + std::to_string(e) + " is not a finite value >= 0");
  }
  if (o.max_k < 1 || o.max_k > 1024) {
    throw core::UsageError("max_k: expected 1 to 1024 perturbations, got " +
                           std::to_string(o.max_k));
  }
  if (o.adversarial && !(o.adversarial->c > 0)) {
    throw core::UsageError("the retrained LR's inverse regularisation must be positive");
  }
}

FairMitigateOutcome run_fair_mitigate(
    FairRun& run, MitigationStudyOptions options,
    const std::vector<std::optional<std::size_t>>& gold,
    const std::function<void(const EpsilonOutcome&)>& on_epsilon) {
  check_mitigation_options(options);
  const auto to = run.runner_options("fair mitigate");
  options.threads = run.request().threads;
  options.filter = to.filter;
  // Finished chunks live in the answer cache's file, beside the answers (and `fair test`'s).
  const auto store = open_run_store(run, &open_fair_mitigate_store);
  options.asking = std::chrono::steady_clock::now();
  auto answers = answer_inputs(run.perturbator(), run.model(), run.inputs(), to, run.settings_key(),
                               store.store.get());
  FairMitigateOutcome out;
  out.progress = progress_of(answers, store, answers.filtered, run);
  if (!answers.complete) return out;
  const auto& dir = run.request().out;
  if (!dir.empty()) std::filesystem::create_directories(dir);
  out.study = study_mitigation(run.perturbator(), run.model(), run.cached(), run.inputs().size(),
                               gold, std::move(answers), options, on_epsilon);
  if (!dir.empty()) {
    core::write_file_atomically(dir + "/mitigation.csv", out.study->csv);
    core::write_file_atomically(dir + "/mitigation.json", out.study->json.dump(2) + "\n");
  }
  return out;
}

}  // namespace assay::fairness
