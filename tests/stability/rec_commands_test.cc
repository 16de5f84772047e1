// The rec fuzz / campaign / replay commands end to end, including a campaign killed with
// SIGKILL and resumed.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "recsys/data_spec.h"
#include "stability/campaign_store.h"
#include "stability/modification_set_file.h"
#include "support/temp_dir.h"

namespace assay::stability {
namespace {

using ::assay::testing::read_file;
using ::assay::testing::run_assay;
using ::assay::testing::TempDir;

const std::string kData = "synthetic:users=60,items=80,ratings=1200,seed=5";

std::vector<nlohmann::json> json_lines(const std::string& text) {
  std::vector<nlohmann::json> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) out.push_back(nlohmann::json::parse(line));
  }
  return out;
}

TEST(RecFuzz, PrintsTrialsAndSummaryIdenticallyForAnyThreadCount) {
  TempDir dir;
  const std::string args = "rec fuzz --data " + kData +
                           " --algorithm user-user --heuristic AMR --size 8 --trials 4 --seed 3";
  const auto one = run_assay(dir, args + " --threads 1");
  ASSERT_EQ(one.exit_code, 0) << one.err;
  const auto two = run_assay(dir, args + " --threads 2");
  ASSERT_EQ(two.exit_code, 0) << two.err;
  EXPECT_EQ(one.out, two.out);
  const auto lines = json_lines(one.out);
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(lines[0]["trial"], 0);
  EXPECT_EQ(lines[0]["n_modifications"], 8);
  EXPECT_TRUE(lines[0].contains("rbo"));
  EXPECT_EQ(lines[4]["summary"], true);
  EXPECT_EQ(lines[4]["trials"], 4);
}

TEST(RecFuzz, DeltaExceededExitsOneAndSavesSets) {
  TempDir dir;
  const auto r = run_assay(dir, "rec fuzz --data " + kData +
                                    " --algorithm user-user --heuristic AMU --size 8 --trials 3 "
                                    "--delta 0 --save-dir " +
                                    dir.file("sets"));
  ASSERT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("exceed Top Out 0"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::is_empty(dir.file("sets")));
}

TEST(RecFuzz, SaveDirWithoutDeltaSavesEveryTrialsSet) {
  TempDir dir;
  const auto r = run_assay(dir, "rec fuzz --data " + kData +
                                    " --algorithm item-item --heuristic CRAND --size 3 --trials 3 "
                                    "--save-dir " +
                                    dir.file("sets"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("3 sets saved under"), std::string::npos) << r.err;
  for (int t = 0; t < 3; ++t) {
    EXPECT_TRUE(std::filesystem::exists(
        dir.file("sets/item-item-CRAND-n3-t" + std::to_string(t) + ".json")))
        << t;
  }
}

// rec export writes the ratings a run trained on: the loaded data with the saved set applied,
// as a CSV that csv:FILE reads back to the same ratings (half-star scale included).
TEST(RecExport, WritesTheModifiedDataSetThatCsvReadsBack) {
  TempDir dir;
  // Half-star data: 0.5 .. 5 in steps of 0.5.
  std::string csv = "user,item,rating\n";
  for (int u = 1; u <= 30; ++u) {
    for (int i = 1; i <= 40; ++i) {
      if ((u * 7 + i * 3) % 4 != 0) continue;
      csv += std::to_string(u) + "," + std::to_string(i) + "," +
             std::to_string(0.5 * (1 + (u * i) % 10)).substr(0, 3) + "\n";
    }
  }
  const std::string spec = "csv:" + dir.write("half.csv", csv) + ",low=0.5,high=5,step=0.5";
  const auto fuzz = run_assay(dir, "rec fuzz --data " + spec +
                                       " --algorithm item-item --heuristic APORTFOLIO --size 6 "
                                       "--trials 1 --save-dir " +
                                       dir.file("sets"));
  ASSERT_EQ(fuzz.exit_code, 0) << fuzz.err;
  const std::string mods = dir.file("sets/item-item-APORTFOLIO-n6-t0.json");
  const auto r = run_assay(
      dir, "rec export --data " + spec + " --mods " + mods + " --out " + dir.file("modified.csv"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string back = "csv:" + dir.file("modified.csv") + ",low=0.5,high=5,step=0.5";
  EXPECT_NE(r.err.find("read it back with --data " + back), std::string::npos) << r.err;

  const auto original = recsys::load_ratings(spec);
  const auto set = read_modification_set(mods, original);
  ASSERT_EQ(set.modifications.size(), 6u);
  const auto want = original.apply(set.modifications);
  const auto got = recsys::load_ratings(back);
  ASSERT_EQ(got.n_ratings(), want.n_ratings());
  EXPECT_EQ(got.n_ratings(), original.n_ratings() + 6);  // APORTFOLIO adds
  for (recsys::UserId u = 0; u < want.n_users(); ++u) {
    const auto gu = got.find_user(want.user_label(u));
    ASSERT_TRUE(gu.has_value()) << want.user_label(u);
    ASSERT_EQ(got.items_of(*gu).size(), want.items_of(u).size());
    const auto items = want.items_of(u);
    const auto values = want.values_of_user(u);
    for (std::size_t j = 0; j < items.size(); ++j) {
      const auto gi = got.find_item(want.item_label(items[j]));
      ASSERT_TRUE(gi.has_value());
      EXPECT_EQ(got.rating(*gu, *gi), values[j]);
    }
  }
  // Without --mods: the data as loaded.
  const auto plain = run_assay(dir, "rec export --data " + kData + " --out " + dir.file("p.csv"));
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_EQ(recsys::load_ratings("csv:" + dir.file("p.csv")).n_ratings(), 1200u);
}

TEST(RecExport, ASetThatDoesNotFitTheDataIsBadInputAndWritesNothing) {
  TempDir dir;
  const auto data = recsys::load_ratings(kData);
  const std::string user = data.user_label(0), item = data.item_label(data.items_of(0)[0]);
  // Adding a rating the user already gave.
  const std::string mods = dir.write(
      "mods.json", R"({"format": "assay-rec-mods/1", "data": "x", "algorithm": "user-user",
        "heuristic": "AMU", "size": 1, "trial": 0, "campaign_seed": 0, "run_seed": 1,
        "model_seed": 2, "k": 10,
        "modifications": [{"kind": "add", "user": ")" +
                       user + R"(", "item": ")" + item + R"(", "value": 1}]})");
  const auto r = run_assay(
      dir, "rec export --data " + kData + " --mods " + mods + " --out " + dir.file("out.csv"));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("mods.json"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("already rated"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("out.csv")));
}

TEST(RecFuzz, UnknownHeuristicIsBadInput) {
  TempDir dir;
  const auto r = run_assay(dir, "rec fuzz --data " + kData +
                                    " --algorithm user-user --heuristic AXX --size 1 --trials 1");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown heuristic 'AXX'"), std::string::npos) << r.err;
}

std::string campaign_args(const TempDir& dir, const std::string& name) {
  return "rec campaign --data " + kData +
         " --algorithms user-user,funk-svd --heuristics AMU,ARAND --sizes 1,8 --trials 4 "
         "--seed 9 --noise-trials 1 --threads 2 --delta 0 --quiet --store " +
         dir.file(name + ".sqlite") + " --out " + dir.file(name);
}

TEST(RecCampaign, KilledWithSigkillResumesToTheSameCells) {
  TempDir dir;
  const auto whole = run_assay(dir, campaign_args(dir, "whole"));
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  const auto reference = nlohmann::json::parse(read_file(dir.file("whole/summary.json")));
  ASSERT_EQ(reference["cells"].size(), 2u * 2 * 2 * 4);
  EXPECT_EQ(reference["complete"], true);

  // Start the same campaign into another store and kill it once a few runs are recorded.
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const std::string cmd = std::string("exec ") + ASSAY_BINARY + " " +
                            campaign_args(dir, "killed") + " >/dev/null 2>&1";
    execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  std::size_t recorded = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    if (std::filesystem::exists(dir.file("killed.sqlite"))) {
      try {
        CampaignStore peek(dir.file("killed.sqlite"));
        recorded = peek.runs().size();
      } catch (const std::exception&) {
        recorded = 0;  // schema not created yet
      }
      if (recorded >= 3) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_GE(recorded, 3u);
  {
    CampaignStore peek(dir.file("killed.sqlite"));
    recorded = peek.runs().size();
  }
  const bool was_interrupted = recorded < 32;
  EXPECT_FALSE(std::filesystem::exists(dir.file("killed/summary.json")));

  const auto resumed = run_assay(dir, campaign_args(dir, "killed"));
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_NE(resumed.out.find("from " + dir.file("killed.sqlite")), std::string::npos);
  const auto again = nlohmann::json::parse(read_file(dir.file("killed/summary.json")));
  EXPECT_EQ(again["cells"], reference["cells"]);
  EXPECT_EQ(again["noise_floor"], reference["noise_floor"]);
  CampaignStore store(dir.file("killed.sqlite"));
  EXPECT_EQ(store.runs().size(), 32u);
  if (!was_interrupted) GTEST_SKIP() << "the campaign finished before SIGKILL arrived";
}

// Two machines: each runs its shard (the rank from an MPI launcher's environment) into its own
// store; one more call merges them and writes the same cells as the campaign run whole.
TEST(RecCampaign, ShardsUnderAnMpiLauncherMergeToTheSameCells) {
  TempDir dir;
  const auto whole = run_assay(dir, campaign_args(dir, "whole"));
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  const auto reference = nlohmann::json::parse(read_file(dir.file("whole/summary.json")));
  for (int rank = 0; rank < 2; ++rank) {
    const std::string name = "rank" + std::to_string(rank);
    // What mpirun -np 2 puts in each rank's environment (the child inherits ours).
    ::setenv("OMPI_COMM_WORLD_RANK", std::to_string(rank).c_str(), 1);
    ::setenv("OMPI_COMM_WORLD_SIZE", "2", 1);
    const auto r = run_assay(dir, campaign_args(dir, name) + " --shard auto");
    ::unsetenv("OMPI_COMM_WORLD_RANK");
    ::unsetenv("OMPI_COMM_WORLD_SIZE");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("shard " + std::to_string(rank) + " of 2"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("this shard is done"), std::string::npos) << r.out;
    const auto part = nlohmann::json::parse(read_file(dir.file(name + "/summary.json")));
    EXPECT_EQ(part["complete"], false);
  }
  const auto merged = run_assay(dir, campaign_args(dir, "merged") + " --merge " +
                                         dir.file("rank0.sqlite") + "," + dir.file("rank1.sqlite"));
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  EXPECT_NE(merged.out.find("merged 32 runs from 2 stores"), std::string::npos) << merged.out;
  EXPECT_NE(merged.out.find("(0 executed now"), std::string::npos) << merged.out;
  const auto all = nlohmann::json::parse(read_file(dir.file("merged/summary.json")));
  EXPECT_EQ(all["complete"], true);
  EXPECT_EQ(all["cells"], reference["cells"]);
  EXPECT_EQ(all["noise_floor"], reference["noise_floor"]);

  const auto bad = run_assay(dir, campaign_args(dir, "bad") + " --shard 2/2");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--shard: shard 2/2: need 0 <= I < N"), std::string::npos) << bad.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("bad/summary.json")));
}

// The same under a real launcher: Open MPI's mpirun starts three ranks on this machine, each
// takes its shard from the environment mpirun gives it, and the merge equals the whole run.
// CI installs openmpi-bin (scripts/packages/stability.test); elsewhere this skips.
TEST(RecCampaign, ShardsUnderOpenMpiMpirunMergeToTheSameCells) {
  if (std::system("command -v mpirun >/dev/null 2>&1") != 0) GTEST_SKIP() << "no mpirun here";
  TempDir dir;
  const auto whole = run_assay(dir, campaign_args(dir, "whole"));
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  const auto reference = nlohmann::json::parse(read_file(dir.file("whole/summary.json")));
  // One rank's command; the single quotes keep $OMPI_COMM_WORLD_RANK for the rank's shell.
  const std::string rank_command = std::string(ASSAY_BINARY) + " " +
                                   campaign_args(dir, "rank$OMPI_COMM_WORLD_RANK") +
                                   " --shard auto";
  const std::string launch = "mpirun --allow-run-as-root --oversubscribe -np 3 sh -c '" +
                             rank_command + "' >" + dir.file("mpirun.out") + " 2>&1 </dev/null";
  const int status = std::system(launch.c_str());
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << read_file(dir.file("mpirun.out"));
  std::string stores;
  for (int rank = 0; rank < 3; ++rank) {
    const std::string name = "rank" + std::to_string(rank);
    const auto part = nlohmann::json::parse(read_file(dir.file(name + "/summary.json")));
    EXPECT_EQ(part["complete"], false) << name;
    if (rank > 0) stores += ',';
    stores += dir.file(name + ".sqlite");
  }
  const auto merged = run_assay(dir, campaign_args(dir, "merged") + " --merge " + stores);
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  EXPECT_NE(merged.out.find("merged 32 runs from 3 stores"), std::string::npos) << merged.out;
  EXPECT_NE(merged.out.find("(0 executed now"), std::string::npos) << merged.out;
  const auto all = nlohmann::json::parse(read_file(dir.file("merged/summary.json")));
  EXPECT_EQ(all["complete"], true);
  EXPECT_EQ(all["cells"], reference["cells"]);
  EXPECT_EQ(all["noise_floor"], reference["noise_floor"]);
}

TEST(RecCampaign, WritesReportAndReplayableSets) {
  TempDir dir;
  const auto r = run_assay(dir, campaign_args(dir, "c"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* f : {"summary.json", "figure2.svg", "table3.md", "table4.csv", "report.html"}) {
    EXPECT_TRUE(std::filesystem::exists(dir.file(std::string("c/") + f))) << f;
  }
  const auto summary = nlohmann::json::parse(read_file(dir.file("c/summary.json")));
  const auto& files = summary["exceeding_delta"]["files"];
  ASSERT_FALSE(files.empty());
  const std::string mods = dir.file("c/" + files[0].get<std::string>());
  const auto recorded = nlohmann::json::parse(read_file(mods));

  const auto replay = run_assay(dir, "rec replay --data " + kData + " --mods " + mods);
  ASSERT_EQ(replay.exit_code, 0) << replay.err;
  const auto lines = json_lines(replay.out);
  ASSERT_FALSE(lines.empty());
  const auto& last = lines.back();
  EXPECT_EQ(last["summary"], true);
  EXPECT_EQ(last["top-out"], recorded["oracles"]["top-out"]);
  EXPECT_EQ(last["jaccard"], recorded["oracles"]["jaccard"]);
  EXPECT_GT(last["users_lost_top1"].get<int>(), 0);
  EXPECT_TRUE(lines[0].contains("lost"));
}

// --save-all saves every run's set; a campaign of 2 trials per cell warns of low power on
// stderr and in the report, and its headline quotes nothing.
TEST(RecCampaign, SaveAllSavesEverySetAndFewTrialsWarnOfLowPower) {
  TempDir dir;
  const auto r = run_assay(dir, "rec campaign --data " + kData +
                                    " --algorithms user-user --heuristics AMR,ARAND --sizes 4 "
                                    "--trials 2 --noise-trials 0 --save-all --quiet --store " +
                                    dir.file("s.sqlite") + " --out " + dir.file("c"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("every run's set (4) saved"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("of 1 targeted Top Out cells beat their random baseline"), std::string::npos)
      << r.out;
  EXPECT_NE(r.err.find("rec campaign: warning: Low power: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("hold too few trials for the rank-sum test"), std::string::npos) << r.err;
  std::size_t n = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.file("c/mods")))
    n += e.is_regular_file();
  EXPECT_EQ(n, 4u);
  const auto summary = nlohmann::json::parse(read_file(dir.file("c/summary.json")));
  EXPECT_EQ(summary["exceeding_delta"]["files"].size(), 4u);
  EXPECT_TRUE(summary["exceeding_delta"]["all"].get<bool>());
  EXPECT_TRUE(summary["significance"]["oracles"][0]["low_power"].get<bool>());
  const std::string html = read_file(dir.file("c/report.html"));
  EXPECT_NE(html.find("<p class=\"warning\">Low power: "), std::string::npos);
  EXPECT_NE(html.find("<p class=\"headline\">No heuristic moved more users"), std::string::npos);
}

// --headline-oracle picks the headline's oracle; an unknown one exits 2 before any training.
TEST(RecCampaign, HeadlineOracleIsChosenAndCheckedBeforeTheCampaign) {
  TempDir dir;
  const std::string base = "rec campaign --data " + kData +
                           " --algorithms user-user --heuristics AMR,ARAND --sizes 4 "
                           "--trials 2 --noise-trials 0 --quiet --store " +
                           dir.file("s.sqlite") + " --out " + dir.file("c");
  const auto bad = run_assay(dir, base + " --headline-oracle kendall");
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
  EXPECT_NE(bad.err.find("kendall"), std::string::npos) << bad.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("s.sqlite")));
  const auto r = run_assay(dir, base + " --headline-oracle rbo");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto summary = nlohmann::json::parse(read_file(dir.file("c/summary.json")));
  EXPECT_EQ(summary["significance"]["headline_oracle"], "rbo");
  EXPECT_NE(r.err.find("targeted RBO cell"), std::string::npos) << r.err;
  EXPECT_NE(read_file(dir.file("c/report.html")).find("RBO"), std::string::npos);
}

TEST(RecSpecs, BadKeyOrValueIsAUsageErrorInEveryCommand) {
  TempDir dir;
  const std::vector<std::string> commands = {
      "rec recommend --data " + kData + " --algorithm funk-svd:dampen=0 --out " +
          dir.file("r.jsonl"),
      "rec fuzz --data " + kData +
          " --algorithm funk-svd:dampen=0 --heuristic AMR --size 1 --trials 1",
      "rec campaign --data " + kData +
          " --algorithms user-user,funk-svd:dampen=0 --heuristics ARAND --sizes 1 --trials 1 "
          "--quiet --store " +
          dir.file("s.sqlite") + " --out " + dir.file("out"),
      "rec campaign --data " + kData +
          " --algorithms funk-svd --sweep dampen=0,5 --heuristics ARAND --sizes 1 --trials 1 "
          "--quiet --store " +
          dir.file("s.sqlite") + " --out " + dir.file("out"),
  };
  for (const auto& c : commands) {
    const auto r = run_assay(dir, c);
    EXPECT_EQ(r.exit_code, 2) << c;
    EXPECT_NE(r.err.find("unknown key 'dampen'"), std::string::npos) << c << ": " << r.err;
  }
  const auto bad = run_assay(dir, "rec campaign --data " + kData +
                                      " --algorithms funk-svd:damping=-1 --heuristics ARAND "
                                      "--sizes 1 --trials 1 --quiet --store " +
                                      dir.file("s.sqlite") + " --out " + dir.file("out"));
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("'damping'"), std::string::npos) << bad.err;
  const auto twice = run_assay(dir, "rec campaign --data " + kData +
                                        " --algorithms funk-svd,funk-svd:damping=5.0 --heuristics "
                                        "ARAND --sizes 1 --trials 1 --quiet --store " +
                                        dir.file("s.sqlite") + " --out " + dir.file("out"));
  EXPECT_EQ(twice.exit_code, 2);
  EXPECT_NE(twice.err.find("funk-svd named twice"), std::string::npos) << twice.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("out/summary.json")));
  EXPECT_FALSE(std::filesystem::exists(dir.file("r.jsonl")));
}

// Two configurations of one algorithm are two rows of one campaign, named by their normalised
// specs; the default keeps its plain name (and so its seeds and cells); the sweep report puts
// instability and accuracy beside the parameter; a saved set replays its configuration.
TEST(RecSpecs, SweepIsRowsOfOneCampaignWithAccuracyAndReplays) {
  TempDir dir;
  const std::string common =
      " --heuristics AMR,ARAND,APORTFOLIO --sizes 10 --trials 2 --seed 9 "
      "--noise-trials 1 --threads 2 --delta 0 --quiet ";
  const auto sweep =
      run_assay(dir, "rec campaign --data " + kData +
                         " --algorithms funk-svd:epochs=20 --sweep damping=0,5.0" + common +
                         "--store " + dir.file("s.sqlite") + " --out " + dir.file("s"));
  ASSERT_EQ(sweep.exit_code, 0) << sweep.err;
  const auto plain =
      run_assay(dir, "rec campaign --data " + kData + " --algorithms funk-svd:epochs=20:damping=0" +
                         common + "--store " + dir.file("p.sqlite") + " --out " + dir.file("p"));
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  const auto s = nlohmann::json::parse(read_file(dir.file("s/summary.json")));
  ASSERT_EQ(s["algorithms"].size(), 2u);
  EXPECT_EQ(s["algorithms"][0], "funk-svd:epochs=20:damping=0");
  EXPECT_EQ(s["algorithms"][1], "funk-svd:epochs=20");
  const auto& conf = s["configurations"];
  ASSERT_EQ(conf.size(), 2u);
  EXPECT_EQ(conf[0]["spec"],
            "funk-svd:features=25:epochs=20:learning-rate=0.001:regularization=0.015:"
            "initial-value=0.1:damping=0:clamp=scale:order=stable");
  EXPECT_EQ(conf[0]["rating_influence"].size(), 5u);
  EXPECT_GT(conf[0]["rmse"].get<double>(), 0.3);
  EXPECT_LT(conf[0]["rmse"].get<double>(), 2.0);
  EXPECT_NE(conf[0]["rmse"], conf[1]["rmse"]);
  // The same configuration alone gives the same cells as in the sweep, but for what depends on
  // the family of comparisons, which in the sweep holds both configurations' cells: the adjusted
  // p, whether a cell is a finding, and the minimum detectable effect (at Holm's level alpha / m).
  const auto p = nlohmann::json::parse(read_file(dir.file("p/summary.json")));
  nlohmann::json sweep_cells = nlohmann::json::array(), alone_cells = nlohmann::json::array();
  for (auto c : s["cells"]) {
    if (c["algorithm"] != "funk-svd:epochs=20:damping=0") continue;
    for (const char* key : {"p_holm", "p_bh", "p_welch_holm", "finding", "mde", "detectable"}) {
      c.erase(key);
    }
    sweep_cells.push_back(c);
  }
  for (auto c : p["cells"]) {
    for (const char* key : {"p_holm", "p_bh", "p_welch_holm", "finding", "mde", "detectable"}) {
      c.erase(key);
    }
    alone_cells.push_back(c);
  }
  EXPECT_EQ(sweep_cells, alone_cells);
  const std::string md = read_file(dir.file("s/sweep.md"));
  EXPECT_NE(md.find("| damping | configuration | APORTFOLIO n=10"), std::string::npos) << md;
  EXPECT_NE(md.find("| 0 | funk-svd:epochs=20:damping=0 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| 5 | funk-svd:epochs=20 |"), std::string::npos) << md;
  for (const char* chart :
       {"s/sweep-funk-svd-damping-instability.svg", "s/sweep-funk-svd-damping-accuracy.svg"}) {
    const std::string svg = read_file(dir.file(chart));
    EXPECT_EQ(svg.find("<svg"), svg.rfind("<svg")) << chart;  // one document
    EXPECT_NE(svg.find("damping"), std::string::npos) << chart;
  }
  EXPECT_NE(read_file(dir.file("s/report.html")).find("Configuration sweeps"), std::string::npos);
  EXPECT_NE(read_file(dir.file("s/configurations.md")).find("I_R(5)"), std::string::npos);

  const auto& files = s["exceeding_delta"]["files"];
  ASSERT_FALSE(files.empty());
  const std::string mods = dir.file("s/" + files[0].get<std::string>());
  const auto recorded = nlohmann::json::parse(read_file(mods));
  const auto replay = run_assay(dir, "rec replay --data " + kData + " --mods " + mods);
  ASSERT_EQ(replay.exit_code, 0) << replay.err;
  const auto lines = json_lines(replay.out);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.back()["algorithm"], recorded["algorithm"]);
  EXPECT_EQ(lines.back()["top-out"], recorded["oracles"]["top-out"]);
}

TEST(RecReplay, UnknownUserInSetIsBadInputNamingTheFile) {
  TempDir dir;
  const std::string mods = dir.write(
      "mods.json", R"({"format": "assay-rec-mods/1", "data": "x", "algorithm": "user-user",
        "heuristic": "AMU", "size": 1, "trial": 0, "campaign_seed": 0, "run_seed": 1,
        "model_seed": 2, "k": 10,
        "modifications": [{"kind": "add", "user": "nobody", "item": "1", "value": 1}]})");
  const auto r = run_assay(
      dir, "rec replay --data " + kData + " --mods " + mods + " --out " + dir.file("out.jsonl"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("mods.json"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("user 'nobody' is not in the data"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("out.jsonl")));
}

TEST(RecCampaign, StoreThatIsNotADatabaseIsBadInput) {
  TempDir dir;
  dir.write("junk.sqlite", std::string(4096, 'j'));
  const auto r = run_assay(dir, "rec campaign --data " + kData +
                                    " --algorithms user-user --heuristics ARAND --sizes 1 "
                                    "--trials 1 --quiet --store " +
                                    dir.file("junk.sqlite") + " --out " + dir.file("out"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("junk.sqlite"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("out/summary.json")));
}

// A store is bound to the contents of its input files: resuming after the data changed is
// bad input naming the changed file, and nothing of the new data is mixed into the store.
TEST(RecCampaign, ResumeOnChangedDataFileIsRefusedNamingTheFile) {
  TempDir dir;
  std::string csv = "user,item,rating\n";
  for (int u = 0; u < 40; ++u) {
    for (int i = 0; i < 30; ++i) {
      if ((u * 7 + i * 3) % 4 == 0) {
        csv += std::to_string(u) + "," + std::to_string(i) + "," + std::to_string(1 + (u + i) % 5) +
               "\n";
      }
    }
  }
  const std::string data = dir.write("ratings.csv", csv);
  const std::string args = "rec campaign --data csv:" + data +
                           " --algorithms user-user --heuristics ARAND --sizes 1 --trials 3 "
                           "--noise-trials 0 --quiet --store " +
                           dir.file("s.sqlite") + " --out " + dir.file("out");
  const auto first = run_assay(dir, args + " --stop-after 1");
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_NE(first.out.find("INCOMPLETE"), std::string::npos) << first.out;

  // One rating changes (same shape, same spec string): only the content hash can tell.
  std::string changed = csv;
  const auto last = changed.rfind(',');
  changed[last + 1] = changed[last + 1] == '5' ? '4' : '5';
  dir.write("ratings.csv", changed);
  const auto resumed = run_assay(dir, args);
  EXPECT_EQ(resumed.exit_code, 2) << resumed.err;
  EXPECT_NE(resumed.err.find(data + ": this input file changed"), std::string::npos) << resumed.err;
  EXPECT_EQ(CampaignStore(dir.file("s.sqlite")).runs().size(), 1u);

  // Restored, the campaign resumes.
  dir.write("ratings.csv", csv);
  const auto restored = run_assay(dir, args);
  ASSERT_EQ(restored.exit_code, 0) << restored.err;
  EXPECT_NE(restored.out.find("3 runs (2 executed now, 1 from"), std::string::npos) << restored.out;
}

// Two campaigns on one store at once: the second is refused at once with a message naming the
// store, and the first is not disturbed.
TEST(RecCampaign, SecondProcessOnAStoreInUseIsRefused) {
  TempDir dir;
  const std::string store = dir.file("busy.sqlite");
  const std::string args = "rec campaign --data " + kData +
                           " --algorithms funk-svd --heuristics AMU,ARAND --sizes 1,8 "
                           "--trials 200 --seed 9 --noise-trials 1 --threads 1 --quiet --store " +
                           store + " --out " + dir.file("busy");
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const std::string cmd = std::string("exec ") + ASSAY_BINARY + " " + args + " >/dev/null 2>&1";
    execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!std::filesystem::exists(store + ".lock") && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  const bool locked = std::filesystem::exists(store + ".lock");
  const auto second = run_assay(dir, args);
  // The first is still running (800 funk-svd retrainings take minutes); stop it.
  int status = 0;
  const bool first_still_running = waitpid(pid, &status, WNOHANG) == 0;
  kill(pid, SIGKILL);
  waitpid(pid, &status, 0);
  ASSERT_TRUE(locked);
  ASSERT_TRUE(first_still_running);
  EXPECT_EQ(second.exit_code, 2) << second.err;
  EXPECT_NE(second.err.find(store + ": this store is in use by another process"), std::string::npos)
      << second.err;
  // kill -9 released the lock: the campaign resumes in this store.
  const auto resumed = run_assay(dir, args + " --stop-after 1");
  EXPECT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_FALSE(std::filesystem::exists(store + ".lock"));
}

}  // namespace
}  // namespace assay::stability
