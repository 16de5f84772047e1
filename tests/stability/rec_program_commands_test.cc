// `rec campaign`, `rec fuzz`, `rec recommend` and `rec replay` against the user's own program
// (cmd:...): the repository's examples end to end on MovieLens 100K, and programs that fail,
// time out or are left running by a killed assay.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>
#include <vector>

#include "stability/campaign_store.h"
#include "support/shared_data.h"
#include "support/temp_dir.h"

namespace assay::stability {
namespace {

using ::assay::testing::read_file;
using ::assay::testing::run_assay;
using ::assay::testing::TempDir;
namespace fs = std::filesystem;

const std::string kExamples = std::string(ASSAY_SOURCE_DIR) + "/examples/recsys";
const std::string kMovieLens = std::string(ASSAY_SHARED_DATA_DIR) + "/movielens-100k";
const std::string kSynthetic = "synthetic:users=50,items=70,ratings=900,seed=4";

bool has_sklearn() {
  return std::system("/usr/bin/python3 -c 'import sklearn' 2>/dev/null") == 0;
}

std::string campaign(const TempDir& dir, const std::string& data, const std::string& spec,
                     const std::string& name, const std::string& extra = "",
                     const std::string& sizes = "1,10") {
  return "rec campaign --data " + data + " --algorithm '" + spec +
         "' --heuristics AMR,ARAND --sizes " + sizes +
         " --trials 2 --noise-trials 2 --seed 3 "
         "--threads 2 --quiet --store " +
         dir.file(name + ".sqlite") + " --out " + dir.file(name) + " " + extra;
}

TEST(RecProgramCampaign, ShellExampleOnMovieLens100k) {
  ASSAY_REQUIRE_FILE(kMovieLens + "/u.data");
  TempDir dir;
  const std::string spec = "cmd:sh " + kExamples + "/popular.sh";
  // (Ten added ratings move no popularity list on ML-100K; a hundred move a few.)
  const auto r = run_assay(dir, campaign(dir, "movielens-100k:" + kMovieLens, spec, "c",
                                         "--delta 0 --delta-oracle jaccard", "1,100"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto summary = nlohmann::json::parse(read_file(dir.file("c/summary.json")));
  EXPECT_EQ(summary["complete"], true);
  EXPECT_EQ(summary["runs"], 2 * 2 * 2);
  EXPECT_EQ(summary["failed_runs"].size(), 0u);
  // Deterministic: retraining with another seed changes nothing.
  EXPECT_EQ(summary["noise_floor"][0]["trials"], 2);
  EXPECT_EQ(summary["noise_floor"][0]["top-out"], 0.0);
  EXPECT_EQ(summary["noise_floor"][0]["jaccard"], 0.0);
  double amr = -1, arand = -1;
  for (const auto& c : summary["cells"]) {
    if (c["oracle"] != "jaccard" || c["size"] != 100) continue;
    (c["heuristic"] == "AMR" ? amr : arand) = c["mean"].get<double>();
  }
  EXPECT_GE(amr, 0);
  EXPECT_GE(arand, 0);
  EXPECT_FALSE(fs::exists(dir.file("c.sqlite.tmp"))) << "training files left behind";
  // A saved set replays against the program and gives its recorded oracle values.
  ASSERT_FALSE(summary["exceeding_delta"]["files"].empty());
  for (const auto& file : summary["exceeding_delta"]["files"]) {
    const std::string path = dir.file("c/" + file.get<std::string>());
    ASSERT_TRUE(fs::exists(path)) << path;
    const auto replay =
        run_assay(dir, "rec replay --data movielens-100k:" + kMovieLens + " --mods '" + path + "'");
    ASSERT_EQ(replay.exit_code, 0) << replay.err;
    std::istringstream lines(replay.out);
    std::string line, last;
    while (std::getline(lines, line)) {
      if (!line.empty()) last = line;
    }
    const auto mods = nlohmann::json::parse(read_file(path));
    EXPECT_EQ(nlohmann::json::parse(last)["jaccard"], mods["oracles"]["jaccard"]) << path;
    EXPECT_GT(mods["oracles"]["jaccard"].get<double>(), 0) << path;
    break;  // one is enough
  }
}

TEST(RecProgramCampaign, SklearnExampleGivesTheSameCellsInBothModes) {
  ASSAY_REQUIRE_FILE(kMovieLens + "/u.data");
  if (!has_sklearn()) GTEST_SKIP() << "/usr/bin/python3 with scikit-learn (python3-sklearn) absent";
  TempDir dir;
  const std::string program = "/usr/bin/python3 " + kExamples + "/sklearn_svd.py";
  const std::string data = "movielens-100k:" + kMovieLens;
  const auto persistent = run_assay(dir, campaign(dir, data, "cmd+persistent:" + program, "p"));
  ASSERT_EQ(persistent.exit_code, 0) << persistent.err;
  const auto once = run_assay(dir, campaign(dir, data, "cmd:" + program, "o"));
  ASSERT_EQ(once.exit_code, 0) << once.err;
  const auto p = nlohmann::json::parse(read_file(dir.file("p/summary.json")));
  const auto o = nlohmann::json::parse(read_file(dir.file("o/summary.json")));
  EXPECT_EQ(p["complete"], true);
  ASSERT_EQ(p["cells"].size(), o["cells"].size());
  for (std::size_t c = 0; c < p["cells"].size(); ++c) {
    EXPECT_EQ(p["cells"][c]["mean"], o["cells"][c]["mean"]) << c;
    EXPECT_EQ(p["cells"][c]["trials"], 2);
  }
  for (const char* oracle : {"top-out", "jaccard", "aod", "rbo"}) {
    EXPECT_EQ(p["noise_floor"][0][oracle], o["noise_floor"][0][oracle]) << oracle;
  }
}

// A program that fails on every modified data set (a training file of another length) while
// the directory `flag` exists, and otherwise recommends by popularity.
std::string flaky_program(const TempDir& dir, const std::string& data_lines) {
  dir.write("flaky.sh",
            "flag=$1; lines=$2; shift 2\n"
            "if [ -d \"$flag\" ] && [ \"$(wc -l < \"$1\")\" -ne \"$lines\" ]; then\n"
            "  echo \"refusing modified data\" >&2; exit 4\n"
            "fi\n"
            "exec sh " +
                kExamples + "/popular.sh \"$@\"\n");
  return "cmd:sh " + dir.file("flaky.sh") + " " + dir.file("flag") + " " + data_lines;
}

TEST(RecProgramCampaign, FailedRunsAreRecordedCountedAndRetried) {
  TempDir dir;
  fs::create_directory(dir.file("flag"));
  const std::string spec = flaky_program(dir, "900");
  const auto first = run_assay(dir, campaign(dir, kSynthetic, spec, "c"));
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_NE(first.out.find("8 runs failed (8 now)"), std::string::npos) << first.out;
  auto summary = nlohmann::json::parse(read_file(dir.file("c/summary.json")));
  EXPECT_EQ(summary["complete"], false);
  EXPECT_EQ(summary["runs"], 0);
  ASSERT_EQ(summary["failed_runs"].size(), 4u);  // AMR and ARAND at n = 1 and 10
  for (const auto& f : summary["failed_runs"]) {
    EXPECT_EQ(f["failed_runs"], 2);
    EXPECT_NE(f["first_reason"].get<std::string>().find("exited with status 4"), std::string::npos);
    EXPECT_EQ(f["first_stderr_tail"], "refusing modified data");
  }
  EXPECT_EQ(summary["noise_floor"][0]["trials"], 2);  // unmodified data: those worked
  EXPECT_NE(read_file(dir.file("c/report.html")).find("Failed runs"), std::string::npos);
  {
    CampaignStore store(dir.file("c.sqlite"));
    const auto failures = store.failures();
    ASSERT_EQ(failures.size(), 8u);
    EXPECT_EQ(failures[0].attempts, 1u);
  }
  // Still failing: the attempts are counted.
  ASSERT_EQ(run_assay(dir, campaign(dir, kSynthetic, spec, "c")).exit_code, 0);
  {
    CampaignStore store(dir.file("c.sqlite"));
    EXPECT_EQ(store.failures().at(0).attempts, 2u);
  }
  // Fixed: the rerun retries exactly the failed runs.
  fs::remove(dir.file("flag"));
  const auto second = run_assay(dir, campaign(dir, kSynthetic, spec, "c"));
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_NE(second.out.find("8 runs (8 executed now"), std::string::npos) << second.out;
  summary = nlohmann::json::parse(read_file(dir.file("c/summary.json")));
  EXPECT_EQ(summary["complete"], true);
  EXPECT_EQ(summary["failed_runs"].size(), 0u);
  CampaignStore store(dir.file("c.sqlite"));
  EXPECT_TRUE(store.failures().empty());
  EXPECT_EQ(store.runs().size(), 8u);
}

// A failing program's stderr and output may hold terminal escapes: the summary line on
// standard output and the report show them escaped, never raw.
TEST(RecProgramCampaign, ControlBytesOfAFailingProgramAreEscaped) {
  TempDir dir;
  fs::create_directory(dir.file("flag"));
  dir.write("esc.sh",
            "flag=$1; shift\n"
            "if [ -d \"$flag\" ] && [ \"$(wc -l < \"$1\")\" -ne 900 ]; then\n"
            "  printf 'bad\\033[2J\\a\\n' >&2; printf '1 \\033]0;title\\a\\n'; exit 0\n"
            "fi\n"
            "exec sh " +
                kExamples + "/popular.sh \"$@\"\n");
  const std::string spec = "cmd:sh " + dir.file("esc.sh") + " " + dir.file("flag");
  const auto r = run_assay(dir, campaign(dir, kSynthetic, spec, "c"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("runs failed"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find('\a'), std::string::npos) << r.out;
  const std::string html = read_file(dir.file("c/report.html"));
  ASSERT_NE(html.find("Failed runs"), std::string::npos);
  EXPECT_EQ(html.find('\x1b'), std::string::npos);
  EXPECT_EQ(html.find('\a'), std::string::npos);
  EXPECT_NE(html.find("bad\\x1b[2J"), std::string::npos);
}

TEST(RecProgramCampaign, FailingBaselineIsAnErrorNamingTheProgram) {
  TempDir dir;
  dir.write("bad.sh", "echo 'cannot load' >&2; exit 9\n");
  const auto r = run_assay(dir, campaign(dir, kSynthetic, "cmd:sh " + dir.file("bad.sh"), "c"));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("exited with status 9"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("cannot load"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir.file("c/summary.json")));
}

TEST(RecProgramCampaign, TrainingFilesOfAKilledCampaignAreRemovedAtTheNextStart) {
  TempDir dir;
  // Hangs (recording its pid) while `flag` exists, once the baseline is done.
  fs::create_directory(dir.file("flag"));
  dir.write("hang.sh", "if [ -d " + dir.file("flag") + " ] && [ \"$4\" != \"$(cat " +
                           dir.file("seed") + " 2>/dev/null)\" ]; then echo $$ >> " +
                           dir.file("pid") +
                           "; exec sleep 60; fi\n"
                           "echo \"$4\" > " +
                           dir.file("seed") + "\nexec sh " + kExamples + "/popular.sh \"$@\"\n");
  const std::string args = campaign(dir, kSynthetic, "cmd:sh " + dir.file("hang.sh"), "c");
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const std::string cmd = std::string("exec ") + ASSAY_BINARY + " " + args + " >/dev/null 2>&1";
    execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline && !fs::exists(dir.file("pid"))) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(fs::exists(dir.file("pid")));
  std::istringstream pids(read_file(dir.file("pid")));
  for (pid_t hung = 0; pids >> hung;) kill(hung, SIGKILL);
  ASSERT_TRUE(fs::exists(dir.file("c.sqlite.tmp")));
  EXPECT_FALSE(fs::is_empty(dir.file("c.sqlite.tmp")));  // the training files of the hung run
  fs::remove(dir.file("flag"));
  const auto r = run_assay(dir, args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(fs::exists(dir.file("c.sqlite.tmp")));
  EXPECT_EQ(nlohmann::json::parse(read_file(dir.file("c/summary.json")))["complete"], true);
}

// Ctrl-C while rec fuzz trains a program: its private training directory under TMPDIR (the
// data's copy) is removed with the rest, not left behind.
TEST(RecProgramFuzz, InterruptRemovesTheTrainingCopyFromTmpdir) {
  TempDir dir;
  fs::create_directory(dir.file("tmp"));
  dir.write("hang.sh", "echo $$ > " + dir.file("pid") + "; exec sleep 60\n");
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const std::string cmd = "TMPDIR=" + dir.file("tmp") + " exec " + ASSAY_BINARY +
                            " rec fuzz --data " + kSynthetic + " --algorithm 'cmd:sh " +
                            dir.file("hang.sh") +
                            "' --heuristic ARAND --size 2 --trials 2 >/dev/null 2>&1";
    execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline && !fs::exists(dir.file("pid"))) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_FALSE(fs::is_empty(dir.file("tmp")));  // the training copy, while it trains
  kill(pid, SIGINT);
  int status = 0;
  waitpid(pid, &status, 0);
  std::istringstream pids(read_file(dir.file("pid")));
  for (pid_t hung = 0; pids >> hung;) kill(hung, SIGKILL);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130);
  std::vector<std::string> left;
  for (const auto& e : fs::recursive_directory_iterator(dir.file("tmp")))
    left.push_back(e.path().string());
  EXPECT_TRUE(left.empty()) << left.front();
}

TEST(RecProgramCampaign, TimeoutIsAFailedRun) {
  TempDir dir;
  dir.write("slow.sh",
            "if [ \"$(wc -l < \"$1\")\" -ne 900 ]; then exec sleep 60; fi\n"
            "exec sh " +
                kExamples + "/popular.sh \"$@\"\n");
  const auto r = run_assay(dir, "rec campaign --data " + kSynthetic + " --algorithm 'cmd:sh " +
                                    dir.file("slow.sh") +
                                    "' --heuristics AMR --sizes 1 --trials 2 --noise-trials 1 "
                                    "--threads 2 --timeout 1 --quiet --store " +
                                    dir.file("c.sqlite") + " --out " + dir.file("c"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto summary = nlohmann::json::parse(read_file(dir.file("c/summary.json")));
  ASSERT_EQ(summary["failed_runs"].size(), 1u);
  EXPECT_EQ(summary["failed_runs"][0]["failed_runs"], 2);
  EXPECT_NE(summary["failed_runs"][0]["first_reason"].get<std::string>().find(
                "timeout of 1 s (the timeout); it was killed"),
            std::string::npos);
}

TEST(RecProgramFuzz, FailedTrialsAreLinesFailTheDeltaCheckAndNegativeDeltaIsRefused) {
  TempDir dir;
  fs::create_directory(dir.file("flag"));
  const std::string spec = flaky_program(dir, "900");
  const auto r = run_assay(dir, "rec fuzz --data " + kSynthetic + " --algorithm '" + spec +
                                    "' --heuristic AMR --size 2 --trials 2");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream lines(r.out);
  std::string line;
  std::vector<nlohmann::json> j;
  while (std::getline(lines, line)) j.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(j.size(), 3u);
  EXPECT_NE(j[0]["failed"].get<std::string>().find("exited with status 4"), std::string::npos);
  EXPECT_EQ(j[2]["failed_runs"], 2);
  // With --delta every trial failed: nothing was measured, so it is not a pass.
  const auto checked = run_assay(dir, "rec fuzz --data " + kSynthetic + " --algorithm '" + spec +
                                          "' --heuristic AMR --size 2 --trials 2 --delta 0.5");
  EXPECT_EQ(checked.exit_code, 1) << checked.err;
  EXPECT_NE(checked.err.find("2 of 2 trials failed"), std::string::npos) << checked.err;
  const auto refused = run_assay(
      dir, "rec fuzz --data " + kSynthetic + " --algorithm user-user --heuristic AMR --delta -1");
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.err.find("--delta"), std::string::npos) << refused.err;
  // rec campaign refuses it the same way (--save-all saves every set).
  const auto campaign = run_assay(dir, "rec campaign --data " + kSynthetic +
                                           " --algorithm user-user --delta -0.5 --store " +
                                           dir.file("neg.sqlite") + " --out " + dir.file("neg"));
  EXPECT_EQ(campaign.exit_code, 2);
  EXPECT_NE(campaign.err.find("--delta"), std::string::npos) << campaign.err;
}

TEST(RecProgramRecommend, WritesTheProgramsLists) {
  TempDir dir;
  const auto r = run_assay(dir, "rec recommend --data " + kSynthetic + " --algorithm 'cmd:sh " +
                                    kExamples + "/popular.sh' --top-k 3 --quiet");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream lines(r.out);
  std::string line;
  std::size_t n = 0;
  while (std::getline(lines, line)) {
    const auto j = nlohmann::json::parse(line);
    EXPECT_EQ(j["items"].size(), 3u);
    EXPECT_FALSE(j["items"][0].contains("score"));
    ++n;
  }
  EXPECT_EQ(n, 50u);
  const auto missing =
      run_assay(dir, "rec recommend --data " + kSynthetic + " --algorithm 'cmd:/no/such/program'");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("/no/such/program"), std::string::npos);
}

TEST(RecProgramHelp, EveryRecCommandNamesEveryDataFormAndPrograms) {
  TempDir dir;
  for (const char* command : {"recommend", "fuzz", "campaign", "replay"}) {
    const auto r = run_assay(dir, std::string("rec ") + command + " --help");
    EXPECT_NE(r.out.find("movielens-latest:"), std::string::npos) << command;
    EXPECT_NE(r.out.find("cmd:PROGRAM"), std::string::npos) << command;
    EXPECT_NE(r.out.find("--timeout"), std::string::npos) << command;
  }
  // rec export trains nothing: the data forms only.
  const auto r = run_assay(dir, "rec export --help");
  EXPECT_NE(r.out.find("movielens-latest:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("top_only=K"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace assay::stability
