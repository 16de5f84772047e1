// `assay rec replay`: apply a saved modification set, retrain and show, user by user, which
// items left (and entered) the top-k, with their titles where the data has them. JSON lines on
// stdout, one per affected user, then a summary line with the oracle values.
#include <cstdio>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <string>

#include "command.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/jsonl.h"
#include "option_checks.h"
#include "rec_options.h"
#include "recsys/data_spec.h"
#include "recsys/item_titles.h"
#include "recsys/recommender_spec.h"
#include "stability/modification_set_file.h"
#include "stability/replay.h"

namespace assay::cli {
namespace {

struct RecReplayOptions {
  std::string data;
  std::string mods;
  std::string algorithm;
  std::optional<std::uint64_t> model_seed;
  std::size_t threads = 1;
  std::string out;
  RecProgramOptions program;
};

// `titles`: one per item when the data has them (MovieLens), else empty; then every item list
// has a matching list of titles beside it.
void write_report(std::ostream& os, const recsys::Ratings& data,
                  const std::vector<std::string>& titles,
                  const stability::SavedModificationSet& set, const std::string& algorithm,
                  const stability::ReplayResult& r) {
  const auto labels = [&](const std::vector<recsys::ItemId>& items) {
    auto a = nlohmann::ordered_json::array();
    for (const auto i : items) a.push_back(data.item_label(i));
    return a;
  };
  const auto titles_of = [&](const std::vector<recsys::ItemId>& items) {
    auto a = nlohmann::ordered_json::array();
    for (const auto i : items) a.push_back(titles[i]);
    return a;
  };
  std::size_t n_lost_top1 = 0;
  for (const auto& c : r.changes) {
    nlohmann::ordered_json j;
    j["user"] = data.user_label(c.user);
    j["lost"] = labels(c.lost);
    if (!titles.empty()) j["lost_titles"] = titles_of(c.lost);
    j["gained"] = labels(c.gained);
    if (!titles.empty()) j["gained_titles"] = titles_of(c.gained);
    j["lost_top1"] = c.lost_top1;
    if (!r.before[c.user].empty()) {
      const recsys::ItemId top = r.before[c.user][0];
      j["top1_before"] = data.item_label(top);
      if (!titles.empty()) j["top1_before_title"] = titles[top];
    }
    core::write_jsonl(os, j);
    n_lost_top1 += c.lost_top1 ? 1 : 0;
  }
  nlohmann::ordered_json s;
  s["summary"] = true;
  s["algorithm"] = algorithm;
  s["modifications"] = set.modifications.size();
  s["users"] = data.n_users();
  s["users_changed"] = r.changes.size();
  s["users_lost_top1"] = n_lost_top1;
  for (std::size_t o = 0; o < stability::kNumOracles; ++o) {
    s[std::string(stability::to_string(stability::kAllOracles[o]))] = r.oracle[o];
  }
  core::write_jsonl(os, s);
}

int run(const RecReplayOptions& o) {
  const auto spec = recsys::parse_data_spec(o.data);
  const auto data = recsys::load_ratings(spec);
  const auto titles = recsys::load_item_titles(spec, data);
  const auto set = stability::read_modification_set(o.mods, data);
  const std::string algorithm =
      recsys::normalize_recommender_spec(o.algorithm.empty() ? set.key.algorithm : o.algorithm);
  check_rec_program(algorithm);
  apply_rec_program_options(o.program);
  if (set.data != o.data) {
    std::fprintf(stderr, "rec replay: note: %s was made on --data %s\n", o.mods.c_str(),
                 set.data.c_str());
  }
  std::fprintf(stderr, "rec replay: %zu modifications (%s, trial %zu); retraining %s\n",
               set.modifications.size(),
               std::string(stability::to_string(set.key.heuristic)).c_str(), set.key.trial,
               algorithm.c_str());
  stability::ReplayResult r;
  try {
    r = stability::replay_modification_set(data, set.modifications, algorithm,
                                           o.model_seed.value_or(set.model_seed), set.k, o.threads);
  } catch (core::Error& e) {
    e.add_context("applying " + o.mods);
    throw;
  }
  if (o.out.empty()) {
    write_report(std::cout, data, titles, set, algorithm, r);
  } else {
    core::AtomicFileWriter writer(o.out);
    write_report(writer.stream(), data, titles, set, algorithm, r);
    writer.commit();
  }
  std::fprintf(stderr, "rec replay: %zu users changed; Top Out %.6g (recorded %.6g)\n",
               r.changes.size(), r.oracle[0], set.oracle[0]);
  return kOk;
}

void add_rec_replay_command(CLI::App& rec, CommandResult& result) {
  auto o = std::make_shared<RecReplayOptions>();
  auto* cmd =
      rec.add_subcommand("replay", "Apply a saved modification set, retrain, show who lost what");
  cmd->add_option("--data", o->data,
                  std::string("The ratings the set was made for. ") + kRecDataHelp)
      ->required();
  cmd->add_option("--mods", o->mods, "A modification set saved by rec campaign or rec fuzz")
      ->required();
  cmd->add_option(
      "--algorithm", o->algorithm,
      std::string("Algorithm spec to retrain (default: the set's): ") + kRecAlgorithmHelp);
  add_rec_program_options(cmd, o->program);
  add_count(cmd, "--model-seed", o->model_seed, "Training seed (default: the set's)",
            {.min = 0, .max = std::numeric_limits<std::uint64_t>::max()});
  add_count(cmd, "--threads", o->threads, "Threads for ranking", {.min = 1, .max = 4'096})
      ->capture_default_str();
  add_output_file(cmd, "--out", o->out, "Write the JSON lines to FILE (atomically)");
  cmd->callback([o, &result] { result.exit_code = run(*o); });
}

}  // namespace

ASSAY_REGISTER_COMMAND("rec", "Recommender stability: recommend, fuzz, campaign, replay, export",
                       "replay", add_rec_replay_command)

}  // namespace assay::cli
