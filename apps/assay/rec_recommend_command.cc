// `assay rec recommend`: train one recommender on a dataset and write every user's top-k as
// JSON lines ({"user": label, "items": [{"item": label, "score": s}, ...]}), atomically.
// Same data, algorithm and seed give the same bytes for any --threads.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "command.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/jsonl.h"
#include "option_checks.h"
#include "rec_options.h"
#include "recsys/command_recommender.h"
#include "recsys/data_spec.h"
#include "recsys/recommender.h"
#include "recsys/recommender_spec.h"
#include "recsys/top_k_record.h"

namespace assay::cli {
namespace {

struct RecRecommendOptions {
  std::string data;
  std::string algorithm;
  std::size_t k = 10;
  std::uint64_t seed = 0;
  std::size_t threads = 1;
  std::string out;
  bool quiet = false;
  RecProgramOptions program;
};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Every user's list; with the model's scores when there is a model (a program gives lists only).
void write_lists(std::ostream& os, const recsys::Recommender* model, const recsys::Ratings& data,
                 const recsys::TopKLists& lists) {
  for (recsys::UserId u = 0; u < data.n_users(); ++u)
    core::write_jsonl(os, recsys::top_k_record(model, data, u, lists[u]));
}

int run(const RecRecommendOptions& o) {
  if (o.k == 0) throw core::UsageError("--top-k must be >= 1");
  if (o.threads == 0) throw core::UsageError("--threads must be >= 1");
  // Unknown names, keys and bad values fail before loading.
  const auto spec = recsys::parse_recommender_spec(o.algorithm);
  const bool program = recsys::is_command_spec(o.algorithm);
  check_rec_program(o.algorithm);
  apply_rec_program_options(o.program);
  std::unique_ptr<recsys::Recommender> model;
  if (!program) model = recsys::make_recommender(spec);
  auto log = [&](const char* fmt, auto... args) {
    if (!o.quiet) std::fprintf(stderr, fmt, args...);
  };
  auto start = std::chrono::steady_clock::now();
  log("rec recommend: loading %s\n", o.data.c_str());
  const recsys::Ratings data = recsys::load_ratings(o.data);
  log("rec recommend: %zu users, %zu items, %zu ratings (%.2f s)\n", data.n_users(), data.n_items(),
      data.n_ratings(), seconds_since(start));
  start = std::chrono::steady_clock::now();
  log("rec recommend: training %s\n", spec.full().c_str());
  recsys::TopKLists lists;
  if (program) {
    lists = recsys::command_recommender(spec.identity()).recommend_all(data, o.k, o.seed);
    log("rec recommend: trained and ranked in %.2f s\n", seconds_since(start));
  } else {
    model->fit(data, {o.seed, o.threads});
    log("rec recommend: trained in %.2f s; ranking top-%zu for %zu users\n", seconds_since(start),
        o.k, data.n_users());
    start = std::chrono::steady_clock::now();
    lists = recsys::recommend_all(*model, data, o.k, o.threads);
    log("rec recommend: ranked in %.2f s\n", seconds_since(start));
  }
  if (o.out.empty()) {
    write_lists(std::cout, model.get(), data, lists);
  } else {
    core::AtomicFileWriter writer(o.out);
    write_lists(writer.stream(), model.get(), data, lists);
    writer.commit();
    log("rec recommend: wrote %s\n", o.out.c_str());
  }
  return kOk;
}

void add_rec_recommend_command(CLI::App& rec, CommandResult& result) {
  auto opts = std::make_shared<RecRecommendOptions>();
  auto* cmd = rec.add_subcommand("recommend", "Train a recommender and write every user's top-k");
  cmd->add_option("--data", opts->data, kRecDataHelp)->required();
  cmd->add_option("--algorithm", opts->algorithm, kRecAlgorithmHelp)->required();
  add_count(cmd, "--top-k", opts->k, "Items per user", {.min = 1, .max = 1'000'000'000})
      ->capture_default_str();
  add_count(cmd, "--seed", opts->seed, "Training seed",
            {.min = 0, .max = std::numeric_limits<std::uint64_t>::max()})
      ->capture_default_str();
  add_count(cmd, "--threads", opts->threads, "Worker threads (results do not depend on it)",
            {.min = 1, .max = 4'096})
      ->capture_default_str();
  add_output_file(cmd, "--out", opts->out,
                  "Output JSON lines file (written atomically); stdout if absent");
  cmd->add_flag("--quiet", opts->quiet, "No progress on stderr");
  add_rec_program_options(cmd, opts->program);
  cmd->callback([opts, &result] { result.exit_code = run(*opts); });
}

}  // namespace

ASSAY_REGISTER_COMMAND("rec", "Recommender stability: recommend, fuzz, campaign, replay, export",
                       "recommend", add_rec_recommend_command)

}  // namespace assay::cli
