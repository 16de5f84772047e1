// Hostile cases about the user's files, through the real binary, grouped by class. Each case
// asserts the exit code, the message, and that no file changed (a snapshot of the test
// directory's names and contents before and after, assay's own stdout/stderr capture aside):
//   - DataLoss: an output naming an input, a cache, a model or a store (directly, through a
//     symbolic link, "..", a hard link, or as a file an output directory receives) is refused
//     before anything is read; rec campaign removes only the sets it wrote;
//   - TempFiles: a symbolic link or FIFO planted under the temporary file's name is neither
//     written through nor waited on; a dead process's temporary file is removed, a live one's
//     kept;
//   - Leaks: with stderr closed no progress line lands in an output; control bytes from the
//     command line or an input are escaped in error lines; fair report escapes the attribute;
//   - Values: numbers read from files and options are refused when they cannot mean anything
//     (NaN, 1e999, a cached row with one score for two labels, a count past its range).
#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "support/temp_dir.h"

namespace {

namespace fs = std::filesystem;
using assay::testing::read_file;
using assay::testing::run_assay;
using assay::testing::RunResult;
using assay::testing::TempDir;
using ::testing::HasSubstr;
using ::testing::Not;

// Every entry under `dir` (but the run's stdout.txt and stderr.txt): its kind and content (a
// link's target).
std::map<std::string, std::string> snapshot(const TempDir& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir.path())) {
    const std::string rel = fs::relative(e.path(), dir.path()).string();
    if (rel == "stdout.txt" || rel == "stderr.txt") continue;
    if (e.is_symlink()) {
      out[rel] = "link:" + fs::read_symlink(e.path()).string();
    } else if (e.is_regular_file()) {
      out[rel] = "file:" + read_file(e.path().string());
    } else {
      out[rel] = e.is_directory() ? "dir" : "other";
    }
  }
  return out;
}

class HostileFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    texts_ = dir_.write("texts.txt", "the king is here\nshe is a queen\n");
    train_ = dir_.write("train.tsv",
                        "text\tlabel\nthe king is good\tpos\nbad queen\tneg\ngood man\tpos\n"
                        "bad woman\tneg\n");
    model_ = dir_.file("model.json");
    const auto r = run_assay(dir_, "model train-lr --quiet --train " + train_ +
                                       " --text-column text --label-column label --out " + model_);
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }

  // Runs `args` and expects exit 2 with every one of `words` in stderr, and no file changed.
  void expect_refused(const std::string& args, const std::vector<std::string>& words) {
    SCOPED_TRACE(args);
    const auto before = snapshot(dir_);
    const RunResult r = run_assay(dir_, args);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    for (const auto& w : words) EXPECT_THAT(r.err, HasSubstr(w));
    EXPECT_EQ(snapshot(dir_), before);
  }

  TempDir dir_;
  std::string texts_, train_, model_;
};

// --- DataLoss -------------------------------------------------------------------------------

TEST_F(HostileFiles, DataLossOutputNamingAnInputIsRefusedBeforeReading) {
  const std::string same = "names the same file as";
  expect_refused("model train-lr --quiet --train " + train_ +
                     " --text-column text --label-column label --out " + train_,
                 {"--out " + same + " --train", train_});
  expect_refused("fair perturb --quiet --input " + texts_ + " --out " + texts_,
                 {"--out " + same + " --input"});
  expect_refused(
      "model predict --quiet --model lr:" + model_ + " --input " + texts_ + " --out " + model_,
      {"--out " + same + " --model"});
  // Through "..", a symbolic link and a hard link.
  fs::create_directory(dir_.path() / "sub");
  expect_refused(
      "fair perturb --quiet --input " + texts_ + " --out " + dir_.file("sub/../texts.txt"),
      {"--out " + same + " --input"});
  fs::create_symlink(texts_, dir_.path() / "link.txt");
  expect_refused("fair perturb --quiet --input " + texts_ + " --out " + dir_.file("link.txt"),
                 {"--out " + same + " --input"});
  fs::create_hard_link(texts_, dir_.path() / "hard.txt");
  expect_refused("fair perturb --quiet --input " + texts_ + " --out " + dir_.file("hard.txt"),
                 {"--out " + same + " --input"});
  // The files a model or data folder is read from (refused before the folder is read).
  fs::create_directory(dir_.path() / "bert");
  dir_.write("bert/config.json", "{}");
  expect_refused("model predict --quiet --model bert:" + dir_.file("bert") + " --input " + texts_ +
                     " --out " + dir_.file("bert/config.json"),
                 {"--out " + same + " --model"});
  fs::create_directory(dir_.path() / "ml");
  dir_.write("ml/u.data", "1\t1\t5\t0\n");
  dir_.write("ml/u.item", "1|A (1995)|||\n");
  expect_refused("rec recommend --quiet --data movielens-100k:" + dir_.file("ml") +
                     " --algorithm user-user --out " + dir_.file("ml/u.data"),
                 {"--out " + same + " --data"});
}

TEST_F(HostileFiles, DataLossOutputNamingACacheOrStoreIsRefused) {
  const std::string cache = dir_.file("c.sqlite");
  ASSERT_EQ(run_assay(dir_, "model predict --quiet --model lr:" + model_ + " --cache " + cache +
                                " --input " + texts_)
                .exit_code,
            0);
  expect_refused("model predict --quiet --model lr:" + model_ + " --cache " + cache + " --input " +
                     texts_ + " --out " + cache,
                 {"--out and --cache name the same file"});
  expect_refused(
      "model predict --quiet --model lr:" + model_ + " --cache " + texts_ + " --input " + texts_,
      {"--cache names the same file as --input"});
}

TEST_F(HostileFiles, DataLossOutputDirectoryWritingAnInputIsRefused) {
  fs::create_directory(dir_.path() / "run");
  const std::string summary = dir_.write("run/summary.json", "{}\n");
  expect_refused("fair test --quiet --model lr:" + model_ + " --input " + summary + " --out " +
                     dir_.file("run"),
                 {"--out " + dir_.file("run") + " writes summary.json, which --input reads"});
  // fair report reads DIR/summary.json: its output may not be that file.
  expect_refused("fair report --quiet --in " + dir_.file("run") + " --out " + summary,
                 {"--out names the same file as --in"});
  // Other files in the directory are not the command's: accepted.
  const std::string mine = dir_.write("run/my-texts.txt", "the king is here\n");
  const auto r = run_assay(dir_, "fair test --quiet --model lr:" + model_ + " --input " + mine +
                                     " --out " + dir_.file("run"));
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.err;
  EXPECT_EQ(read_file(mine), "the king is here\n");
}

TEST_F(HostileFiles, DataLossOutputDirectoryWritingACacheStoreOrModelIsRefused) {
  fs::create_directory(dir_.path() / "o");
  const std::string o = dir_.file("o");
  const std::string cache = dir_.file("o/summary.json");
  ASSERT_EQ(run_assay(dir_, "model predict --quiet --model lr:" + model_ + " --cache " + cache +
                                " --input " + texts_)
                .exit_code,
            0);
  const std::string test = "fair test --quiet --model lr:" + model_ + " --input " + texts_;
  expect_refused(test + " --cache " + cache + " --out " + o,
                 {"--out " + o + " writes summary.json, which --cache keeps"});
  fs::create_symlink(cache, dir_.path() / "link.sqlite");
  expect_refused(test + " --cache " + dir_.file("link.sqlite") + " --out " + o,
                 {"writes summary.json, which --cache keeps"});
  const std::string campaign =
      "rec campaign --quiet --data synthetic:users=60,items=40,ratings=800,seed=1 --algorithms "
      "user-user --heuristics ARAND --sizes 8 --trials 2 --noise-trials 1 --threads 1";
  expect_refused(campaign + " --store " + dir_.file("o/cells.csv") + " --out " + o,
                 {"writes cells.csv, which --store keeps"});
  expect_refused(campaign + " --store " + dir_.file("fresh") + " --out " + dir_.file("fresh"),
                 {"--out and --store name the same path"});
  expect_refused(
      "rec fuzz --data synthetic:users=60,items=40,ratings=800,seed=1 "
      "--algorithm user-user --heuristic ARAND --size 8 --trials 2 --save-dir " +
          o + " --out " + dir_.file("o/x.json"),
      {"--save-dir " + o + " writes x.json, which --out writes"});
  expect_refused("fair mitigate --quiet --model lr:" + model_ + " --input " + texts_ + " --out " +
                     dir_.file("m") + " --adversarial-train " + train_ +
                     " --adversarial-model-out " + model_,
                 {"--adversarial-model-out names the same file as --model"});
  expect_refused("fair mitigate --quiet --model lr:" + model_ + " --input " + texts_ + " --out " +
                     dir_.file("m") + " --adversarial-train " + train_ +
                     " --adversarial-model-out " + train_,
                 {"--adversarial-model-out names the same file as --adversarial-train"});
}

TEST_F(HostileFiles, DataLossCampaignRemovesOnlyTheSetsItWrote) {
  fs::create_directories(dir_.path() / "report/mods");
  const std::string mine = dir_.write("report/mods/mine.json", "{\"my\": \"notes\"}\n");
  const std::string cmd =
      "rec campaign --quiet --data synthetic:users=60,items=40,ratings=800,"
      "seed=1 --algorithms user-user --heuristics ARAND --sizes 8 --trials 2 "
      "--noise-trials 1 --threads 1 --out " +
      dir_.file("report");
  auto r = run_assay(dir_, cmd + " --delta 0 --store " + dir_.file("a.db"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::size_t sets = 0;
  for (const auto& e : fs::directory_iterator(dir_.path() / "report/mods"))
    sets += e.path().filename() != "mine.json";
  EXPECT_GT(sets, 0u) << "the first campaign saved no set: nothing to replace";
  // A second campaign with another store and a delta no set exceeds: its report lists no set,
  // so the first campaign's sets go; the user's file stays.
  r = run_assay(dir_, cmd + " --store " + dir_.file("b.db") + " --delta 1e300");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> left;
  for (const auto& e : fs::directory_iterator(dir_.path() / "report/mods"))
    left.push_back(e.path().filename().string());
  EXPECT_EQ(left, std::vector<std::string>{"mine.json"});
  EXPECT_EQ(read_file(mine), "{\"my\": \"notes\"}\n");
}

// --- TempFiles ------------------------------------------------------------------------------

// Starts `assay fair perturb` writing `out`, with `plant(pid)` run after the fork and before
// the exec (the temporary file's name holds the pid); returns the exit code.
int run_perturb_with_planted(const TempDir& dir, const std::string& input, const std::string& out,
                             const std::function<void(pid_t)>& plant) {
  int go[2];
  if (::pipe(go) != 0) return -1;
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(go[1]);
    char c;
    if (::read(go[0], &c, 1) != 1) ::_exit(97);
    const int null_fd = ::open("/dev/null", O_WRONLY);
    ::dup2(null_fd, 1);
    ::dup2(::open(dir.file("stderr.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644), 2);
    ::execl(ASSAY_BINARY, ASSAY_BINARY, "fair", "perturb", "--quiet", "--input", input.c_str(),
            "--out", out.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(go[0]);
  plant(pid);
  const bool started = ::write(go[1], "x", 1) == 1;
  ::close(go[1]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return started && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST_F(HostileFiles, TempFilesPlantedLinkOrFifoIsNeitherFollowedNorWaitedOn) {
  const std::string victim = dir_.write("victim.txt", "precious\n");
  const std::string out = dir_.file("out.jsonl");
  int code = run_perturb_with_planted(dir_, texts_, out, [&](pid_t pid) {
    fs::create_symlink(victim, out + ".tmp-" + std::to_string(pid));
  });
  EXPECT_EQ(code, 0) << read_file(dir_.file("stderr.txt"));
  EXPECT_EQ(read_file(victim), "precious\n");
  EXPECT_THAT(read_file(out), HasSubstr("\"perturbations\""));
  fs::remove(out);
  code = run_perturb_with_planted(dir_, texts_, out, [&](pid_t pid) {
    ASSERT_EQ(::mkfifo((out + ".tmp-" + std::to_string(pid)).c_str(), 0600), 0);
  });
  EXPECT_EQ(code, 0) << read_file(dir_.file("stderr.txt"));  // a FIFO would block it forever
  EXPECT_THAT(read_file(out), HasSubstr("\"perturbations\""));
  for (const auto& e : fs::directory_iterator(dir_.path()))
    EXPECT_EQ(e.path().string().find(".tmp-"), std::string::npos) << e.path();
}

TEST_F(HostileFiles, TempFilesOfADeadProcessAreRemovedAtTheNextRun) {
  const pid_t dead = ::fork();
  if (dead == 0) ::_exit(0);
  ::waitpid(dead, nullptr, 0);
  const std::string out = dir_.file("out.jsonl");
  const std::string stale = dir_.write("out.jsonl.tmp-" + std::to_string(dead), "partial");
  const std::string stale_old = dir_.write("out.jsonl.old-" + std::to_string(dead), "old");
  const std::string live = dir_.write("out.jsonl.tmp-" + std::to_string(::getpid()), "mine");
  const auto r = run_assay(dir_, "fair perturb --quiet --input " + texts_ + " --out " + out);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_FALSE(fs::exists(stale_old));
  EXPECT_EQ(read_file(live), "mine");  // its process (this test) is alive
}

// --- Leaks ----------------------------------------------------------------------------------

TEST_F(HostileFiles, LeaksClosedStderrKeepsProgressOutOfTheOutput) {
  const std::string out = dir_.file("out.jsonl");
  const std::string cmd = std::string(ASSAY_BINARY) + " fair perturb --input " + texts_ +
                          " --out " + out + " 2>&- >/dev/null";
  const int status = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  const std::string written = read_file(out);
  EXPECT_THAT(written, HasSubstr("\"perturbations\""));
  EXPECT_THAT(written, Not(HasSubstr("fair perturb:")));
  EXPECT_EQ(written.front(), '{');
}

TEST_F(HostileFiles, LeaksControlBytesAreEscapedInErrorLines) {
  const std::string bad = dir_.write("bad.csv",
                                     "user,item,rating\n1,1,\x1b[2J\x07\xc2\x9b"
                                     "31m\n");
  const auto before = snapshot(dir_);
  auto r = run_assay(dir_, std::string("model predict --model 'nope:\x1b[2J' --input ") + texts_);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("nope:\\x1b[2J"));
  EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << r.err;
  r = run_assay(dir_, "rec recommend --quiet --data csv:" + bad + " --algorithm user-user");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr(bad));
  EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("\xc2\x9b"), std::string::npos) << r.err;
  EXPECT_EQ(snapshot(dir_), before);
}

// A cmd: model's script name and its own stderr lines reach the terminal escaped.
TEST_F(HostileFiles, LeaksCommandModelNameAndStderrAreEscaped) {
  const std::string script =
      dir_.write("evil\x1b[2J.sh",
                 "#!/bin/sh\nprintf 'clear\\033[2J now\\n' >&2\n"
                 "while read line; do\n"
                 "  id=$(echo \"$line\" | sed 's/.*\"id\": *\\([0-9]*\\).*/\\1/')\n"
                 "  echo \"{\\\"id\\\": $id, \\\"scores\\\": [0.4, 0.6]}\"\n"
                 "done\n");
  fs::permissions(script, fs::perms::owner_all);
  const RunResult r =
      run_assay(dir_, "model predict --model 'cmd:" + script + "' --labels neg,pos --input " +
                          texts_ + " --out " + dir_.file("p.jsonl"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("[evil\\x1b[2J.sh]")) << r.err;
  EXPECT_THAT(r.err, HasSubstr("clear\\x1b[2J now")) << r.err;
  EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << r.err;
}

TEST_F(HostileFiles, LeaksFairReportEscapesTheAttributeName) {
  const auto t = run_assay(dir_, "fair test --quiet --model lr:" + model_ + " --input " + texts_ +
                                     " --out " + dir_.file("run"));
  ASSERT_TRUE(t.exit_code == 0 || t.exit_code == 1) << t.err;
  std::string summary = read_file(dir_.file("run/summary.json"));
  const std::string key = "\"attribute\": \"";
  const auto at = summary.find(key);
  ASSERT_NE(at, std::string::npos) << summary;
  const auto end = summary.find('"', at + key.size());
  summary.replace(at + key.size(), end - at - key.size(), "<script>alert(1)</script>");
  dir_.write("run/summary.json", summary);
  const auto r = run_assay(
      dir_, "fair report --quiet --in " + dir_.file("run") + " --out " + dir_.file("r.html"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string html = read_file(dir_.file("r.html"));
  EXPECT_THAT(html, Not(HasSubstr("<script>alert")));
  EXPECT_THAT(html, HasSubstr("&lt;script&gt;alert(1)&lt;/script&gt;"));
}

// --- Values ---------------------------------------------------------------------------------

TEST_F(HostileFiles, ValuesThatCannotMeanAnythingAreRefused) {
  std::string lr = read_file(model_);
  const auto at = lr.find("\"intercept\":[");
  ASSERT_NE(at, std::string::npos);
  const std::string huge = dir_.write("huge.json", lr.substr(0, at) + "\"intercept\":[1e999]}");
  expect_refused("model predict --quiet --model lr:" + huge + " --input " + texts_,
                 {huge, "not an assay LR model file"});
  const std::string data = dir_.write("r.csv", "user,item,rating\n1,1,4\n1,2,3\n2,1,2\n");
  expect_refused("rec recommend --quiet --data csv:" + data +
                     " --algorithm funk-svd:features=1000000000 --top-k 2",
                 {"features", "[1, 1000]"});
  expect_refused("rec recommend --quiet --data csv:" + data +
                     " --algorithm funk-svd:epochs=4000000000 --top-k 2",
                 {"epochs", "[1, 10000]"});
  expect_refused("rec campaign --quiet --data csv:" + data +
                     " --algorithms user-user --heuristics AMU --sizes 1 --trials 1 --accuracy "
                     "--folds 0 --store " +
                     dir_.file("s.db") + " --out " + dir_.file("rep"),
                 {"--folds"});
  expect_refused("model predict --quiet --model lr:" + model_ + " --model-file " + texts_ +
                     " --input " + texts_,
                 {"--model-file applies to cmd: models only"});
  expect_refused("model predict --quiet --model lr:" + model_ + " --labels a,a --input " + texts_,
                 {"'a' is given twice"});
  expect_refused("fair mitigate --quiet --model lr:" + model_ + " --input " +
                     dir_.write("e.tsv", "good film\t\nbad film\tneg\n") +
                     " --input-format tsv-no-header --epsilon 1 --out " + dir_.file("mo"),
                 {"e.tsv:1", "not empty"});
}

// A cache row tampered with: one score for a two-label model, or a score that is not finite.
TEST_F(HostileFiles, ValuesTamperedCacheRowsAreRefused) {
  const std::string cache = dir_.file("c.sqlite");
  ASSERT_EQ(run_assay(dir_, "model predict --quiet --model lr:" + model_ + " --cache " + cache +
                                " --input " + texts_)
                .exit_code,
            0);
  for (const char* scores : {"0.5", "nan,0.5", "inf,0.5"}) {
    SCOPED_TRACE(scores);
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(cache.c_str(), &db), SQLITE_OK);
    const std::string sql = std::string("UPDATE answers SET scores = '") + scores + "'";
    ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
    // (Another --batch makes other chunks, so the answers are read one by one, not reused as
    // the finished chunks of the first run.)
    const auto r = run_assay(dir_, "model predict --quiet --batch 1 --model lr:" + model_ +
                                       " --cache " + cache + " --input " + texts_);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_THAT(r.err, HasSubstr(cache));
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
}

// A shard's chunk tampered with (its violation count no longer that of its lines): the merge
// names that shard and copies nothing, so the merged store stays usable.
TEST_F(HostileFiles, ValuesTamperedShardIsRefusedByTheMergeByName) {
  std::string texts;
  for (int i = 0; i < 8; ++i) texts += "the king is good\nshe is a bad queen\n";
  const std::string in = dir_.write("many.txt", texts);
  const std::string test = "fair test --quiet --chunk 4 --model lr:" + model_ + " --input " + in +
                           " --out " + dir_.file("o");
  std::vector<std::string> shards;
  for (int i = 0; i < 2; ++i) {
    shards.push_back(dir_.file("c" + std::to_string(i) + ".sqlite"));
    const auto r = run_assay(
        dir_, test + " --cache " + shards.back() + " --shard " + std::to_string(i) + "/2");
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(shards[1].c_str(), &db), SQLITE_OK);
  const std::string sql =
      "UPDATE fair_test_chunks SET result = replace(result, '\"violations\":', '\"violations\":1')";
  ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  const std::string all = dir_.file("all.sqlite");
  const auto r =
      run_assay(dir_, test + " --cache " + all + " --merge " + shards[0] + "," + shards[1]);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr(shards[1] + ": chunk '"));
  EXPECT_THAT(r.err, HasSubstr("violation lines"));
  EXPECT_FALSE(fs::exists(dir_.file("o/summary.json")));
  // Without the bad shard the merged store runs: shard 1's chunks are computed anew.
  const auto again = run_assay(dir_, test + " --cache " + all + " --merge " + shards[0]);
  EXPECT_LE(again.exit_code, 1) << again.err;
  EXPECT_TRUE(fs::exists(dir_.file("o/summary.json")));
}

// --- StaleAnswers ---------------------------------------------------------------------------

// A cmd: script's module changes after its answers were cached: the cached answers are still
// used (the identity covers the files on the command line), with a warning naming the module;
// --model-file makes the module part of the identity, so the model is asked again.
TEST_F(HostileFiles, StaleAnswersOfAnEditedModuleAreWarnedAboutAndModelFileRenewsThem) {
  const std::string helper = dir_.write("helper.py", "SCORE = 0.125\n");
  const std::string child = dir_.write("child.py", R"(import json, sys
import helper
print(json.dumps({"labels": ["neg", "pos"]}), flush=True)
for line in sys.stdin:
    r = json.loads(line)
    print(json.dumps({"id": r["id"], "scores": [1 - helper.SCORE, helper.SCORE]}), flush=True)
)");
  const std::string cache = dir_.file("c.sqlite");
  const std::string cmd = "model predict --model 'cmd:/usr/bin/python3 " + child + "' --cache " +
                          cache + " --input " + texts_;
  auto r = run_assay(dir_, cmd + " --quiet");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("0.125"));
  EXPECT_THAT(r.err, Not(HasSubstr("warning")));
  dir_.write("helper.py", "SCORE = 0.375\n");
  const auto later = fs::last_write_time(helper) + std::chrono::seconds(5);
  fs::last_write_time(helper, later);  // surely after the answers were stored
  r = run_assay(dir_, cmd + " --quiet");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("0.125"));  // the cached answers, as the identity rule says
  EXPECT_THAT(r.err, HasSubstr("warning: " + helper + " changed after the cached answers"));
  EXPECT_THAT(r.err, HasSubstr("add --model-file " + helper));
  r = run_assay(dir_, cmd + " --quiet --model-file " + helper);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("0.375"));  // a new identity: the model was asked
  EXPECT_THAT(r.err, Not(HasSubstr("warning")));
}

}  // namespace
