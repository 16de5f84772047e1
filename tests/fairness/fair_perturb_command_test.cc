#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "support/temp_dir.h"

namespace assay::fairness {
namespace {

using assay::testing::run_assay;
using assay::testing::TempDir;
using ::testing::HasSubstr;

std::vector<nlohmann::json> lines_of(const std::string& out) {
  std::vector<nlohmann::json> v;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) v.push_back(nlohmann::json::parse(line));
  return v;
}

TEST(FairPerturbCommand, JsonLinePerInputTsvAndErrors) {
  TempDir dir;
  const auto in = dir.write("in.tsv", "The actor met a doctor.\t1\n\nA film without people.\t0\n");
  auto r = run_assay(dir, "fair perturb --quiet --input-format tsv-no-header --input " + in);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = lines_of(r.out);
  ASSERT_EQ(j.size(), 3u);
  EXPECT_EQ(j[0]["label"], "1");
  EXPECT_TRUE(j[0]["mutable"].get<bool>());
  const auto& ps = j[0]["perturbations"];
  ASSERT_EQ(ps.size(), 3u);  // actress; male doctor; female doctor
  EXPECT_EQ(ps[0]["text"], "The actress met a doctor.");
  EXPECT_EQ(ps[0]["kind"], "analogy");
  EXPECT_EQ(ps[0]["spans"][0]["begin"], 4);
  EXPECT_EQ(ps[1]["kind"], "active");
  EXPECT_EQ(j[1]["text"], "");  // the empty line is an input, not mutable
  EXPECT_FALSE(j[1]["mutable"].get<bool>());
  EXPECT_FALSE(j[2]["mutable"].get<bool>());

  // The summary on stderr counts the empty line.
  r = run_assay(dir, "fair perturb --input-format tsv-no-header --input " + in + " --out " +
                         dir.file("o.jsonl"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("3 inputs (1 empty), 1 mutable"));

  // Bad input: file:line, exit 2, no output file.
  const auto bad = dir.write("bad.txt", "The actor.\nbad \xff byte\n");
  r = run_assay(dir, "fair perturb --input " + bad + " --out " + dir.file("bad.jsonl"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("bad.txt:2:5: invalid UTF-8"));
  EXPECT_FALSE(std::filesystem::exists(dir.file("bad.jsonl")));
  EXPECT_EQ(r.out, "");
  const auto big = dir.write("big.txt", "The actor.\n" + std::string(10 << 20, 'x') + "\n");
  r = run_assay(dir, "fair perturb --input " + big);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("big.txt:2"));
  EXPECT_EQ(r.out, "");
  const auto attr = dir.write("x.attr", "attribute x\ngroups a b\nactive A\n");
  r = run_assay(dir, "fair perturb --input " + in + " --attribute " + attr);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("x.attr:3"));
}

// A person noun that only modifies the next noun gets no adjective ("a male teen movie");
// --noun-modifiers inserts it anyway.
TEST(FairPerturbCommand, NounModifiersOnlyWithTheFlag) {
  TempDir dir;
  const auto in = dir.write("in.txt", "We watched a teen movie.\nThe director said so.\n");
  auto r = run_assay(dir, "fair perturb --quiet --no-dropped --input " + in);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = lines_of(r.out);
  ASSERT_EQ(j.size(), 2u);
  EXPECT_FALSE(j[0]["mutable"].get<bool>());
  EXPECT_EQ(j[1]["perturbations"].size(), 2u);  // female director, male director
  r = run_assay(dir, "fair perturb --quiet --no-dropped --noun-modifiers --input " + in);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  j = lines_of(r.out);
  ASSERT_EQ(j[0]["perturbations"].size(), 2u);
  EXPECT_EQ(j[0]["perturbations"][0]["text"], "We watched a male teen movie.");
  EXPECT_EQ(j[1]["perturbations"].size(), 2u);
}

// A noun that speaks of people in general takes no inserted group; the dropped candidate names
// the check, and --skip-check switches it off by that name (an unknown name is exit 2).
TEST(FairPerturbCommand, ChecksNameWhatTheyDropAndCanBeSkipped) {
  TempDir dir;
  const auto in = dir.write("in.txt", "Students should bring their own lunch.\n");
  auto r = run_assay(dir, "fair perturb --quiet --input " + in);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = lines_of(r.out);
  ASSERT_EQ(j.size(), 1u);
  EXPECT_TRUE(j[0]["perturbations"].empty()) << r.out;
  EXPECT_NE(r.out.find("bare-plural: a plural without a determiner"), std::string::npos) << r.out;
  r = run_assay(dir, "fair perturb --quiet --skip-check bare-plural,modal-statement --input " + in);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  j = lines_of(r.out);
  ASSERT_EQ(j[0]["perturbations"].size(), 2u) << r.out;
  EXPECT_EQ(j[0]["perturbations"][0]["text"], "Male students should bring their own lunch.");
  r = run_assay(dir, "fair perturb --quiet --skip-check bare-plurals --input " + in);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown check 'bare-plurals'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("bare-plural, habitual"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
}

TEST(FairPerturbCommand, CsvAllOccurrencesAndAttributeFile) {
  TempDir dir;
  const auto in = dir.write("in.csv", "id,review\n1,\"The priest met the priest's friend.\"\n");
  auto r = run_assay(dir,
                     "fair perturb --quiet --text-column review --attribute religion "
                     "--all-occurrences --no-active --input " +
                         in);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = lines_of(r.out);
  ASSERT_EQ(j.size(), 1u);
  std::vector<std::string> got;
  for (const auto& p : j[0]["perturbations"]) got.push_back(p["text"]);
  EXPECT_THAT(got, ::testing::Contains("The imam met the imam's friend."));
}

}  // namespace
}  // namespace assay::fairness

namespace assay::fairness {
namespace {

// --gate aeon: AEON's offline scores on every perturbation; with the paper's thresholds
// (calibrated for BERT) the offline backends fail these cases, so "flag" marks them and
// "drop" moves them to the dropped list with AEON's reason.
TEST(FairPerturbCommand, AeonGateFlagsOrDrops) {
  TempDir dir;
  const auto in = dir.write("in.txt", "The actor was great.\n");
  auto r = run_assay(dir,
                     "fair perturb --quiet --no-active --gate aeon --gate-action flag "
                     "--input " +
                         in);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = lines_of(r.out);
  ASSERT_EQ(j.size(), 1u);
  ASSERT_EQ(j[0]["perturbations"].size(), 1u);
  const auto& aeon = j[0]["perturbations"][0]["aeon"];
  EXPECT_GT(aeon["SemEval"].get<double>(), 0.5);
  EXPECT_FALSE(aeon["keep"].get<bool>());
  EXPECT_THAT(aeon["reason"].get<std::string>(), HasSubstr("SynEval"));
  // Offline, the default action is flag (the offline scores do not separate right from wrong).
  r = run_assay(dir, "fair perturb --quiet --no-active --gate aeon --input " + in);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(lines_of(r.out)[0]["perturbations"].size(), 1u);
  r = run_assay(dir,
                "fair perturb --quiet --no-active --gate aeon --gate-action drop --input " + in);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  j = lines_of(r.out);
  EXPECT_EQ(j[0]["perturbations"].size(), 0u);
  bool reason = false;
  for (const auto& d : j[0]["dropped"])
    reason |= d["reason"].get<std::string>().rfind("aeon: ", 0) == 0;
  EXPECT_TRUE(reason);
  // Dropping more than 90 % is said on stderr, even with --quiet; flagging is not dropping.
  EXPECT_THAT(r.err, HasSubstr("warning: the aeon gate dropped 1 of 1 perturbations (100%)"));
  EXPECT_THAT(r.err, HasSubstr("may not suit the offline scores"));
  r = run_assay(dir,
                "fair perturb --quiet --no-active --gate aeon --gate-action flag --input " + in);
  EXPECT_THAT(r.err, ::testing::Not(HasSubstr("warning")));
  r = run_assay(dir, "fair perturb --no-active --gate aeon --gate-action flag --input " + in);
  EXPECT_THAT(r.err, HasSubstr("aeon gate: 1 perturbations scored, 1 kept, 0 dropped, 1 flagged"));
  r = run_assay(dir, "fair perturb --gate bert --input " + in);
  EXPECT_EQ(r.exit_code, 2);
}

// Options that mean nothing alone or together are refused before any work, and nothing is
// written.
TEST(FairPerturbCommand, OptionsThatNeedOrExcludeAnotherAreRefused) {
  TempDir dir;
  const auto in = dir.write("in.txt", "The actor smiled.\n");
  const std::string out = " --out " + dir.file("o.jsonl");
  for (const std::string gate_option :
       {"--gate-sim 0.9", "--gate-nat 0.1", "--gate-action flag", "--gate-task sa", "--gate-exact",
        "--gate-model-dir d", "--gate-vectors v.txt", "--gate-vectors-format glove"}) {
    const auto r = run_assay(dir, "fair perturb --input " + in + " " + gate_option + out);
    EXPECT_EQ(r.exit_code, 2) << gate_option;
    EXPECT_THAT(r.err, HasSubstr("requires --gate")) << gate_option;
  }
  for (const std::string vector_option :
       {"--vectors-format glove", "--vectors-limit 10", "--vectors-restrict 10", "--min-cosine 0.5",
        "--no-strict"}) {
    const auto r = run_assay(dir, "fair perturb --input " + in + " " + vector_option + out);
    EXPECT_EQ(r.exit_code, 2) << vector_option;
    EXPECT_THAT(r.err, HasSubstr("requires --vectors")) << vector_option;
  }
  auto r = run_assay(dir, "fair perturb --input " + in + " --no-analogy --no-active" + out);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--no-analogy excludes --no-active"));
  r = run_assay(dir, "fair test --model lr:x.lr --input " + in + " --no-active --no-analogy");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("excludes"));
  EXPECT_FALSE(std::filesystem::exists(dir.file("o.jsonl")));
  // Each alone is fine.
  r = run_assay(dir,
                "fair perturb --quiet --input " + in + " --no-active --gate aeon --gate-sim 0.5");
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

// The gate reads the perturbator's trigram (one lm::SphinxTrie for fluency and SynEval): the
// perturbations and their fluency are those of a run without the gate, and the default
// (separable) SynEval is within 2e-4 relative of --gate-exact's.
// Inputs are perturbed and gated on --threads; the bytes written do not depend on how many,
// nor does a bad input's error (every input is read and checked before any is perturbed).
TEST(FairPerturbCommand, OutputsDoNotDependOnThreads) {
  TempDir dir;
  std::string text;
  const char* sentences[] = {"The actor was great and his brother loved the film.",
                             "My mother said the waiter was rude to the old man.",
                             "A king and his son walked into the kitchen of the restaurant.",
                             "the nurse told her daughter a story",
                             "nothing about people here",
                             "The waitress and the doctor argued about the bill."};
  for (int copy = 0; copy < 700; ++copy)
    text += std::string(sentences[copy % 6]) + "\n";  // > one chunk
  const auto in = dir.write("in.txt", text);
  std::string first;
  for (const char* threads : {"1", "2", "4"}) {
    const auto r = run_assay(dir, "fair perturb --quiet --input " + in +
                                      " --gate aeon --gate-action flag --threads " + threads);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    if (first.empty()) first = r.out;
    EXPECT_EQ(r.out, first) << "--threads " << threads;
  }
  EXPECT_EQ(lines_of(first).size(), 700u);
  EXPECT_NE(first.find("\"aeon\""), std::string::npos);
  // A line too long for --max-line-bytes late in the file: the same error at any thread count.
  const auto bad = dir.write("bad.txt", text + std::string(300, 'a') + "\n");
  for (const char* threads : {"1", "4"}) {
    const auto r = run_assay(
        dir, "fair perturb --quiet --max-line-bytes 200 --input " + bad + " --threads " + threads);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_THAT(r.err, ::testing::HasSubstr(":701")) << r.err;
    EXPECT_TRUE(r.out.empty());
  }
}

TEST(FairPerturbCommand, AeonGateSharesTheTrigramAndStaysNearExact) {
  TempDir dir;
  const auto in = dir.write("in.txt",
                            "The actor was great and his brother loved the film.\n"
                            "My mother said the waiter was rude to the old man.\n"
                            "A king and his son walked into the kitchen of the restaurant.\n");
  const std::string base = "fair perturb --quiet --no-dropped --input " + in;
  auto plain = run_assay(dir, base);
  auto gated = run_assay(dir, base + " --gate aeon --gate-action flag");
  auto exact = run_assay(dir, base + " --gate aeon --gate-action flag --gate-exact");
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  ASSERT_EQ(gated.exit_code, 0) << gated.err;
  ASSERT_EQ(exact.exit_code, 0) << exact.err;
  auto p = lines_of(plain.out), g = lines_of(gated.out), e = lines_of(exact.out);
  ASSERT_EQ(p.size(), 3u);
  ASSERT_EQ(g.size(), 3u);
  ASSERT_EQ(e.size(), 3u);
  std::size_t n = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    ASSERT_EQ(g[i]["perturbations"].size(), p[i]["perturbations"].size());
    for (std::size_t k = 0; k < p[i]["perturbations"].size(); ++k) {
      auto gp = g[i]["perturbations"][k];
      const double syn = gp["aeon"]["SynEval"].get<double>();
      const double syn_exact = e[i]["perturbations"][k]["aeon"]["SynEval"].get<double>();
      EXPECT_NEAR(syn, syn_exact, 2e-4 * syn_exact);
      EXPECT_EQ(gp["aeon"]["keep"], e[i]["perturbations"][k]["aeon"]["keep"]);
      gp.erase("aeon");
      EXPECT_EQ(gp, p[i]["perturbations"][k]);  // text, record and fluency unchanged
      ++n;
    }
    EXPECT_EQ(g[i]["fluency"], p[i]["fluency"]);
  }
  EXPECT_GE(n, 3u);
}

}  // namespace
}  // namespace assay::fairness

namespace assay::fairness {
namespace {

// The knowledge graph from a ConceptNet dump (the handcrafted one of tests/data/knowledge,
// copied so that its cache is written in the temporary directory; without the lexicon, which
// would answer first), and a vector file whose
// lines disagree with its header.
TEST(FairPerturbCommand, ConceptNetGraphAndBadVectorFile) {
  TempDir dir;
  const auto dump =
      dir.write("cn.csv", assay::testing::read_file(std::string(ASSAY_TEST_DATA_DIR) +
                                                    "/knowledge/conceptnet-mini.csv"));
  const auto in = dir.write("in.txt", "The king met the actor.\n");
  auto r = run_assay(
      dir, "fair perturb --quiet --no-dropped --gender-lexicon none --kg conceptnet:" + dump +
               " --input " + in);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = lines_of(r.out);
  ASSERT_EQ(j.size(), 1u);
  std::vector<std::string> got;
  for (const auto& p : j[0]["perturbations"]) got.push_back(p["text"]);
  EXPECT_THAT(got, ::testing::Contains("The queen met the actor."));
  EXPECT_THAT(got, ::testing::Contains("The king met the female actor."));

  const auto vec = dir.write("v.txt", "2 3\nking 1 2 3\nqueen 1 2\n");
  r = run_assay(
      dir, "fair perturb --vectors " + vec + " --input " + in + " --out " + dir.file("o.jsonl"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("v.txt:3"));
  EXPECT_FALSE(std::filesystem::exists(dir.file("o.jsonl")));
}

}  // namespace
}  // namespace assay::fairness
