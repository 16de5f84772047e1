// The NLP commands spread over processes (core/chunked_run.h): each shard (--shard I/N, or auto
// under an MPI launcher) runs its share of the chunks into its own store, one more run with
// --merge writes the bytes of a single-process run, and a rank killed mid-run, rerun alone,
// resumes from its store without asking the model about a finished chunk again.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "biased_lr.h"
#include "support/shared_data.h"
#include "support/temp_dir.h"

namespace assay::fairness {
namespace {

using assay::testing::read_file;
using assay::testing::run_assay;
using assay::testing::TempDir;
using ::testing::HasSubstr;

constexpr const char* kCmuTrigram = "/usr/share/pocketsphinx/model/en-us/en-us.lm.bin";
constexpr const char* kWordNet = "/usr/share/wordnet";

// 141 inputs: each handwritten case's text, the same in a sentence, and an empty line.
std::string handwritten_inputs(const TempDir& dir) {
  std::istringstream tsv(
      read_file(std::string(ASSAY_TEST_DATA_DIR) + "/fairness/expected_perturbations.tsv"));
  std::string line, texts;
  while (std::getline(tsv, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto a = line.find('\t'), b = line.find('\t', a + 1);
    texts +=
        line.substr(a + 1, b - a - 1) + "\nthe " + line.substr(a + 1, b - a - 1) + " wonderful\n\n";
  }
  return dir.write("in.txt", texts);
}

// A model behind cmd: that appends every request it gets to $MODEL_LOG (when set) and answers
// "neg" for a text with "female" or "actress" in it, "pos" for any other. With $KILL_AT set, it
// kills the assay process that asks (SIGKILL) when it reads its KILL_AT-th request, once (the
// file $MODEL_LOG.killed remembers it): a rank dying mid-run. The log and the switch are in the
// environment, not the command line, so every run sees the same model identity.
std::string logging_model(const TempDir& dir) {
  const auto script =
      dir.write("model.sh",
                "echo '{\"labels\": [\"neg\", \"pos\"]}'\n"
                "n=0\n"
                "while IFS= read -r line; do\n"
                "  n=$((n + 1))\n"
                "  [[ -n $MODEL_LOG ]] && printf '%s\\n' \"$line\" >> \"$MODEL_LOG\"\n"
                "  if [[ -n $KILL_AT && $n -eq $KILL_AT && ! -e $MODEL_LOG.killed ]];"
                " then\n"
                "    : > \"$MODEL_LOG.killed\"; kill -9 $PPID; exit 0\n"
                "  fi\n"
                "  [[ $line =~ \\\"id\\\":([0-9]+) ]] && id=${BASH_REMATCH[1]}\n"
                "  if [[ $line == *female* || $line == *actress* ]]; then\n"
                "    printf '{\"id\": %s, \"scores\": [0.9, 0.1]}\\n' \"$id\"\n"
                "  else\n"
                "    printf '{\"id\": %s, \"scores\": [0.1, 0.9]}\\n' \"$id\"\n"
                "  fi\n"
                "done\n");
  return "'cmd:/bin/bash " + script + "'";
}

std::vector<std::string> logged_texts(const std::string& log) {
  std::vector<std::string> out;
  if (!std::filesystem::exists(log)) return out;
  std::istringstream in(read_file(log));
  for (std::string line; std::getline(in, line);)
    out.push_back(nlohmann::json::parse(line)["text"].get<std::string>());
  return out;
}

// A JSON document without the keys that measure this process (seconds, what it asked).
nlohmann::json without_costs(const std::string& text) {
  auto j = nlohmann::json::parse(text);
  j.erase("cost");
  j.erase("answers_from_cache");
  j.erase("answers_asked");
  if (j.contains("epsilons")) {
    for (auto& row : j["epsilons"]) row.erase("seconds");
  }
  return j;
}

// mitigation.csv without its last column (seconds).
std::string without_seconds(const std::string& csv) {
  std::istringstream in(csv);
  std::string out;
  for (std::string line; std::getline(in, line);) out += line.substr(0, line.rfind(',')) + "\n";
  return out;
}

// "N run now, M from" of a chunked run's report on stderr.
std::pair<int, int> run_now_and_resumed(const std::string& err) {
  const auto at = err.find(" run now, ");
  if (at == std::string::npos) return {-1, -1};
  auto start = err.find_last_not_of("0123456789", at - 1) + 1;
  const int now = std::stoi(err.substr(start, at - start));
  return {now, std::stoi(err.substr(at + 10))};
}

std::string pair_files(const TempDir& dir, std::string* generated) {
  std::string ori, gen;
  const char* pairs[][2] = {
      {"the film was good .", "the film was bad ."},
      {"a wonderful cast and a fine script .", "a wonderful cast and a fine scrip ."},
      {"the actor was great in this movie .", "the actress was great in this movie ."},
      {"i liked every minute of it .", "i loved every minute of it ."},
      {"the plot is thin but the jokes land .", "the plot is thin but the jokes fall ."},
      {"a dull , lifeless mess .", "a dull , lifeless film ."},
      {"it is a charming little story .", "it is a charming small story ."},
      {"the director knows what he is doing .", "the director knows what she is doing ."},
      {"never boring , always surprising .", "never boring , often surprising ."},
      {"too long by half an hour .", "too long by a full hour ."},
      {"the music is the best part .", "the music is the worst part ."}};
  for (const auto& p : pairs) {
    ori += std::string(p[0]) + "\n";
    gen += std::string(p[1]) + "\n";
  }
  *generated = dir.write("gen.txt", gen);
  return dir.write("ori.txt", ori);
}

// `model predict`: three shards, each into its own cache, write nothing; the run that merges
// their caches asks nothing and writes the bytes of one run without a cache.
TEST(ShardedCommands, ModelPredictShardsMergeToTheBytesOfOneRun) {
  TempDir dir;
  const std::string lr = testing::train_biased_lr(dir);
  ASSERT_FALSE(HasFailure());
  const auto in = handwritten_inputs(dir);
  const std::string base = "model predict --model lr:" + lr + " --input " + in + " --batch 4";
  auto r = run_assay(dir, base + " --out " + dir.file("one.jsonl"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string one = read_file(dir.file("one.jsonl"));
  EXPECT_EQ(std::count(one.begin(), one.end(), '\n'), 141);
  std::string stores;
  for (int i = 0; i < 3; ++i) {
    const std::string cache = dir.file(std::to_string(i) + "p.sqlite");
    r = run_assay(dir, base + " --shard " + std::to_string(i) + "/3 --cache " + cache + " --out " +
                           dir.file("part.jsonl"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_THAT(r.err, HasSubstr("this shard is done"));
    EXPECT_THAT(r.err, HasSubstr(std::to_string(i) + "/3: 12 chunks"));
    stores += (i ? "," : "") + cache;
  }
  EXPECT_FALSE(std::filesystem::exists(dir.file("part.jsonl")));
  r = run_assay(dir, base + " --cache " + dir.file("merged.sqlite") + " --merge " + stores +
                         " --out " + dir.file("merged.jsonl"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("merged 36 chunks from 3 stores"));
  EXPECT_THAT(r.err, HasSubstr("0 run now, 36 from"));
  EXPECT_THAT(r.err, HasSubstr("0 asked of the model"));
  EXPECT_EQ(read_file(dir.file("merged.jsonl")), one);

  // A shard keeps its chunks in --cache; --merge needs one too; a missing store is named.
  r = run_assay(dir, base + " --shard 0/3");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--shard needs --cache"));
  r = run_assay(dir, base + " --merge " + dir.file("0p.sqlite"));
  EXPECT_EQ(r.exit_code, 2);
  r = run_assay(
      dir, base + " --cache " + dir.file("m2.sqlite") + " --merge " + dir.file("absent.sqlite"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("absent.sqlite"));
  EXPECT_FALSE(std::filesystem::exists(dir.file("absent.sqlite")));
}

// `aeon score` (offline backends): three shards into their own stores, merged, give the bytes
// of one run, in JSON lines and in CSV.
TEST(ShardedCommands, AeonScoreShardsMergeToTheBytesOfOneRun) {
  ASSAY_REQUIRE_FILE(kCmuTrigram);
  ASSAY_REQUIRE_FILE(std::string(kWordNet) + "/data.noun");
  TempDir dir;
  std::string gen;
  const auto ori = pair_files(dir, &gen);
  for (const std::string format : {"jsonl", "csv"}) {
    const std::string base =
        "aeon score --original " + ori + " --generated " + gen + " --format " + format;
    auto r = run_assay(dir, base + " --out " + dir.file("one." + format));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::string stores;
    for (int i = 0; i < 3; ++i) {
      const std::string store = dir.file(format + std::to_string(i) + ".sqlite");
      r = run_assay(dir, base + " --chunk 2 --shard " + std::to_string(i) + "/3 --store " + store +
                             " --out " + dir.file("part"));
      ASSERT_EQ(r.exit_code, 0) << r.err;
      EXPECT_THAT(r.err, HasSubstr("this shard is done"));
      stores += (i ? "," : "") + store;
    }
    EXPECT_FALSE(std::filesystem::exists(dir.file("part")));
    r = run_assay(dir, base + " --chunk 2 --store " + dir.file(format + ".sqlite") + " --merge " +
                           stores + " --out " + dir.file("merged." + format));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_THAT(r.err, HasSubstr("0 run now, 6 from"));
    EXPECT_EQ(read_file(dir.file("merged." + format)), read_file(dir.file("one." + format)))
        << format;
  }
  auto r = run_assay(dir, "aeon score --original " + ori + " --generated " + gen + " --shard 1/2");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--shard needs --store"));
}

// `fair mitigate`: three shards into their own caches, merged, give the numbers of one run
// (everything but the seconds each process took).
TEST(ShardedCommands, FairMitigateShardsMergeToTheNumbersOfOneRun) {
  TempDir dir;
  const std::string lr = testing::train_biased_lr(dir);
  ASSERT_FALSE(HasFailure());
  const auto in = handwritten_inputs(dir);
  const std::string base = "fair mitigate --model lr:" + lr + " --input " + in + " --chunk 5";
  auto r = run_assay(dir, base + " --out " + dir.file("one"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto one = without_costs(read_file(dir.file("one/mitigation.json")));
  ASSERT_GT(one["violations_before"].get<int>(), 0);
  std::string stores;
  for (int i = 0; i < 3; ++i) {
    const std::string cache = dir.file(std::to_string(i) + "m.sqlite");
    r = run_assay(dir, base + " --shard " + std::to_string(i) + "/3 --cache " + cache + " --out " +
                           dir.file("part"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_THAT(r.err, HasSubstr("this shard is done"));
    stores += (i ? "," : "") + cache;
  }
  EXPECT_FALSE(std::filesystem::exists(dir.file("part/mitigation.json")));
  r = run_assay(dir, base + " --cache " + dir.file("merged.sqlite") + " --merge " + stores +
                         " --out " + dir.file("merged"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("0 run now"));
  const auto merged = nlohmann::json::parse(read_file(dir.file("merged/mitigation.json")));
  // The shards' answers are merged; only the classes' neighbourhoods are asked.
  EXPECT_EQ(merged["cost"]["answers_asked"], merged["layer"]["texts_asked_for_neighbourhoods"]);
  EXPECT_EQ(without_costs(read_file(dir.file("merged/mitigation.json"))), one);
  EXPECT_EQ(without_seconds(read_file(dir.file("merged/mitigation.csv"))),
            without_seconds(read_file(dir.file("one/mitigation.csv"))));
}

// Under Open MPI's mpirun, three ranks each run their shard of `model predict`, `fair mitigate`
// and `fair test` (the last against a cmd: model that logs every text it is asked); rank 1 is
// killed (SIGKILL) part way through `fair test`. Rerun alone, with the rank's environment, it
// resumes from its cache: the chunks it had finished are not run again and none of their texts
// is asked again. Every command's merge then equals a single-process run.
TEST(ShardedCommands, UnderMpirunAKilledRankResumesAloneAndMergesToOneRun) {
  if (std::system("command -v mpirun >/dev/null 2>&1") != 0) GTEST_SKIP() << "no mpirun here";
  TempDir dir;
  const std::string lr = testing::train_biased_lr(dir);
  ASSERT_FALSE(HasFailure());
  const auto in = handwritten_inputs(dir);
  const std::string model = logging_model(dir);
  const std::string predict = "model predict --model lr:" + lr + " --input " + in + " --batch 4";
  const std::string mitigate = "fair mitigate --model lr:" + lr + " --input " + in + " --chunk 5";
  const std::string test =
      "fair test --model " + model + " --input " + in + " --chunk 5 --threads 1";

  // Single-process references.
  auto r = run_assay(dir, predict + " --out " + dir.file("one.jsonl"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_assay(dir, mitigate + " --out " + dir.file("one_mitigate"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_assay(
      dir, test + " --cache " + dir.file("one_test.sqlite") + " --out " + dir.file("one_test"));
  ASSERT_EQ(r.exit_code, 1) << r.err;

  // Each rank's script; rank 1's model kills it at its 30th request.
  const std::string bin = ASSAY_BINARY;
  const std::string d = dir.file("");
  const auto rank_script = dir.write(
      "rank.sh", "R=$OMPI_COMM_WORLD_RANK\n" + bin + " " + predict + " --shard auto --cache " + d +
                     "predict$R.sqlite --out " + d + "x --quiet; echo $? > " + d +
                     "predict$R.rc\n" + bin + " " + mitigate + " --shard auto --cache " + d +
                     "mitigate$R.sqlite --out " + d + "x --quiet; echo $? > " + d +
                     "mitigate$R.rc\n" +
                     "if [ \"$R\" = 1 ]; then export KILL_AT=30; fi\n"
                     "MODEL_LOG=" +
                     d + "log$R " + bin + " " + test + " --shard auto --cache " + d +
                     "test$R.sqlite --out " + d + "x --quiet; echo $? > " + d + "test$R.rc\n");
  const std::string launch = "mpirun --allow-run-as-root --oversubscribe -np 3 sh " + rank_script +
                             " >" + dir.file("mpirun.out") + " 2>&1 </dev/null";
  const int status = std::system(launch.c_str());
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << read_file(dir.file("mpirun.out"));
  for (int rank = 0; rank < 3; ++rank) {
    const std::string R = std::to_string(rank);
    EXPECT_EQ(read_file(dir.file("predict" + R + ".rc")), "0\n") << rank;
    EXPECT_EQ(read_file(dir.file("mitigate" + R + ".rc")), "0\n") << rank;
    // sh reports a child killed by SIGKILL as 128 + 9.
    EXPECT_EQ(read_file(dir.file("test" + R + ".rc")), rank == 1 ? "137\n" : "0\n") << rank;
  }
  EXPECT_FALSE(std::filesystem::exists(dir.file("x")));
  const auto first = logged_texts(dir.file("log1"));
  ASSERT_EQ(first.size(), 30u);

  // Rank 1 rerun alone, its shard from the same environment mpirun gave it.
  ::setenv("OMPI_COMM_WORLD_RANK", "1", 1);
  ::setenv("OMPI_COMM_WORLD_SIZE", "3", 1);
  ::setenv("MODEL_LOG", dir.file("rerun1").c_str(), 1);
  r = run_assay(
      dir, test + " --shard auto --cache " + dir.file("test1.sqlite") + " --out " + dir.file("x"));
  ::unsetenv("OMPI_COMM_WORLD_RANK");
  ::unsetenv("OMPI_COMM_WORLD_SIZE");
  ::unsetenv("MODEL_LOG");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("shard 1/3: 10 chunks"));
  const auto [run_now, resumed] = run_now_and_resumed(r.err);
  EXPECT_GE(resumed, 1) << r.err;  // finished before the kill: not run again
  EXPECT_GE(run_now, 1) << r.err;
  EXPECT_EQ(run_now + resumed, 10) << r.err;
  // The texts asked before the kill were answered (and are not asked again) except those of
  // the chunk in flight, the last ones asked: what the rerun asks again is a tail of the first
  // run's requests, never one of a finished chunk.
  const auto rerun = logged_texts(dir.file("rerun1"));
  ASSERT_FALSE(rerun.empty());
  const std::set<std::string> asked_again(rerun.begin(), rerun.end());
  std::size_t first_repeated = first.size();
  for (std::size_t k = 0; k < first.size(); ++k) {
    if (asked_again.count(first[k]) != 0) {
      first_repeated = k;
      break;
    }
  }
  for (std::size_t k = first_repeated; k < first.size(); ++k)
    EXPECT_EQ(asked_again.count(first[k]), 1u) << "asked before the kill, not again: " << first[k];
  EXPECT_GT(first_repeated, 0u) << "every text of the first run was asked again";

  // The merges equal single-process runs.
  const auto stores = [&](const std::string& name) {
    return dir.file(name + "0.sqlite") + "," + dir.file(name + "1.sqlite") + "," +
           dir.file(name + "2.sqlite");
  };
  r = run_assay(dir, predict + " --cache " + dir.file("predict.sqlite") + " --merge " +
                         stores("predict") + " --out " + dir.file("merged.jsonl"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(dir.file("merged.jsonl")), read_file(dir.file("one.jsonl")));
  r = run_assay(dir, mitigate + " --cache " + dir.file("mitigate.sqlite") + " --merge " +
                         stores("mitigate") + " --out " + dir.file("merged_mitigate"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(without_costs(read_file(dir.file("merged_mitigate/mitigation.json"))),
            without_costs(read_file(dir.file("one_mitigate/mitigation.json"))));
  ::setenv("MODEL_LOG", dir.file("merge_log").c_str(), 1);
  r = run_assay(dir, test + " --cache " + dir.file("test.sqlite") + " --merge " + stores("test") +
                         " --out " + dir.file("merged_test"));
  ::unsetenv("MODEL_LOG");
  ASSERT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.err, HasSubstr("0 run now, 29 from"));
  EXPECT_FALSE(std::filesystem::exists(dir.file("merge_log")));  // the model was not asked
  EXPECT_EQ(read_file(dir.file("merged_test/violations.jsonl")),
            read_file(dir.file("one_test/violations.jsonl")));
  EXPECT_EQ(without_costs(read_file(dir.file("merged_test/summary.json"))),
            without_costs(read_file(dir.file("one_test/summary.json"))));
}

}  // namespace
}  // namespace assay::fairness
