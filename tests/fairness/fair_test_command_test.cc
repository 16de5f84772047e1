#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "biased_lr.h"
#include "support/temp_dir.h"

namespace assay::fairness {
namespace {

using assay::testing::read_file;
using assay::testing::run_assay;
using assay::testing::TempDir;
using ::testing::HasSubstr;

// A built-in LR trained on a small set where "actress" and "female" only occur in negative
// texts: swapping actor -> actress or inserting "female" flips the label, which `fair test`
// must report; the rerun answers everything from the cache.
TEST(FairTestCommand, ViolationsSummaryAndCache) {
  TempDir dir;
  const std::string lr = testing::train_biased_lr(dir);
  ASSERT_FALSE(HasFailure());
  assay::testing::RunResult r;
  const auto in = dir.write("in.txt", "the actor was wonderful\n\nthe film was wonderful\n");
  const std::string args = "fair test --model lr:" + lr + " --input " + in +
                           " --cache " + dir.file("cache.sqlite") + " --out ";
  r = run_assay(dir, args + dir.file("out1"));
  ASSERT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.err, HasSubstr("3 inputs, 1 mutable"));
  const auto summary = nlohmann::json::parse(read_file(dir.file("out1/summary.json")));
  EXPECT_EQ(summary["inputs"], 3);
  EXPECT_EQ(summary["mutable"], 1);
  EXPECT_EQ(summary["perturbations"], 3);
  EXPECT_GE(summary["violations"].get<int>(), 1);
  EXPECT_EQ(summary["answers_asked"], 4);  // the original and its three perturbations
  std::istringstream v(read_file(dir.file("out1/violations.jsonl")));
  std::string line;
  bool actress = false;
  while (std::getline(v, line)) {
    const auto j = nlohmann::json::parse(line);
    EXPECT_EQ(j["label_original"], "pos");
    EXPECT_EQ(j["label_perturbed"], "neg");
    actress |= j["perturbed"] == "the actress was wonderful";
  }
  EXPECT_TRUE(actress);
  r = run_assay(dir, args + dir.file("out2"));
  EXPECT_EQ(r.exit_code, 1);
  const auto again = nlohmann::json::parse(read_file(dir.file("out2/summary.json")));
  EXPECT_EQ(again["answers_asked"], 0);
  EXPECT_EQ(read_file(dir.file("out1/violations.jsonl")),
            read_file(dir.file("out2/violations.jsonl")));
  r = run_assay(dir, "fair test --model lr:" + lr + " --input " + in +
                         " --budget 3 --out " + dir.file("o3"));
  EXPECT_EQ(r.exit_code, 2);
}

// Perturbation runs on --threads threads; the model is asked in input order, so violations.jsonl
// and summary.json are byte-identical for 1, 2 and 4 threads (the 47 handwritten sentences
// and their pluralised variants, chunks of 5 inputs, so that several chunks run).
TEST(FairTestCommand, OutputsDoNotDependOnThreads) {
  TempDir dir;
  const std::string lr = testing::train_biased_lr(dir);
  ASSERT_FALSE(HasFailure());
  std::istringstream tsv(read_file(std::string(ASSAY_TEST_DATA_DIR) + "/fairness/expected_perturbations.tsv"));
  std::string line, texts;
  std::size_t n = 0;
  while (std::getline(tsv, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto a = line.find('\t'), b = line.find('\t', a + 1);
    texts += line.substr(a + 1, b - a - 1) + "\nthe " + line.substr(a + 1, b - a - 1) + " wonderful\n\n";
    n += 3;
  }
  ASSERT_GT(n, 100u);
  const auto in = dir.write("in.txt", texts);
  std::string first_violations, first_summary;
  for (const char* threads : {"1", "2", "4"}) {
    const std::string out = dir.file(std::string("out") + threads);
    const auto r = run_assay(dir, "fair test --model lr:" + lr + " --input " + in + " --chunk 5 --threads " +
                                      threads + " --out " + out);
    ASSERT_EQ(r.exit_code, 1) << r.err;
    const auto violations = read_file(out + "/violations.jsonl");
    const auto summary = read_file(out + "/summary.json");
    if (first_violations.empty()) {
      first_violations = violations;
      first_summary = summary;
      EXPECT_GE(nlohmann::json::parse(summary)["violations"].get<int>(), 10);
      EXPECT_EQ(nlohmann::json::parse(summary)["inputs"].get<std::size_t>(), n);
      // top_flips names each substitution by what changed, an insertion as the noun with its
      // new adjective ("director -> male director"): its counts are those of violations.jsonl.
      std::map<std::string, int> expected;
      std::istringstream v(violations);
      std::string l;
      while (std::getline(v, l)) {
        const auto j = nlohmann::json::parse(l);
        std::string o = j["old"], w = j["new"];
        for (auto* word : {&o, &w})
          for (char& c : *word) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        ++expected[j["kind"] == "active" ? o + " -> " + w + " " + o : o + " -> " + w];
      }
      bool active = false;
      const auto parsed = nlohmann::json::parse(summary);
      for (const auto& f : parsed["top_flips"]) {
        const std::string name = f["substitution"];
        EXPECT_EQ(f["violations"].get<int>(), expected[name]) << name;
        active |= name.find("male ") != std::string::npos;
      }
      EXPECT_TRUE(active) << summary;
      continue;
    }
    EXPECT_EQ(violations, first_violations) << threads << " threads";
    EXPECT_EQ(summary, first_summary) << threads << " threads";
  }
  EXPECT_EQ(run_assay(dir, "fair test --model lr:" + lr + " --input " + in + " --threads -1 --out " +
                               dir.file("bad")).exit_code,
            2);
}

// The 47 handwritten sentences, each alone, in "the ... wonderful" and followed by an empty
// line: 141 inputs, many of them mutable, several chunks at --chunk 5.
std::string handwritten_inputs(const TempDir& dir) {
  std::istringstream tsv(
      read_file(std::string(ASSAY_TEST_DATA_DIR) + "/fairness/expected_perturbations.tsv"));
  std::string line, texts;
  while (std::getline(tsv, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto a = line.find('\t'), b = line.find('\t', a + 1);
    texts += line.substr(a + 1, b - a - 1) + "\nthe " + line.substr(a + 1, b - a - 1) +
             " wonderful\n\n";
  }
  return dir.write("in.txt", texts);
}

// summary.json without the two lines that count what this process asked (answers from the
// cache, answers asked of the model): everything else must be the same bytes.
std::string without_answer_counts(const std::string& summary) {
  std::istringstream in(summary);
  std::string line, out;
  while (std::getline(in, line)) {
    if (line.find("\"answers_from_cache\"") != std::string::npos ||
        line.find("\"answers_asked\"") != std::string::npos)
      continue;
    out += line + "\n";
  }
  return out;
}

// Two shards, each into its own cache, merged by a third run: the same violations.jsonl and
// summary.json as one run (apart from the counts of what each process asked); the merging run
// asks the model nothing, and a shard writes no outputs.
TEST(FairTestCommand, ShardsMergedGiveTheBytesOfOneRun) {
  TempDir dir;
  const std::string lr = testing::train_biased_lr(dir);
  ASSERT_FALSE(HasFailure());
  const auto in = handwritten_inputs(dir);
  const std::string base = "fair test --model lr:" + lr + " --input " + in + " --chunk 5 --threads 2";
  auto r = run_assay(dir, base + " --cache " + dir.file("one.sqlite") + " --out " + dir.file("one"));
  ASSERT_EQ(r.exit_code, 1) << r.err;
  for (const char* shard : {"0/2", "1/2"}) {
    const std::string cache = dir.file(std::string("shard") + shard[0] + ".sqlite");
    r = run_assay(dir, base + " --shard " + shard + " --cache " + cache + " --out " +
                           dir.file(std::string("shard") + shard[0]));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_THAT(r.err, HasSubstr("this shard is done"));
    EXPECT_FALSE(std::filesystem::exists(dir.file(std::string("shard") + shard[0] + "/summary.json")));
  }
  r = run_assay(dir, base + " --cache " + dir.file("merged.sqlite") + " --merge " +
                         dir.file("shard0.sqlite") + "," + dir.file("shard1.sqlite") + " --out " +
                         dir.file("merged"));
  ASSERT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.err, HasSubstr("0 run now"));
  EXPECT_EQ(read_file(dir.file("merged/violations.jsonl")), read_file(dir.file("one/violations.jsonl")));
  const auto merged = read_file(dir.file("merged/summary.json"));
  EXPECT_EQ(nlohmann::json::parse(merged)["answers_asked"], 0);
  EXPECT_EQ(without_answer_counts(merged),
            without_answer_counts(read_file(dir.file("one/summary.json"))));
  EXPECT_GT(without_answer_counts(merged).size(), 500u);

  // A shard needs a cache to keep its chunks in; a bad shard is a usage error.
  EXPECT_EQ(run_assay(dir, base + " --shard 0/2 --out " + dir.file("x")).exit_code, 2);
  EXPECT_EQ(run_assay(dir, base + " --shard 2/2 --cache " + dir.file("x.sqlite") + " --out " +
                               dir.file("x")).exit_code, 2);
  // A shard's cache from other settings holds no chunk of these: everything runs again.
  r = run_assay(dir, base + " --all-occurrences --cache " + dir.file("shard0.sqlite") + " --out " +
                         dir.file("other"));
  EXPECT_THAT(r.err, ::testing::Not(HasSubstr("0 run now")));
}

// A run stopped part way (here by the query budget) keeps its finished chunks and answers; the
// rerun asks the model only what is missing and writes what one uninterrupted run writes.
TEST(FairTestCommand, InterruptedRunResumes) {
  TempDir dir;
  const std::string lr = testing::train_biased_lr(dir);
  ASSERT_FALSE(HasFailure());
  const auto in = handwritten_inputs(dir);
  const std::string base = "fair test --model lr:" + lr + " --input " + in + " --chunk 5 --threads 1";
  auto r = run_assay(dir, base + " --cache " + dir.file("one.sqlite") + " --out " + dir.file("one"));
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const auto asked = nlohmann::json::parse(read_file(dir.file("one/summary.json")))["answers_asked"].get<int>();
  ASSERT_GT(asked, 100);
  const std::string cache = dir.file("resumed.sqlite");
  r = run_assay(dir, base + " --cache " + cache + " --budget 60 --out " + dir.file("resumed"));
  ASSERT_EQ(r.exit_code, 2) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("resumed/summary.json")));
  r = run_assay(dir, base + " --cache " + cache + " --out " + dir.file("resumed"));
  ASSERT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.err, ::testing::ContainsRegex("[1-9][0-9]* from " + cache));  // chunks resumed
  const auto summary = read_file(dir.file("resumed/summary.json"));
  EXPECT_EQ(nlohmann::json::parse(summary)["answers_asked"].get<int>(), asked - 60);
  EXPECT_EQ(read_file(dir.file("resumed/violations.jsonl")), read_file(dir.file("one/violations.jsonl")));
  EXPECT_EQ(without_answer_counts(summary),
            without_answer_counts(read_file(dir.file("one/summary.json"))));
}

}  // namespace
}  // namespace assay::fairness
