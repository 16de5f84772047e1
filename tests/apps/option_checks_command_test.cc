// End-to-end tests of the checked numeric options (apps/assay/option_checks.h) through the real
// binary: a negative, zero (where zero means nothing), huge, fractional or non-finite value of a
// count or threshold option is a usage error (exit 2) naming the option, before any file is read.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "support/temp_dir.h"

namespace {

using assay::testing::run_assay;
using assay::testing::TempDir;
using ::testing::HasSubstr;
using ::testing::Not;

struct Case {
  std::string command;  // everything the command requires, with dummy paths
  std::string option;
  std::vector<std::string> bad;
};

std::vector<Case> cases(const TempDir& dir) {
  const std::string x = dir.file("missing");
  return {
      {"rec recommend --data csv:" + x + " --algorithm user-user",
       "--threads",
       {"-2", "0", "5000", "nan", "1.5", "99999999999999999999999"}},
      {"rec recommend --data csv:" + x + " --algorithm user-user", "--top-k", {"-1", "0"}},
      {"rec fuzz --data csv:" + x + " --algorithm user-user --heuristic AMU",
       "--size",
       {"-1", "nan"}},
      {"rec fuzz --data csv:" + x + " --algorithm user-user --heuristic AMU",
       "--trials",
       {"-1", "0", "99999999999"}},
      {"rec fuzz --data csv:" + x + " --algorithm user-user --heuristic AMU",
       "--delta",
       {"nan", "inf", "abc", "-1"}},
      {"rec campaign --data csv:" + x + " --store " + x + " --out " + x,
       "--noise-trials",
       {"-1", "nan"}},
      {"rec campaign --data csv:" + x + " --store " + x + " --out " + x,
       "--sizes",
       {"1,-2", "1,nan"}},
      {"rec campaign --data csv:" + x + " --store " + x + " --out " + x, "--delta", {"nan"}},
      {"rec replay --data csv:" + x + " --mods " + x, "--threads", {"-2", "0"}},
      {"vectors analogy --vectors " + x + " --a a --b b --c c", "--top-k", {"-1", "0"}},
      {"vectors analogy --vectors " + x + " --a a --b b --c c", "--restrict", {"-1"}},
      {"model predict --model lr:" + x + " --input " + x, "--budget", {"-1"}},
      {"model predict --model lr:" + x + " --input " + x, "--batch", {"-1", "0"}},
      {"model predict --model lr:" + x + " --input " + x, "--concurrency", {"0", "100000"}},
      {"model predict --model lr:" + x + " --input " + x, "--timeout", {"nan", "0", "-1"}},
      {"model train-lr --train " + x + " --out " + x, "--c", {"nan", "0", "inf"}},
      {"aeon eval --annotations " + x + " --metric semeval", "--threshold", {"nan", "inf"}},
      {"aeon score --pairs " + x, "--threads", {"-1", "0", "5000"}},
      {"fair perturb --input " + x, "--min-cosine", {"nan", "2"}},
      {"fair perturb --input " + x, "--max-per-input", {"-1"}},
      {"fair test --model lr:" + x + " --input " + x + " --out " + x, "--batch", {"-1", "0"}},
      {"fair test --model lr:" + x + " --input " + x + " --out " + x,
       "--fluency-ratio",
       {"nan", "-1"}},
      {"fair mitigate --model lr:" + x + " --input " + x + " --out " + x,
       "--epsilon",
       {"0.1,nan", "-1"}},
      // The perturbation and input options of fair perturb, shared by the other fair commands.
      {"fair test --model lr:" + x + " --input " + x + " --out " + x,
       "--min-cosine",
       {"nan", "1.5"}},
      {"fair mitigate --model lr:" + x + " --input " + x + " --out " + x,
       "--max-line-bytes",
       {"0", "-1"}},
      {"fair serve --upstream lr:" + x + " --epsilon 0.1", "--vectors-limit", {"-1", "1.5"}},
      {"fair perturb --input " + x, "--vectors-restrict", {"-1", "1.5"}},
      {"fair test --model lr:" + x + " --input " + x + " --out " + x, "--seed", {"-1", "1.5"}},
      // The model's options, the same in every command that opens a model.
      {"fair test --model lr:" + x + " --input " + x + " --out " + x,
       "--concurrency",
       {"0", "100000"}},
      {"fair mitigate --model lr:" + x + " --input " + x + " --out " + x,
       "--timeout",
       {"nan", "0", "-1"}},
      {"fair serve --upstream lr:" + x + " --epsilon 0.1", "--timeout", {"nan", "0"}},
      {"fair serve --upstream lr:" + x + " --epsilon 0.1", "--concurrency", {"0", "1.5"}},
      {"model predict --model lr:" + x + " --input " + x, "--max-line-bytes", {"0", "-1"}},
      {"text tag --input " + x, "--max-line-bytes", {"0", "-1", "1.5"}},
      {"lm score --input " + x, "--max-line-bytes", {"0", "-1", "1.5"}},
  };
}

TEST(OptionChecksCommand, BadValuesAreUsageErrorsNamingTheOption) {
  TempDir dir;
  for (const Case& c : cases(dir)) {
    for (const std::string& v : c.bad) {
      SCOPED_TRACE(c.command + " " + c.option + " " + v);
      // "--opt=VALUE" so that CLI11 never takes a leading '-' for another option.
      const auto r = run_assay(dir, c.command + " " + c.option + "=" + v);
      EXPECT_EQ(r.exit_code, 2) << r.err;
      EXPECT_THAT(r.err, HasSubstr(c.option)) << r.err;
      EXPECT_THAT(r.err, HasSubstr("must be")) << r.err;
      // The message quotes the rejected element (the last one of a list here).
      std::string quoted = "'";
      quoted.append(v, v.rfind(',') + 1).push_back('\'');
      EXPECT_THAT(r.err, HasSubstr(quoted)) << r.err;
    }
  }
}

// CLI11 drops the empty items of a list: "1,,2" would run as "1,2" and "1," as "1".
TEST(OptionChecksCommand, EmptyItemsInAListAreRejected) {
  TempDir dir;
  const std::string x = dir.file("missing");
  const std::string mitigate = "fair mitigate --model lr:" + x + " --input " + x + " --out " + x;
  const std::string campaign = "rec campaign --data csv:" + x + " --store " + x + " --out " + x;
  for (const auto& [command, option, value] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {mitigate, "--epsilon", "1,,2"},
           {mitigate, "--epsilon", ",1"},
           {campaign, "--sizes", "1,"},
           {campaign, "--heuristics", "AMU,,ARAND"}}) {
    for (const std::string& spelled : {option + " " + value, option + "=" + value}) {
      SCOPED_TRACE(spelled);
      const auto r = run_assay(dir, command + " " + spelled);
      EXPECT_EQ(r.exit_code, 2) << r.err;
      EXPECT_THAT(r.err, HasSubstr(option + ": an empty item in '" + value + "'")) << r.err;
    }
  }
}

// Options that mean nothing alone, and an empty name where a directory is read: exit 2 with
// what is expected, before any work.
TEST(OptionChecksCommand, OptionsThatNeedAnotherAndEmptyNamesAreRefused) {
  TempDir dir;
  const std::string x = dir.file("missing");
  const auto report = run_assay(dir, "fair report --in '' --out " + dir.file("r.html"));
  EXPECT_EQ(report.exit_code, 2) << report.err;
  EXPECT_THAT(report.err, HasSubstr("--in: expected a directory, got an empty name"));
  const auto portfolio =
      run_assay(dir,
                "rec fuzz --data synthetic:users=20,items=20,ratings=100 --algorithm user-user "
                "--heuristic ARAND --portfolio AMU,ALI");
  EXPECT_EQ(portfolio.exit_code, 2) << portfolio.err;
  EXPECT_THAT(portfolio.err, HasSubstr("it needs the heuristic APORTFOLIO, got ARAND"));
  const auto model_out =
      run_assay(dir, "fair mitigate --model lr:" + x + " --input " + x + " --out " + dir.file("m") +
                         " --adversarial-model-out " + dir.file("lr.json"));
  EXPECT_EQ(model_out.exit_code, 2) << model_out.err;
  EXPECT_THAT(model_out.err, HasSubstr("--adversarial-model-out requires --adversarial-train"));
}

TEST(OptionChecksCommand, NegativeValueAsSeparateArgumentIsRejected) {
  TempDir dir;
  const auto r = run_assay(dir, "rec recommend --data csv:" + dir.file("missing") +
                                    " --algorithm user-user --threads -2");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--threads"));
}

TEST(OptionChecksCommand, ErrorStatesTheBound) {
  TempDir dir;
  const auto r = run_assay(dir, "rec recommend --data csv:" + dir.file("missing") +
                                    " --algorithm user-user --threads 5000");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("[1, 4096]"));
}

TEST(OptionChecksCommand, GoodValuesPassTheCheck) {
  // In-range values get past option parsing: the command then fails on the missing file, with
  // a message that is not about the option.
  TempDir dir;
  const std::string x = dir.file("missing");
  for (const std::string& args :
       {"rec recommend --data csv:" + x + " --algorithm user-user --threads 4096 --top-k 1",
        "rec fuzz --data csv:" + x + " --algorithm user-user --heuristic AMU --delta 0 --size 1",
        "vectors analogy --vectors " + x + " --a a --b b --c c --top-k 3 --restrict 0",
        "fair perturb --input " + x + " --vectors " + x +
            " --min-cosine -0.5 --max-per-input 0 --fluency-ratio 0",
        "model train-lr --train " + x + " --out " + x + " --c 1e-3"}) {
    SCOPED_TRACE(args);
    const auto r = run_assay(dir, args);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_THAT(r.err, Not(HasSubstr("must be"))) << r.err;
  }
}

// The stores and caches a command reuses are checked while the options are parsed, like --out,
// not when first opened after the inputs and models are loaded: with every input missing, the
// error is about the store or cache option.
TEST(OptionChecksCommand, StoresAndCachesAreCheckedBeforeAnyWork) {
  TempDir dir;
  const std::string x = dir.file("missing");
  const std::vector<std::pair<std::string, std::string>> commands = {
      {"model predict --model lr:" + x + " --input " + x, "--cache"},
      {"fair test --model lr:" + x + " --input " + x + " --out " + x, "--cache"},
      {"fair mitigate --model lr:" + x + " --input " + x + " --out " + x, "--cache"},
      {"fair serve --upstream lr:" + x + " --epsilon 0.1", "--cache"},
      {"rec campaign --data csv:" + x + " --out " + x, "--store"},
      {"kg query --word a --kg conceptnet:" + x, "--kg-cache"},
  };
  const std::vector<std::pair<std::string, std::string>> bad = {
      {dir.path().string(), "it is a directory"},
      {dir.file("no/such/file.db"), "does not exist"},
      {"/dev/null", "it is a device"},
  };
  for (const auto& [command, option] : commands) {
    for (const auto& [value, why] : bad) {
      SCOPED_TRACE(command + " " + option + " " + value);
      const auto r = run_assay(dir, command + " " + option + " " + value);
      EXPECT_EQ(r.exit_code, 2) << r.err;
      EXPECT_THAT(r.err, HasSubstr(option)) << r.err;
      EXPECT_THAT(r.err, HasSubstr(value + ": cannot use as a")) << r.err;
      EXPECT_THAT(r.err, HasSubstr(why)) << r.err;
    }
  }
}

}  // namespace
