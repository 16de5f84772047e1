#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

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
  const auto in = dir.write(
      "in.txt", "the actor was wonderful and the doctor smiled\n\nthe film was wonderful\n");
  const std::string args = "fair test --model lr:" + lr + " --input " + in + " --cache " +
                           dir.file("cache.sqlite") + " --out ";
  r = run_assay(dir, args + dir.file("out1"));
  ASSERT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.err, HasSubstr("3 inputs, 1 mutable"));
  const auto summary = nlohmann::json::parse(read_file(dir.file("out1/summary.json")));
  EXPECT_EQ(summary["inputs"], 3);
  EXPECT_EQ(summary["mutable"], 1);
  EXPECT_EQ(summary["perturbations"], 3);
  EXPECT_GE(summary["violations"].get<int>(), 1);
  // The original and its three perturbations: actress, male doctor, female doctor.
  EXPECT_EQ(summary["answers_asked"], 4);
  std::istringstream v(read_file(dir.file("out1/violations.jsonl")));
  std::string line;
  bool actress = false;
  while (std::getline(v, line)) {
    const auto j = nlohmann::json::parse(line);
    EXPECT_EQ(j["label_original"], "pos");
    EXPECT_EQ(j["label_perturbed"], "neg");
    actress |= j["perturbed"] == "the actress was wonderful and the doctor smiled";
  }
  EXPECT_TRUE(actress);
  r = run_assay(dir, args + dir.file("out2"));
  EXPECT_EQ(r.exit_code, 1);
  const auto again = nlohmann::json::parse(read_file(dir.file("out2/summary.json")));
  EXPECT_EQ(again["answers_asked"], 0);
  EXPECT_EQ(read_file(dir.file("out1/violations.jsonl")),
            read_file(dir.file("out2/violations.jsonl")));
  r = run_assay(
      dir, "fair test --model lr:" + lr + " --input " + in + " --budget 3 --out " + dir.file("o3"));
  EXPECT_EQ(r.exit_code, 2);
}

// Insertions compared with each other: "the female doctor" flips the biased LR and "the male
// doctor" does not, so at that place the model treats the groups differently (the violation
// says so, with each group's label); where both insertions get the original's label the place
// counts, unsplit. summary.json and the report give the counts.
TEST(FairTestCommand, InsertionsAreComparedWithEachOther) {
  TempDir dir;
  const std::string lr = testing::train_biased_lr(dir);
  ASSERT_FALSE(HasFailure());
  const auto in = dir.write("in.txt", "the doctor was wonderful\nthe doctor was awful\n");
  const auto r =
      run_assay(dir, "fair test --model lr:" + lr + " --input " + in + " --out " + dir.file("out"));
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const auto summary = nlohmann::json::parse(read_file(dir.file("out/summary.json")));
  EXPECT_EQ(summary["violations"], 1) << summary.dump();
  EXPECT_EQ(summary["insertions"]["places"], 2);
  EXPECT_EQ(summary["insertions"]["places_groups_differ"], 1);
  EXPECT_EQ(summary["insertions"]["violations_groups_differ"], 1);
  const auto v = nlohmann::json::parse(read_file(dir.file("out/violations.jsonl")));
  EXPECT_EQ(v["perturbed"], "the female doctor was wonderful");
  EXPECT_EQ(v["between_groups"], true);
  EXPECT_EQ(v["insertion_labels"], (nlohmann::json{{"female", "neg"}, {"male", "pos"}}));
  const auto report =
      run_assay(dir, "fair report --in " + dir.file("out") + " --out " + dir.file("report.html"));
  ASSERT_EQ(report.exit_code, 0) << report.err;
  EXPECT_THAT(
      read_file(dir.file("report.html")),
      HasSubstr("before one noun (1 of 2, \"the female doctor\" beside \"the male doctor\") the "
                "model gives the groups different labels, and 1 of the 1 insertion "
                "violations are there"));
}

// Direction and severity: the biased LR (actress and female only in negative texts) flips
// texts rewritten as female toward neg and pushes their pos score down; summary.json's
// per-group counts add up to the violations, each record's score_drop is the fall of the
// original label's score, and --min-delta D keeps exactly the violations whose drop is at least
// D (recomputed from the cache: the model is asked nothing).
TEST(FairTestCommand, DirectionAndSeverity) {
  TempDir dir;
  const std::string lr = testing::train_biased_lr(dir);
  ASSERT_FALSE(HasFailure());
  const auto in = dir.write("in.txt",
                            "the actor was wonderful and the doctor smiled\n"
                            "a great actor and a great film\n"
                            "my brother and his wife loved the actress\n");
  const std::string args = "fair test --model lr:" + lr + " --input " + in + " --cache " +
                           dir.file("cache.sqlite") + " --quiet --out ";
  auto r = run_assay(dir, args + dir.file("all"));
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const auto s = nlohmann::json::parse(read_file(dir.file("all/summary.json")));
  EXPECT_EQ(s["format"], "assay-fair-test-summary/2");
  EXPECT_EQ(s["data"], in);
  EXPECT_EQ(s["labels"], nlohmann::json::array({"neg", "pos"}));
  EXPECT_EQ(s["min_delta"], 0);
  const auto& female = s["by_group"]["female"];
  const auto& male = s["by_group"]["male"];
  EXPECT_GE(female["flips_toward"]["neg"].get<int>(), 1);
  EXPECT_EQ(female["flips_toward"]["pos"], 0);
  EXPECT_LT(female["score_change"]["pos"]["mean"].get<double>(), 0);
  EXPECT_GT(male["score_change"]["pos"]["mean"].get<double>(),
            female["score_change"]["pos"]["mean"].get<double>());
  // A label's score change is the opposite of the other's (two labels, probabilities).
  EXPECT_NEAR(female["score_change"]["pos"]["mean"].get<double>(),
              -female["score_change"]["neg"]["mean"].get<double>(), 1e-9);
  int by_group = 0;
  for (const auto& [name, g] : s["by_group"].items()) {
    by_group += g["violations"].get<int>();
    EXPECT_EQ(g["violations"].get<int>(),
              g["flips_toward"]["neg"].get<int>() + g["flips_toward"]["pos"].get<int>());
  }
  EXPECT_EQ(by_group, s["violations"].get<int>());
  EXPECT_EQ(s["violations_at_min_delta"]["0"], s["violations"]);
  // Per substitution between groups: each violation's (from_group, group), recounted from the
  // records, is what by_group_pair says; a swapped noun names its own group, an inserted
  // adjective's noun none.
  std::map<std::pair<std::string, std::string>, int> pair_violations;
  std::istringstream records(read_file(dir.file("all/violations.jsonl")));
  for (std::string line; std::getline(records, line);) {
    const auto j = nlohmann::json::parse(line);
    const std::string from = j["from_group"].is_null() ? "" : j["from_group"].get<std::string>();
    EXPECT_EQ(j["record"]["from_group"], j["from_group"]) << line;
    if (j["kind"] == "active") {
      EXPECT_TRUE(j["from_group"].is_null()) << line;
    }
    if (j["old"] == "actor" && j["kind"] == "analogy") {
      EXPECT_EQ(from, "male") << line;
    }
    if (j["old"] == "actress" && j["kind"] == "analogy") {
      EXPECT_EQ(from, "female") << line;
    }
    ++pair_violations[{from, j["group"].get<std::string>()}];
  }
  int pair_perturbations = 0;
  std::map<std::pair<std::string, std::string>, int> listed;
  for (const auto& p : s["by_group_pair"]) {
    const std::string from = p["from"].is_null() ? "" : p["from"].get<std::string>();
    listed[{from, p["to"].get<std::string>()}] = p["violations"].get<int>();
    pair_perturbations += p["perturbations"].get<int>();
    EXPECT_EQ(p["violations"].get<int>(),
              p["flips_toward"]["neg"].get<int>() + p["flips_toward"]["pos"].get<int>());
    EXPECT_NE(from, p["to"].get<std::string>());
  }
  EXPECT_EQ(pair_perturbations, s["perturbations"].get<int>());
  for (const auto& [key, n] : pair_violations) EXPECT_EQ(listed[key], n) << key.first << key.second;
  EXPECT_TRUE(listed.count({"male", "female"}));
  EXPECT_TRUE(listed.count({"female", "male"}));
  // Every flip's drop, from the records: the original label's score, before minus after.
  std::vector<double> drops;
  std::istringstream v(read_file(dir.file("all/violations.jsonl")));
  for (std::string line; std::getline(v, line);) {
    const auto j = nlohmann::json::parse(line);
    const auto& o = j["scores_original"];
    const std::size_t label = o[0].get<double>() >= o[1].get<double>() ? 0 : 1;
    const double drop = o[label].get<double>() - j["scores_perturbed"][label].get<double>();
    EXPECT_NEAR(j["score_drop"].get<double>(), drop, 1e-12) << line;
    EXPECT_GT(drop, 0) << line;
    drops.push_back(drop);
  }
  ASSERT_GE(drops.size(), 2u);
  std::sort(drops.begin(), drops.end());
  for (const auto& [key, n] : s["violations_at_min_delta"].items()) {
    const double d = std::stod(key);
    const auto expected =
        std::count_if(drops.begin(), drops.end(), [&](double x) { return d == 0 || x >= d; });
    EXPECT_EQ(n.get<long>(), expected) << key;
  }
  // A threshold between the smallest and the largest drop keeps only the larger ones.
  const double d = (drops.front() + drops.back()) / 2;
  char arg[64];
  std::snprintf(arg, sizeof arg, "%.17g", d);
  r = run_assay(dir, args + dir.file("severe") + " --min-delta " + arg);
  const auto kept = std::count_if(drops.begin(), drops.end(), [&](double x) { return x >= d; });
  ASSERT_EQ(r.exit_code, kept > 0 ? 1 : 0) << r.err;
  const auto severe = nlohmann::json::parse(read_file(dir.file("severe/summary.json")));
  EXPECT_EQ(severe["violations"].get<long>(), kept);
  EXPECT_LT(severe["violations"].get<long>(), s["violations"].get<long>());
  EXPECT_EQ(severe["answers_asked"], 0);
  EXPECT_EQ(severe["violations_at_min_delta"]["0"], s["violations"]);
  std::istringstream sv(read_file(dir.file("severe/violations.jsonl")));
  long lines = 0;
  for (std::string line; std::getline(sv, line); ++lines)
    EXPECT_GE(nlohmann::json::parse(line)["score_drop"].get<double>(), d) << line;
  EXPECT_EQ(lines, kept);
  for (const char* bad : {"-0.1", "nan", "x"}) {
    r = run_assay(dir, args + dir.file("bad") + " --min-delta " + bad);
    EXPECT_EQ(r.exit_code, 2) << bad;
    EXPECT_THAT(r.err, HasSubstr("--min-delta")) << bad;
    EXPECT_FALSE(std::filesystem::exists(dir.file("bad"))) << bad;
  }
}

// Perturbation runs on --threads threads; the model is asked in input order, so violations.jsonl
// and summary.json are byte-identical for 1, 2 and 4 threads (the 47 handwritten sentences
// and their pluralised variants, chunks of 5 inputs, so that several chunks run).
// --gate aeon: the model is asked only the perturbations the gate keeps; what the gate did is
// on stderr; flagged ones are asked like the others.
TEST(FairTestCommand, AeonGateDecidesWhatIsAsked) {
  TempDir dir;
  const std::string lr = testing::train_biased_lr(dir);
  ASSERT_FALSE(HasFailure());
  const auto in = dir.write("in.txt", "the actor was wonderful and the doctor smiled\n");
  const std::string args = "fair test --model lr:" + lr + " --input " + in + " --out ";
  auto r = run_assay(dir, args + dir.file("drop") + " --gate aeon --gate-action drop");
  ASSERT_LE(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.err, HasSubstr("aeon gate: 3 perturbations scored, 0 kept, 3 dropped"));
  EXPECT_THAT(r.err, HasSubstr("warning: the aeon gate dropped 3 of 3"));
  auto s = nlohmann::json::parse(read_file(dir.file("drop/summary.json")));
  EXPECT_EQ(s["perturbations"], 0);
  EXPECT_EQ(s["mutable"], 0);  // nothing left to ask
  EXPECT_EQ(s["gate"],
            nlohmann::json::parse(R"({"scored": 3, "kept": 0, "dropped": 3, "flagged": 0})"));
  // Resumed from the cache, the summary and the report still count what the gate did when
  // the chunks ran.
  const std::string cached = args + dir.file("cached") + " --cache " + dir.file("answers.db") +
                             " --gate aeon --gate-action drop";
  r = run_assay(dir, cached);
  ASSERT_LE(r.exit_code, 1) << r.err;
  r = run_assay(dir, cached);
  EXPECT_THAT(r.err, HasSubstr("0 run now, 1 from"));
  EXPECT_THAT(r.err, HasSubstr("aeon gate: 3 perturbations scored, 0 kept, 3 dropped"));
  EXPECT_EQ(nlohmann::json::parse(read_file(dir.file("cached/summary.json")))["gate"]["dropped"],
            3);
  r = run_assay(dir, args + dir.file("kept") +
                         " --gate aeon --gate-action drop --gate-sim 0 "
                         "--gate-nat 0");
  EXPECT_THAT(r.err, HasSubstr("aeon gate: 3 perturbations scored, 3 kept, 0 dropped"));
  s = nlohmann::json::parse(read_file(dir.file("kept/summary.json")));
  EXPECT_EQ(s["perturbations"], 3);
  r = run_assay(dir, args + dir.file("flag") + " --gate aeon");  // offline: flag by default
  EXPECT_THAT(r.err, HasSubstr("3 kept, 0 dropped, 3 flagged"));
  s = nlohmann::json::parse(read_file(dir.file("flag/summary.json")));
  EXPECT_EQ(s["perturbations"], 3);
  EXPECT_EQ(s["gate"]["flagged"], 3);
  r = run_assay(dir, args + dir.file("nogate"));
  EXPECT_FALSE(nlohmann::json::parse(read_file(dir.file("nogate/summary.json"))).contains("gate"));
  r = run_assay(dir, "fair mitigate --model lr:" + lr + " --input " + in + " --epsilon 1 --out " +
                         dir.file("m") + " --gate aeon --gate-action drop");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("aeon gate: 3 perturbations scored, 0 kept, 3 dropped"));
  r = run_assay(dir, args + dir.file("bad") + " --gate bert");
  EXPECT_EQ(r.exit_code, 2);
}

TEST(FairTestCommand, OutputsDoNotDependOnThreads) {
  TempDir dir;
  const std::string lr = testing::train_biased_lr(dir);
  ASSERT_FALSE(HasFailure());
  std::istringstream tsv(
      read_file(std::string(ASSAY_TEST_DATA_DIR) + "/fairness/expected_perturbations.tsv"));
  std::string line, texts;
  std::size_t n = 0;
  while (std::getline(tsv, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto a = line.find('\t'), b = line.find('\t', a + 1);
    texts +=
        line.substr(a + 1, b - a - 1) + "\nthe " + line.substr(a + 1, b - a - 1) + " wonderful\n\n";
    n += 3;
  }
  ASSERT_GT(n, 100u);
  const auto in = dir.write("in.txt", texts);
  std::string first_violations, first_summary;
  for (const char* threads : {"1", "2", "4"}) {
    const std::string out = dir.file(std::string("out") + threads);
    const auto r = run_assay(dir, "fair test --model lr:" + lr + " --input " + in +
                                      " --chunk 5 --threads " + threads + " --out " + out);
    ASSERT_EQ(r.exit_code, 1) << r.err;
    const auto violations = read_file(out + "/violations.jsonl");
    const auto summary = read_file(out + "/summary.json");
    if (first_violations.empty()) {
      first_violations = violations;
      first_summary = summary;
      EXPECT_GE(nlohmann::json::parse(summary)["violations"].get<int>(), 5);
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
  EXPECT_EQ(run_assay(dir, "fair test --model lr:" + lr + " --input " + in +
                               " --threads -1 --out " + dir.file("bad"))
                .exit_code,
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
    texts +=
        line.substr(a + 1, b - a - 1) + "\nthe " + line.substr(a + 1, b - a - 1) + " wonderful\n\n";
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
  const std::string base =
      "fair test --model lr:" + lr + " --input " + in + " --chunk 5 --threads 2";
  auto r =
      run_assay(dir, base + " --cache " + dir.file("one.sqlite") + " --out " + dir.file("one"));
  ASSERT_EQ(r.exit_code, 1) << r.err;
  for (const char* shard : {"0/2", "1/2"}) {
    const std::string cache = dir.file(std::string("shard") + shard[0] + ".sqlite");
    r = run_assay(dir, base + " --shard " + shard + " --cache " + cache + " --out " +
                           dir.file(std::string("shard") + shard[0]));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_THAT(r.err, HasSubstr("this shard is done"));
    EXPECT_FALSE(
        std::filesystem::exists(dir.file(std::string("shard") + shard[0] + "/summary.json")));
  }
  r = run_assay(dir, base + " --cache " + dir.file("merged.sqlite") + " --merge " +
                         dir.file("shard0.sqlite") + "," + dir.file("shard1.sqlite") + " --out " +
                         dir.file("merged"));
  ASSERT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.err, HasSubstr("0 run now"));
  EXPECT_EQ(read_file(dir.file("merged/violations.jsonl")),
            read_file(dir.file("one/violations.jsonl")));
  const auto merged = read_file(dir.file("merged/summary.json"));
  EXPECT_EQ(nlohmann::json::parse(merged)["answers_asked"], 0);
  EXPECT_EQ(without_answer_counts(merged),
            without_answer_counts(read_file(dir.file("one/summary.json"))));
  EXPECT_GT(without_answer_counts(merged).size(), 500u);

  // A shard needs a cache to keep its chunks in; a bad shard is a usage error.
  EXPECT_EQ(run_assay(dir, base + " --shard 0/2 --out " + dir.file("x")).exit_code, 2);
  EXPECT_EQ(run_assay(dir, base + " --shard 2/2 --cache " + dir.file("x.sqlite") + " --out " +
                               dir.file("x"))
                .exit_code,
            2);
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
  const std::string base =
      "fair test --model lr:" + lr + " --input " + in + " --chunk 5 --threads 1";
  auto r =
      run_assay(dir, base + " --cache " + dir.file("one.sqlite") + " --out " + dir.file("one"));
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const auto asked =
      nlohmann::json::parse(read_file(dir.file("one/summary.json")))["answers_asked"].get<int>();
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
  EXPECT_EQ(read_file(dir.file("resumed/violations.jsonl")),
            read_file(dir.file("one/violations.jsonl")));
  EXPECT_EQ(without_answer_counts(summary),
            without_answer_counts(read_file(dir.file("one/summary.json"))));
}

}  // namespace
}  // namespace assay::fairness

namespace assay::fairness {
namespace {

// A model behind cmd: that writes every request it gets to LOG (one JSON line each) and answers
// "neg" for a text with "female" or "actress" in it, "pos" for any other: the texts `fair test`
// asks, read back by asked_texts().
std::string logging_model(const TempDir& dir, const std::string& log) {
  const auto script = dir.write("logging_model.sh",
                                "echo '{\"labels\": [\"neg\", \"pos\"]}'\n"
                                "while IFS= read -r line; do\n"
                                "  printf '%s\\n' \"$line\" >> \"$1\"\n"
                                "  [[ $line =~ \\\"id\\\":([0-9]+) ]] && id=${BASH_REMATCH[1]}\n"
                                "  if [[ $line == *female* || $line == *actress* ]]; then\n"
                                "    printf '{\"id\": %s, \"scores\": [0.9, 0.1]}\\n' \"$id\"\n"
                                "  else\n"
                                "    printf '{\"id\": %s, \"scores\": [0.1, 0.9]}\\n' \"$id\"\n"
                                "  fi\n"
                                "done\n");
  return "'cmd:/bin/bash " + script + " " + log + "'";
}

std::multiset<std::string> asked_texts(const std::string& log) {
  std::multiset<std::string> out;
  std::istringstream in(read_file(log));
  for (std::string line; std::getline(in, line);) out.insert(nlohmann::json::parse(line)["text"]);
  return out;
}

// The texts of every input and of its perturbations in `fair perturb`'s output.
std::multiset<std::string> perturb_texts(const std::string& jsonl) {
  std::multiset<std::string> out;
  std::istringstream in(jsonl);
  for (std::string line; std::getline(in, line);) {
    const auto j = nlohmann::json::parse(line);
    if (!j["mutable"].get<bool>()) continue;  // `fair test` asks nothing about these
    out.insert(j["text"].get<std::string>());
    for (const auto& p : j["perturbations"]) out.insert(p["text"].get<std::string>());
  }
  return out;
}

// A small word2vec text file for the gender analogies of the inputs below: each man/woman pair
// shares a dimension and differs on the gender one (man, woman: the attribute's anchors); the
// female words carry some noise, so that the analogies' cosines differ (actress 0.97, queen
// 0.99, sister 1.00, mother 0.89, waitress 0.76: --min-cosine 0.9 drops two).
std::string write_vectors(const TempDir& dir) {
  struct Row {
    const char* word;
    int dim, gender;
    double noise;
  };
  const Row rows[] = {
      {"man", 0, 1, 0},      {"woman", 0, -1, 0},    {"actor", 1, 1, 0},   {"actress", 1, -1, 0.3},
      {"king", 2, 1, 0},     {"queen", 2, -1, 0.2},  {"waiter", 3, 1, 0},  {"waitress", 3, -1, 1.0},
      {"brother", 4, 1, 0},  {"sister", 4, -1, 0.1}, {"father", 5, 1, 0},  {"mother", 5, -1, 0.6},
      {"director", 6, 1, 0}, {"film", 7, 0, 0},      {"movie", 7, 0, 0.4}, {"wonderful", 8, 0, 0}};
  std::string s = std::to_string(std::size(rows)) + " 12\n";
  for (const auto& r : rows) {
    double v[12] = {};
    v[r.dim] = 1;
    v[9] = r.noise;
    v[11] = 0.6 * r.gender;
    s += r.word;
    for (double x : v) {
      s += ' ';
      s += std::to_string(x);
    }
    s += '\n';
  }
  return dir.write("vectors.txt", s);
}

// Inputs with the nouns of write_vectors (and some without a vector, or without a person).
std::string vector_inputs(const TempDir& dir) {
  std::string texts;
  for (const char* noun :
       {"actor", "waiter", "king", "brother", "father", "mother", "queen", "director"}) {
    texts += std::string("the ") + noun + " was wonderful\n";
    texts += std::string("my ") + noun + " liked the film\n";
    texts += "the film was wonderful\n";
  }
  texts += "the king met the queen\nWe watched a teen movie.\n";
  return dir.write("vectors_in.txt", texts);
}

// --no-analogy and --no-active: the model is asked the originals and perturbations of the other
// kind only, violations.jsonl and summary.json count only that kind, and the texts asked are
// exactly those of `fair perturb` with the same option; so too for --noun-modifiers (which adds
// "a male teen movie") and word vectors with --min-cosine.
TEST(FairTestCommand, PerturbationOptionsAskTheTextsOfFairPerturb) {
  TempDir dir;
  const auto in = dir.write("in.txt",
                            "the actor was wonderful and the doctor smiled\n"
                            "We watched a teen movie.\n"
                            "my brother liked the waiter\nthe film was wonderful\n");
  const auto vectors = write_vectors(dir);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", ""},
      {"--no-analogy", "active"},
      {"--no-active", "analogy"},
      {"--noun-modifiers", ""},
      {"--vectors " + vectors + " --min-cosine 0.9 --gender-lexicon none", ""},
  };
  std::multiset<std::string> plain;
  for (std::size_t c = 0; c < cases.size(); ++c) {
    const auto& [options, only] = cases[c];
    SCOPED_TRACE(options);
    const std::string log = dir.file("asked" + std::to_string(c) + ".jsonl");
    const std::string out = dir.file("ft" + std::to_string(c));
    auto r = run_assay(dir, "fair test --model " + logging_model(dir, log) + " --input " + in +
                                " --out " + out + " " + options);
    ASSERT_EQ(r.exit_code, 1) << r.err;
    const auto asked = asked_texts(log);
    r = run_assay(dir, "fair perturb --quiet --input " + in + " " + options);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(asked, perturb_texts(r.out));
    EXPECT_GE(asked.size(), 3u);
    if (c == 0) {
      plain = asked;
    } else {
      EXPECT_NE(asked, plain);  // the option changed what was asked
    }
    if (options == "--noun-modifiers") {
      EXPECT_EQ(asked.count("We watched a male teen movie."), 1u);
    }
    if (only.empty()) continue;
    const auto summary = nlohmann::json::parse(read_file(out + "/summary.json"));
    ASSERT_EQ(summary["perturbations_by_kind"].size(), 1u) << summary.dump();
    EXPECT_GT(summary["perturbations_by_kind"][only].get<int>(), 0);
    ASSERT_EQ(summary["violations_by_kind"].size(), 1u) << summary.dump();
    std::istringstream v(read_file(out + "/violations.jsonl"));
    std::size_t n = 0;
    for (std::string line; std::getline(v, line); ++n)
      EXPECT_EQ(nlohmann::json::parse(line)["kind"], only) << line;
    EXPECT_EQ(n, summary["violations"].get<std::size_t>());
    EXPECT_GT(n, 0u);
  }
}

// With word vectors (the analogy searches of a chunk's person nouns run together, in one pass
// over the vectors): violations.jsonl and summary.json are the same bytes at 1 and 4 threads,
// and two shards merged give the bytes of one run.
TEST(FairTestCommand, WordVectorsOutputsDoNotDependOnThreadsOrShards) {
  TempDir dir;
  const std::string lr = testing::train_biased_lr(dir);
  ASSERT_FALSE(HasFailure());
  // Without the lexicon, which would answer before the vectors.
  const std::string base = "fair test --model lr:" + lr + " --input " + vector_inputs(dir) +
                           " --vectors " + write_vectors(dir) + " --gender-lexicon none --chunk 3";
  auto r = run_assay(
      dir, base + " --threads 1 --cache " + dir.file("one.sqlite") + " --out " + dir.file("one"));
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const auto violations = read_file(dir.file("one/violations.jsonl"));
  const auto summary = read_file(dir.file("one/summary.json"));
  // The analogies come from the vectors ("actor -> actress" is a violation of the biased LR).
  EXPECT_THAT(violations, HasSubstr("\"evidence\":\"vectors\""));
  EXPECT_THAT(violations, HasSubstr("the actress was wonderful"));
  EXPECT_GE(nlohmann::json::parse(summary)["perturbations_by_kind"]["analogy"].get<int>(), 8);

  r = run_assay(
      dir, base + " --threads 4 --cache " + dir.file("four.sqlite") + " --out " + dir.file("four"));
  ASSERT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(read_file(dir.file("four/violations.jsonl")), violations);
  EXPECT_EQ(without_answer_counts(read_file(dir.file("four/summary.json"))),
            without_answer_counts(summary));

  for (const char* shard : {"0/2", "1/2"}) {
    const std::string cache = dir.file(std::string("shard") + shard[0] + ".sqlite");
    r = run_assay(dir, base + " --threads 2 --shard " + shard + " --cache " + cache + " --out " +
                           dir.file("merged"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_THAT(r.err, HasSubstr("this shard is done"));
  }
  r = run_assay(dir, base + " --threads 2 --cache " + dir.file("merged.sqlite") + " --merge " +
                         dir.file("shard0.sqlite") + "," + dir.file("shard1.sqlite") + " --out " +
                         dir.file("merged"));
  ASSERT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.err, HasSubstr("0 run now"));
  EXPECT_EQ(read_file(dir.file("merged/violations.jsonl")), violations);
  EXPECT_EQ(without_answer_counts(read_file(dir.file("merged/summary.json"))),
            without_answer_counts(summary));
}

// Every perturbator option is part of a chunk's key: a cache whose chunks were run with the
// defaults gives none of them to a run with another value (every chunk runs again), and all of
// them to a rerun with the defaults.
TEST(FairTestCommand, EveryPerturbationOptionIsPartOfTheChunkKey) {
  TempDir dir;
  const std::string lr = testing::train_biased_lr(dir);
  ASSERT_FALSE(HasFailure());
  const auto vectors = write_vectors(dir);
  const std::string base = "fair test --model lr:" + lr + " --input " + vector_inputs(dir) +
                           " --chunk 13 --threads 1 --cache " + dir.file("c.sqlite") + " --out " +
                           dir.file("out") + " --vectors " + vectors;
  auto r = run_assay(dir, base);
  ASSERT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.err, HasSubstr("2 chunks of 13 inputs: 2 run now, 0 from"));
  r = run_assay(dir, base);
  EXPECT_THAT(r.err, HasSubstr("2 chunks of 13 inputs: 0 run now, 2 from"));
  for (const std::string option :
       {"--min-cosine 0.9", "--vectors-restrict 12", "--vectors-limit 15", "--no-strict",
        "--broad-persons", "--noun-modifiers", "--no-analogy", "--no-active", "--all-occurrences",
        "--choice rank", "--fluency-ratio 0.5", "--max-per-input 1",
        "--gate aeon --gate-action flag"}) {
    r = run_assay(dir, base + " " + option);
    EXPECT_THAT(r.err, HasSubstr("2 chunks of 13 inputs: 2 run now, 0 from")) << option;
  }
}

}  // namespace
}  // namespace assay::fairness
