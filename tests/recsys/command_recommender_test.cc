// The user's own recommender (cmd:PROGRAM): real programs (POSIX shell, awk, Python) run as
// real processes on real files; every failure the protocol names is provoked by a real program.
#include "recsys/command_recommender.h"

#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <thread>

#include "recsys/data_spec.h"
#include "recsys/recommender_spec.h"
#include "support/shared_data.h"
#include "support/temp_dir.h"

namespace assay::recsys {
namespace {

using ::assay::testing::TempDir;
namespace fs = std::filesystem;

const std::string kExamples = std::string(ASSAY_SOURCE_DIR) + "/examples/recsys";
const std::string kPopular = "cmd:sh " + kExamples + "/popular.sh";

Ratings small_data() {
  return load_ratings("synthetic:users=40,items=60,ratings=700,seed=3");
}

CommandRecommenderOptions in_dir(const TempDir& dir, double timeout = 60) {
  CommandRecommenderOptions o;
  o.work_dir = dir.file("work");
  o.timeout_seconds = timeout;
  return o;
}

// The most-popular lists computed here: items by number of ratings, ties by id text (C locale),
// the user's rated items skipped.
TopKLists popular_lists(const Ratings& data, std::size_t k) {
  std::vector<ItemId> order;
  for (ItemId i = 0; i < data.n_items(); ++i) {
    if (!data.users_of(i).empty()) order.push_back(i);
  }
  std::sort(order.begin(), order.end(), [&](ItemId a, ItemId b) {
    const auto na = data.users_of(a).size(), nb = data.users_of(b).size();
    return na != nb ? na > nb : data.item_label(a) < data.item_label(b);
  });
  TopKLists lists(data.n_users());
  for (UserId u = 0; u < data.n_users(); ++u) {
    for (const auto i : order) {
      if (lists[u].size() == k) break;
      if (!data.rating(u, i)) lists[u].push_back(i);
    }
  }
  return lists;
}

// A program that writes `body` (a shell script fragment that gets TRAIN USERS K SEED OUT as
// $1..$5) into the test directory; returns its cmd: spec.
std::string script(const TempDir& dir, const std::string& name, const std::string& body) {
  dir.write(name, "set -eu\n" + body + "\n");
  return "cmd:sh " + dir.file(name);
}

// The failure a training with `spec` throws (fails the test when none is thrown).
RecommenderFailure failure_of(const std::string& spec, const CommandRecommenderOptions& options,
                              const Ratings& data, std::size_t k = 5) {
  CommandRecommender adapter(spec, options);
  try {
    adapter.recommend_all(data, k, 7);
  } catch (const RecommenderFailure& e) {
    return e;
  }
  ADD_FAILURE() << spec << " did not fail";
  return RecommenderFailure(spec, "", "");
}

bool empty_dir(const std::string& path) {
  return !fs::exists(path) || fs::is_empty(path);
}

TEST(CommandRecommender, ShellPopularityGivesTheListsComputedHere) {
  TempDir dir;
  const auto data = small_data();
  CommandRecommender adapter(kPopular, in_dir(dir));
  EXPECT_EQ(adapter.recommend_all(data, 5, 1), popular_lists(data, 5));
  EXPECT_EQ(adapter.recommend_all(data, 12, 2), popular_lists(data, 12));
  EXPECT_TRUE(empty_dir(dir.file("work"))) << "training files were left behind";
}

TEST(CommandRecommender, TwoProgramsInOneWorkDirectoryConcurrently) {
  TempDir dir;
  const auto data = small_data();
  // The same program under two specs: two adapters, one work directory, trainings at once.
  CommandRecommender a(kPopular, in_dir(dir));
  CommandRecommender b(kPopular + " ", in_dir(dir));
  const auto expected = popular_lists(data, 5);
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 3; ++i) {
        try {
          if ((t % 2 ? a : b).recommend_all(data, 5, 1) != expected) ++wrong;
        } catch (const RecommenderFailure& e) {
          ++wrong;
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(wrong, 0);
  EXPECT_TRUE(empty_dir(dir.file("work")));
}

TEST(CommandRecommender, ProtocolArgumentsAndTrainingFile) {
  TempDir dir;
  const auto data = small_data();
  // Copies what it is given, then writes the popularity lists with the example.
  const std::string spec =
      script(dir, "copy.sh",
             "cp \"$1\" " + dir.file("train.tsv") + "\ncp \"$2\" " + dir.file("users.txt") +
                 "\necho \"$3 $4\" > " + dir.file("k_seed") + "\nexec sh " + kExamples +
                 "/popular.sh \"$@\"");
  CommandRecommender adapter(spec, in_dir(dir));
  adapter.recommend_all(data, 4, 18446744073709551615ull);
  EXPECT_EQ(testing::read_file(dir.file("k_seed")), "4 18446744073709551615\n");
  std::string expected_train, expected_users;
  for (const auto& r : data.triplets()) {
    char value[32];
    std::snprintf(value, sizeof value, "%g", static_cast<double>(r.value));
    expected_train +=
        data.user_label(r.user) + "\t" + data.item_label(r.item) + "\t" + value + "\n";
  }
  for (UserId u = 0; u < data.n_users(); ++u) expected_users += data.user_label(u) + "\n";
  EXPECT_EQ(testing::read_file(dir.file("train.tsv")), expected_train);
  EXPECT_EQ(testing::read_file(dir.file("users.txt")), expected_users);
}

TEST(CommandRecommender, JsonLinesWithStringIntegerAndObjectIds) {
  TempDir dir;
  const auto data = small_data();
  const auto expected = popular_lists(data, 3);
  // The popularity lists rewritten as JSON lines, ids in three spellings.
  const std::string spec = script(
      dir, "json.sh",
      "sh " + kExamples +
          "/popular.sh \"$@\"\n"
          "awk -F'\\t' 'BEGIN{ORS=\"\"} $1 != u { if (u != \"\") print \"]}\\n\"; u = $1; n = 0; "
          "print \"{\\\"user\\\": \\\"\" $1 \"\\\", \\\"items\\\": [\" } "
          "{ if (n++) print \", \"; if (n == 1) print $2; else if (n == 2) print \"\\\"\" $2 "
          "\"\\\"\"; "
          "else print \"{\\\"item\\\": \\\"\" $2 \"\\\", \\\"score\\\": 1}\" } END { print "
          "\"]}\\n\" }' "
          "\"$5\" > \"$5.json\"\nmv \"$5.json\" \"$5\"");
  CommandRecommender adapter(spec, in_dir(dir));
  EXPECT_EQ(adapter.recommend_all(data, 3, 1), expected);
}

TEST(CommandRecommender, NonZeroExitIsAFailureWithItsStderr) {
  TempDir dir;
  const auto e =
      failure_of(script(dir, "exit3.sh",
                        "echo 'loading the model'; echo 'model.pkl: no such file' >&2; exit 3"),
                 in_dir(dir), small_data());
  EXPECT_NE(e.reason().find("exited with status 3"), std::string::npos) << e.reason();
  EXPECT_EQ(e.stderr_tail(), "model.pkl: no such file");
  EXPECT_NE(std::string(e.what()).find("model.pkl: no such file"), std::string::npos);
  EXPECT_TRUE(empty_dir(dir.file("work")));
}

TEST(CommandRecommender, StderrTailKeepsTheLastBytes) {
  TempDir dir;
  auto options = in_dir(dir);
  options.stderr_tail_bytes = 100;
  const auto e = failure_of(
      script(dir, "noisy.sh",
             "i=0; while [ $i -lt 500 ]; do echo \"line $i\" >&2; i=$((i+1)); done; exit 1"),
      options, small_data());
  EXPECT_LE(e.stderr_tail().size(), 100u);
  EXPECT_EQ(e.stderr_tail().substr(e.stderr_tail().size() - 8), "line 499");
  EXPECT_EQ(e.stderr_tail().find("line 0\n"), std::string::npos);
}

TEST(CommandRecommender, TimeoutKillsTheProgram) {
  TempDir dir;
  const auto start = std::chrono::steady_clock::now();
  const auto e = failure_of(script(dir, "slow.sh", "echo started >&2; exec sleep 30"),
                            in_dir(dir, 0.5), small_data());
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_NE(e.reason().find("timeout of 0.5 s"), std::string::npos) << e.reason();
  EXPECT_EQ(e.stderr_tail(), "started");
  EXPECT_LT(seconds, 10);
  EXPECT_TRUE(empty_dir(dir.file("work")));
}

TEST(CommandRecommender, ProcessesTheProgramLeavesBehindAreEndedAndDoNotHoldItUp) {
  TempDir dir;
  const auto data = small_data();
  // Starts a background process that keeps stdout and stderr open, then finishes normally.
  const std::string spec = script(
      dir, "bg.sh",
      "sleep 60 &\necho $! > " + dir.file("bg.pid") + "\nsh " + kExamples + "/popular.sh \"$@\"");
  CommandRecommender adapter(spec, in_dir(dir, 30));
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(adapter.recommend_all(data, 5, 1), popular_lists(data, 5));
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 10);
  const pid_t background = std::stoi(testing::read_file(dir.file("bg.pid")));
  // Ended: gone, or a zombie waiting for a parent that is not ours to reap.
  const auto gone = [&] {
    const std::string stat = testing::read_file("/proc/" + std::to_string(background) + "/stat");
    const auto paren = stat.rfind(')');
    return stat.empty() ||
           (paren != std::string::npos && paren + 2 < stat.size() && stat[paren + 2] == 'Z');
  };
  bool ended = false;
  for (int i = 0; i < 200 && !ended; ++i) {
    ended = gone();
    if (!ended) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (!ended) ::kill(background, SIGKILL);
  EXPECT_TRUE(ended) << "the background process outlived the training";
}

TEST(CommandRecommender, MalformedOutputIsAFailure) {
  TempDir dir;
  const auto data = small_data();
  const auto reason = [&](const std::string& name, const std::string& body) {
    return failure_of(script(dir, name, body), in_dir(dir), data).reason();
  };
  EXPECT_NE(
      reason("garbage.sh", "echo 'no tabs here' > \"$5\"").find("malformed output: output line 1"),
      std::string::npos);
  EXPECT_NE(reason("badjson.sh", "echo '{\"user\": \"1\", \"items\": [' > \"$5\"")
                .find("not a JSON object"),
            std::string::npos);
  EXPECT_NE(reason("unknown.sh", "printf '1\\tno-such-item\\n' > \"$5\"")
                .find("unknown item 'no-such-item'"),
            std::string::npos);
  EXPECT_NE(reason("nouser.sh", "printf 'nobody\\t1\\n' > \"$5\"").find("unknown user 'nobody'"),
            std::string::npos);
  EXPECT_NE(reason("nofile.sh", "true").find("wrote no output file"), std::string::npos);
  // A line nested 50,000 arrays deep is refused unparsed (its copies would overflow the stack).
  EXPECT_NE(reason("deep.sh",
                   "/usr/bin/python3 -c 'print(\"{\\\"user\\\": \\\"1\\\", "
                   "\\\"items\\\": \" + \"[\" * 50000 + \"]\" * 50000 + \"}\")' > \"$5\"")
                .find("malformed output: output line 1: nests arrays or objects deeper than 64"),
            std::string::npos);
  // Twice the same item, more than k items.
  EXPECT_NE(reason("dup.sh", "sh " + kExamples + "/popular.sh \"$@\"; head -1 \"$5\" >> \"$5\"")
                .find("not together"),
            std::string::npos);
  EXPECT_NE(reason("long.sh", "sh " + kExamples + "/popular.sh \"$1\" \"$2\" 9 \"$4\" \"$5\"")
                .find("more than k = 5"),
            std::string::npos);
}

TEST(CommandRecommender, IncompleteOutputIsAFailure) {
  TempDir dir;
  const auto data = small_data();
  // The last user's list dropped.
  const auto missing =
      failure_of(script(dir, "drop.sh",
                        "sh " + kExamples +
                            "/popular.sh \"$@\"; last=$(tail -1 \"$2\"); "
                            "grep -v \"^$last\t\" \"$5\" > \"$5.x\" || true; mv \"$5.x\" \"$5\""),
                 in_dir(dir), data);
  EXPECT_NE(missing.reason().find("incomplete output: no list for user '" +
                                  data.user_label(static_cast<UserId>(data.n_users() - 1)) + "'"),
            std::string::npos)
      << missing.reason();
  // Every list cut to 2 of k = 5.
  const auto short_lists = failure_of(
      script(dir, "short.sh", "sh " + kExamples + "/popular.sh \"$1\" \"$2\" 2 \"$4\" \"$5\""),
      in_dir(dir), data);
  EXPECT_NE(short_lists.reason().find("incomplete output: user"), std::string::npos);
  EXPECT_NE(short_lists.reason().find("has 2 items, expected 5"), std::string::npos);
}

TEST(CommandRecommender, RecommendingARatedItemIsAFailure) {
  TempDir dir;
  const auto data = small_data();
  // Most popular items, rated or not.
  const std::string spec = script(
      dir, "rated.sh",
      "awk -F'\\t' '{n[$2]++} END {for (i in n) print i \"\\t\" n[i]}' \"$1\" | "
      "LC_ALL=C sort -t \"$(printf '\\t')\" -k2,2nr -k1,1 | head -n \"$3\" | cut -f1 > \"$5.top\"\n"
      "awk 'NR==FNR {top[++m]=$1; next} {for (j=1;j<=m;j++) print $1 \"\\t\" top[j]}' "
      "\"$5.top\" \"$2\" > \"$5\"");
  const auto e = failure_of(spec, in_dir(dir), data);
  EXPECT_NE(e.reason().find("rated in the training data"), std::string::npos) << e.reason();
}

TEST(CommandRecommender, ProgramNotFoundIsAUsageError) {
  TempDir dir;
  EXPECT_THROW(CommandRecommender("cmd:/no/such/program", in_dir(dir)), core::UsageError);
  EXPECT_THROW(CommandRecommender("cmd:", in_dir(dir)), core::UsageError);
  EXPECT_THROW(CommandRecommender("cmd:  ", in_dir(dir)), core::UsageError);
}

TEST(CommandRecommender, SpecsNormaliseAndIdentityHashesTheScript) {
  EXPECT_EQ(normalize_recommender_spec("cmd:sh   a.sh  'x y'"), "cmd:sh a.sh \"x y\"");
  EXPECT_EQ(normalize_recommender_spec("cmd+persistent:python3 r.py"),
            "cmd+persistent:python3 r.py");
  EXPECT_THROW(make_recommender("cmd:sh a.sh"), core::UsageError);
  TempDir dir;
  const std::string spec = script(dir, "v.sh", "exit 0");
  const std::string before = CommandRecommender(spec, in_dir(dir)).identity();
  dir.write("v.sh", "exit 1\n");
  const std::string after = CommandRecommender(spec, in_dir(dir)).identity();
  EXPECT_NE(before, after);
  EXPECT_EQ(before.rfind(spec, 0), 0u);
}

const char* const kPython = "/usr/bin/python3";

bool has_sklearn() {
  return std::system((std::string(kPython) + " -c 'import sklearn' 2>/dev/null").c_str()) == 0;
}

TEST(CommandRecommender, PersistentModeGivesTheOneShotListsAndKeepsOneProcess) {
  if (!has_sklearn()) GTEST_SKIP() << "/usr/bin/python3 with scikit-learn (python3-sklearn) absent";
  TempDir dir;
  const auto data = small_data();
  const std::string program =
      std::string(kPython) + " " + kExamples + "/sklearn_svd.py --components 4";
  CommandRecommender once("cmd:" + program, in_dir(dir));
  CommandRecommender persistent("cmd+persistent:" + program, in_dir(dir));
  const auto a = once.recommend_all(data, 5, 11);
  EXPECT_EQ(persistent.recommend_all(data, 5, 11), a);
  EXPECT_EQ(persistent.recommend_all(data, 5, 11), a);
  const auto modified = data.apply(
      std::vector<Modification>{{Modification::Kind::kRemove, 0, data.items_of(0)[0], 0}});
  EXPECT_EQ(persistent.recommend_all(modified, 5, 11), once.recommend_all(modified, 5, 11));
  for (const auto& list : a) EXPECT_EQ(list.size(), 5u);
  EXPECT_TRUE(empty_dir(dir.file("work")));
}

TEST(CommandRecommender, PersistentFailuresAreFailuresAndTheNextTrainingWorks) {
  TempDir dir;
  const auto data = small_data();
  // Answers an error for odd seeds, dies on seed 4, times out on seed 6, else works.
  dir.write("p.py",
            "import json, subprocess, sys, time\n"
            "for line in sys.stdin:\n"
            "    r = json.loads(line)\n"
            "    if r['seed'] % 2 == 1:\n"
            "        print(json.dumps({'error': 'odd seed'}), flush=True); continue\n"
            "    if r['seed'] == 4:\n"
            "        print('dying', file=sys.stderr, flush=True); sys.exit(5)\n"
            "    if r['seed'] == 6:\n"
            "        time.sleep(30)\n"
            "    if r['seed'] == 8:\n"
            "        print('not json', flush=True); continue\n"
            "    subprocess.run(['sh', '" +
                kExamples +
                "/popular.sh', r['train'], r['users'], "
                "str(r['k']), str(r['seed']), r['output']], check=True)\n"
                "    print(json.dumps({'done': True}), flush=True)\n");
  CommandRecommender adapter("cmd+persistent:" + std::string(kPython) + " " + dir.file("p.py"),
                             in_dir(dir, 2));
  const auto expected = popular_lists(data, 5);
  EXPECT_EQ(adapter.recommend_all(data, 5, 2), expected);
  const auto fails = [&](std::uint64_t seed) -> std::string {
    try {
      adapter.recommend_all(data, 5, seed);
    } catch (const RecommenderFailure& e) {
      return e.reason() + " | " + e.stderr_tail();
    }
    return "no failure";
  };
  EXPECT_NE(fails(3).find("reported an error: odd seed"), std::string::npos);
  EXPECT_EQ(adapter.recommend_all(data, 5, 2), expected);
  const auto died = fails(4);
  EXPECT_NE(died.find("exited with status 5 before answering"), std::string::npos) << died;
  EXPECT_NE(died.find("dying"), std::string::npos) << died;
  EXPECT_EQ(adapter.recommend_all(data, 5, 2), expected);  // a fresh child
  EXPECT_NE(fails(6).find("timeout of 2 s"), std::string::npos);
  EXPECT_EQ(adapter.recommend_all(data, 5, 2), expected);
  EXPECT_NE(fails(8).find("expected the answer {\"done\": true}"), std::string::npos);
  EXPECT_EQ(adapter.recommend_all(data, 5, 2), expected);
  EXPECT_TRUE(empty_dir(dir.file("work")));
}

TEST(CommandRecommender, MovieLens100kWithTheShellExample) {
  const std::string ml = std::string(ASSAY_SHARED_DATA_DIR) + "/movielens-100k";
  ASSAY_REQUIRE_FILE(ml + "/u.data");
  TempDir dir;
  const auto data = load_ratings("movielens-100k:" + ml);
  CommandRecommender adapter(kPopular, in_dir(dir));
  EXPECT_EQ(adapter.recommend_all(data, 10, 0), popular_lists(data, 10));
}

}  // namespace
}  // namespace assay::recsys
