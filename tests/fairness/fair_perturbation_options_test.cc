// One option vocabulary for the fairness commands: every option of `fair perturb`, `fair test`,
// `fair mitigate` and `fair serve` that is not one of the command's own (listed here) is an
// option of all four, with the same help entry (type, check, default, meaning); the input
// options are those of every command that reads --input; the model's options are those of
// every command that opens a model, `model predict` included. Read from the real binary's
// --help, so an option added to one command only makes this test fail until it is added to all
// of them or, deliberately, to that command's own list below.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>
#include <string>

#include "support/temp_dir.h"

namespace assay::fairness {
namespace {

using assay::testing::run_assay;
using assay::testing::TempDir;

// Each option of `assay COMMAND --help` by its long name, with its help entry: the
// option's line (name, type, check, default, and the description when it fits) and the
// lines that continue it. CLI11 starts an option's line with two spaces and a dash, and
// indents continuation lines further.
std::map<std::string, std::string> help_options(const TempDir& dir, const std::string& command) {
  const auto r = run_assay(dir, command + " --help");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::map<std::string, std::string> out;
  std::istringstream in(r.out);
  std::string line, name;
  while (std::getline(in, line)) {
    if (line.rfind("  -", 0) == 0) {
      // "  -h,--help   ...", "  --kg TEXT=wordnet   ...": the last name before the first blank.
      const std::string names = line.substr(2, line.find(' ', 2) - 2);
      name = names.substr(names.rfind(',') + 1);
      EXPECT_EQ(name.rfind("--", 0), 0u) << command << ": " << line;
      EXPECT_EQ(out.count(name), 0u) << command << ": " << name << " twice";
      out[name] = line.substr(2 + names.size()) + "\n";
    } else if (!name.empty() && line.rfind("   ", 0) == 0) {
      out[name] += line + "\n";
    } else {
      name.clear();
    }
  }
  return out;
}

// The gate's options: `fair perturb`, `fair test` and `fair mitigate` have them, `fair serve` not.
const std::set<std::string> kGateOptions = {
    "--gate",           "--gate-action", "--gate-task",    "--gate-sim",           "--gate-nat",
    "--gate-model-dir", "--gate-exact",  "--gate-vectors", "--gate-vectors-format"};

std::set<std::string> with_gate(std::set<std::string> own) {
  own.insert(kGateOptions.begin(), kGateOptions.end());
  return own;
}

// How every command that opens a model reaches it (the adapter's options).
const std::set<std::string> kAdapterOptions = {
    "--labels",        "--label-map",      "--timeout",     "--header",
    "--body-template", "--scores-pointer", "--concurrency", "--retries",
    "--ca-file",       "--restarts",       "--model-file"};

std::set<std::string> with(std::set<std::string> own, const std::set<std::string>& more) {
  own.insert(more.begin(), more.end());
  return own;
}

// The model under test through its answer cache: the adapter's options and these.
const std::set<std::string> kModelOptions =
    with({"--model", "--cache", "--budget", "--batch"}, kAdapterOptions);

// What each command has besides the shared options.
const std::map<std::string, std::set<std::string>> kOwnOptions = {
    {"perturb", with_gate({"--help", "--no-dropped", "--out", "--quiet", "--threads"})},
    {"test", with_gate(with({"--help", "--chunk", "--threads", "--quiet", "--out", "--shard",
                             "--merge", "--min-delta"},
                            kModelOptions))},
    {"mitigate",
     with_gate(with({"--help", "--chunk", "--threads", "--quiet", "--out", "--epsilon", "--max-k",
                     "--shard", "--merge", "--adversarial-train", "--adversarial-text-column",
                     "--adversarial-label-column", "--adversarial-c", "--adversarial-model-out"},
                    kModelOptions))},
    {"serve", with_gate(with({"--help", "--upstream", "--epsilon", "--max-k", "--max-batch",
                              "--model-name", "--listen", "--max-body", "--deadline-ms",
                              "--max-concurrent", "--max-connections", "--read-timeout-ms",
                              "--idle-timeout-ms", "--backlog", "--cache", "--quiet"},
                             kAdapterOptions))},
};

// How a command reads --input; `fair serve` perturbs the texts of its requests instead.
const std::set<std::string> kInputOptions = {
    "--input", "--input-format", "--text-column", "--label-column", "--latin1", "--max-line-bytes"};

// What decides the perturbations (at least these; the test takes the shared set from the
// commands themselves).
const std::set<std::string> kPerturbationOptions = {"--attribute",       "--kg",
                                                    "--vectors",         "--vectors-format",
                                                    "--vectors-limit",   "--vectors-restrict",
                                                    "--min-cosine",      "--no-strict",
                                                    "--choice",          "--ngram-model",
                                                    "--fluency-ratio",   "--max-per-input",
                                                    "--all-occurrences", "--broad-persons",
                                                    "--noun-modifiers",  "--no-analogy",
                                                    "--no-active",       "--wordnet-dir",
                                                    "--tagger-dir"};

TEST(FairPerturbationOptions, EveryFairnessCommandAcceptsTheSameOptions) {
  TempDir dir;
  const auto perturb = help_options(dir, "fair perturb");
  std::map<std::string, std::map<std::string, std::string>> shared;
  for (const auto& [command, own] : kOwnOptions) {
    SCOPED_TRACE("fair " + command);
    const auto options = command == "perturb" ? perturb : help_options(dir, "fair " + command);
    ASSERT_GT(options.size(), own.size());
    for (const auto& o : own) EXPECT_EQ(options.count(o), 1u) << o << " (own option) is gone";
    const bool reads_input = command != "serve";
    for (const auto& [name, entry] : options) {
      if (own.count(name)) continue;
      if (!kInputOptions.count(name)) {
        shared[command][name] = entry;
      } else if (!reads_input) {
        ADD_FAILURE() << name << " on a command that reads no --input";
      }
    }
    if (reads_input) {
      for (const auto& name : kInputOptions) {
        ASSERT_EQ(options.count(name), 1u) << name;
        EXPECT_EQ(options.at(name), perturb.at(name)) << name;
      }
    }
  }
  // The shared set: that of fair perturb, a superset of the list above, the same in each.
  const auto& expected = shared["perturb"];
  for (const auto& name : kPerturbationOptions) EXPECT_EQ(expected.count(name), 1u) << name;
  for (const auto& [command, options] : shared) {
    for (const auto& [name, entry] : expected) {
      ASSERT_EQ(options.count(name), 1u) << "fair " << command << " lacks " << name;
      EXPECT_EQ(options.at(name), entry) << "fair " << command << " " << name;
    }
    for (const auto& [name, entry] : options)
      EXPECT_EQ(expected.count(name), 1u) << "only fair " << command << " has " << name;
  }
}

// `model predict`, `fair test`, `fair mitigate` and `fair serve` open a model under test: each
// has every adapter option with the same help entry, and every input option of `fair perturb`
// (but `fair serve`, which reads no file). `fair serve` differs only in three defaults: its
// answers have a deadline (--timeout), ask max-k + 1 texts at once (--concurrency) and retry
// once (--retries).
TEST(FairPerturbationOptions, EveryCommandThatOpensAModelAcceptsTheSameModelOptions) {
  TempDir dir;
  const auto predict = help_options(dir, "model predict");
  const auto perturb = help_options(dir, "fair perturb");
  for (const auto& name : with(kModelOptions, kInputOptions)) {
    ASSERT_EQ(predict.count(name), 1u) << "model predict lacks " << name;
    if (kInputOptions.count(name)) {
      EXPECT_EQ(predict.at(name), perturb.at(name)) << name;
    }
  }
  for (const char* command : {"fair test", "fair mitigate", "fair serve"}) {
    SCOPED_TRACE(command);
    const auto options = help_options(dir, command);
    const bool serve = std::string(command) == "fair serve";
    for (const auto& name : serve ? kAdapterOptions : kModelOptions) {
      ASSERT_EQ(options.count(name), 1u) << name;
      if (serve && (name == "--timeout" || name == "--concurrency" || name == "--retries")) {
        EXPECT_EQ(options.at(name).substr(0, options.at(name).find('=')),
                  predict.at(name).substr(0, predict.at(name).find('=')))
            << name;
        continue;
      }
      EXPECT_EQ(options.at(name), predict.at(name)) << name;
    }
  }
}

}  // namespace
}  // namespace assay::fairness
