// The model options and the input reader of `fair test` and `fair mitigate`, through the real
// binary against real models: the scikit-learn pipeline of tests/data/models/sklearn_server.py
// served over HTTP (an http: model given --labels, --scores-pointer, --body-template,
// --concurrency, --timeout and --retries), a cmd: child that writes a line to a log each time
// it starts (a fully cached rerun must not start it), and the built-in LR against input files
// whose gold labels are 0/1 while the model answers neg/pos.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "biased_lr.h"
#include "models/server_process.h"
#include "support/temp_dir.h"

namespace assay::fairness {
namespace {

using assay::testing::read_file;
using assay::testing::run_assay;
using assay::testing::TempDir;
using ::testing::HasSubstr;
using ::testing::Not;

const std::string kModelsData = std::string(ASSAY_TEST_DATA_DIR) + "/models";

std::size_t count_lines(const std::string& text) {
  std::size_t n = 0;
  for (char c : text) n += c == '\n';
  return n;
}

// An http: model: scikit-learn behind HTTP, answering a batch per request. `fair test` finds
// the violations the cmd: form of the same script finds; `fair mitigate` measures it too. An
// http: model without --labels or --label-map is refused with a hint naming options the
// command has.
TEST(FairModelOptionsCommand, HttpModelThroughFairTestAndMitigate) {
  if (std::system("/usr/bin/python3 -c 'import sklearn' >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "/usr/bin/python3 has no sklearn (python3-sklearn)";
  TempDir dir;
  const auto train = testing::write_biased_train_tsv(dir);  // sklearn_server.py reads it too
  assay::testing::ServerProcess server(
      {"/usr/bin/python3", kModelsData + "/sklearn_server.py", "--train", train, "--http", "0"});
  const auto in = dir.write(
      "in.txt", "the actor was wonderful and the doctor smiled\n\nthe film was wonderful\n");
  const std::string http = " --model http:" + server.url() +
                           " --labels neg,pos --scores-pointer /scores"
                           " --body-template '{\"texts\": {texts}}' --concurrency 2"
                           " --timeout 30 --retries 0 --input " +
                           in;
  auto r = run_assay(dir, "fair test" + http + " --cache " + dir.file("http.sqlite") + " --out " +
                              dir.file("http"));
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const auto s = nlohmann::json::parse(read_file(dir.file("http/summary.json")));
  EXPECT_THAT(s["model"].get<std::string>(), HasSubstr("http:"));
  EXPECT_EQ(s["answers_asked"], 4);  // the original and its three perturbations
  // The same script as a cmd: child gives the same violations.
  const std::string cmd = " --model 'cmd:/usr/bin/python3 " + kModelsData +
                          "/sklearn_server.py --train " + train + "' --input " + in;
  r = run_assay(dir, "fair test" + cmd + " --out " + dir.file("cmd"));
  ASSERT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(read_file(dir.file("http/violations.jsonl")),
            read_file(dir.file("cmd/violations.jsonl")));

  r = run_assay(dir, "fair mitigate" + http + " --epsilon 0.1,10 --out " + dir.file("m"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto m = nlohmann::json::parse(read_file(dir.file("m/mitigation.json")));
  EXPECT_EQ(m["violations_before"], s["violations"]);
  EXPECT_EQ(m["epsilons"][1]["violations"], s["violations"]);

  for (const char* command : {"fair test", "fair mitigate"}) {
    r = run_assay(dir, std::string(command) + " --model http:" + server.url() + " --input " + in +
                           " --out " + dir.file("bare"));
    EXPECT_EQ(r.exit_code, 2) << command;
    EXPECT_THAT(r.err, HasSubstr("needs its labels (the order of its scores) or a label map"));
    EXPECT_FALSE(std::filesystem::exists(dir.file("bare/summary.json")));
  }
}

// A cmd: child that logs each start. The first run starts it once, `fair mitigate` once more
// for the neighbourhoods; a rerun of `fair test`, `fair mitigate` and `model predict` through
// the same cache answers everything from it and starts no process.
TEST(FairModelOptionsCommand, FullyCachedRerunStartsNoModelProcess) {
  TempDir dir;
  const auto log = dir.file("starts.log");
  const std::string spec = "'cmd:/bin/sh -c \"echo started >> " + log + "; exec /usr/bin/python3 " +
                           kModelsData + "/fault_child.py ok\"'";
  const auto in = dir.write("in.txt", "the actor was wonderful and the doctor smiled\n");
  const std::string common =
      " --model " + spec + " --input " + in + " --cache " + dir.file("c.sqlite");
  auto r = run_assay(dir, "fair test" + common + " --out " + dir.file("one"));
  ASSERT_EQ(r.exit_code, 0) << r.err;  // the child answers the same scores for every text
  EXPECT_EQ(count_lines(read_file(log)), 1u);
  const auto first = nlohmann::json::parse(read_file(dir.file("one/summary.json")));
  EXPECT_EQ(first["answers_asked"], 4);  // the input and its three perturbations

  r = run_assay(dir, "fair test" + common + " --out " + dir.file("two"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto again = nlohmann::json::parse(read_file(dir.file("two/summary.json")));
  EXPECT_EQ(again["answers_asked"], 0);  // (its finished chunk is reused whole)
  // fair mitigate asks the class's neighbourhood once (the representative "the person was
  // wonderful and the doctor smiled" and its four perturbations); its rerun asks nothing.
  r = run_assay(dir, "fair mitigate" + common + " --epsilon 1 --out " + dir.file("m"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("answers: 4 from " + dir.file("c.sqlite") + ", 5 asked"));
  EXPECT_EQ(count_lines(read_file(log)), 2u);
  r = run_assay(dir, "fair mitigate" + common + " --epsilon 1 --out " + dir.file("m"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr(", 0 asked"));
  r = run_assay(dir, "model predict" + common + " --out " + dir.file("p.jsonl"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("1 inputs, 1 answered from"));
  EXPECT_EQ(count_lines(read_file(log)), 2u) << "a fully cached run started the model";

  // A text that is not cached starts it.
  const auto more = dir.write("more.txt", "a new text\n");
  r = run_assay(dir, "model predict --model " + spec + " --input " + more + " --cache " +
                         dir.file("c.sqlite"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(count_lines(read_file(log)), 3u);
}

// SST-2's layout: a header row, sentence<TAB>label with labels 0/1, against the built-in LR
// whose labels are neg/pos. --input-format tsv without --text-column is refused (it used to
// read the header row as a text); --text-column on a .tsv file reads TSV (quotes and commas
// stay in the text); 0/1 against neg/pos is refused at the first label's line, with no output,
// until --label-map maps them; then `fair mitigate` reports its accuracy.
TEST(FairModelOptionsCommand, HeaderTsvAndGoldLabelsOfAnotherVocabulary) {
  TempDir dir;
  const std::string lr = testing::train_biased_lr(dir);
  ASSERT_FALSE(HasFailure());
  const auto dev = dir.write("dev.tsv",
                             "sentence\tlabel\n"
                             "the actor was wonderful and the doctor smiled\t1\n"
                             "the \"film\" , sadly , was awful\t0\n");
  const std::string base = " --model lr:" + lr + " --input " + dev;
  auto r = run_assay(dir, "fair test" + base + " --input-format tsv --out " + dir.file("t0"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--input-format tsv reads a header row: name the text column "
                               "with --text-column"));

  r = run_assay(dir, "fair test" + base + " --text-column sentence --out " + dir.file("t1"));
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const auto s = nlohmann::json::parse(read_file(dir.file("t1/summary.json")));
  EXPECT_EQ(s["inputs"], 2);  // not the header
  r = run_assay(dir, "fair perturb --quiet --input " + dev + " --text-column sentence");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("\"the \\\"film\\\" , sadly , was awful\""));

  for (const char* command : {"fair test", "fair mitigate"}) {
    SCOPED_TRACE(command);
    const auto out = dir.file(std::string("refused-") + (command[5] == 't' ? "t" : "m"));
    r = run_assay(dir, std::string(command) + base +
                           " --text-column sentence --label-column label --out " + out);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_THAT(r.err, HasSubstr(dev + ":2:"));
    EXPECT_THAT(r.err, HasSubstr("the label '1' is not one of the model's labels (expected neg, "
                                 "pos"));
    EXPECT_THAT(r.err, HasSubstr("--label-map"));
    EXPECT_FALSE(std::filesystem::exists(out + "/mitigation.json"));
    EXPECT_FALSE(std::filesystem::exists(out + "/summary.json"));
  }
  r = run_assay(dir, "fair mitigate" + base +
                         " --text-column sentence --label-column label --label-map 0=neg,1=pos"
                         " --epsilon 1 --out " +
                         dir.file("m"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto m = nlohmann::json::parse(read_file(dir.file("m/mitigation.json")));
  EXPECT_EQ(m["labelled_mutable"], 1);
  EXPECT_EQ(m["accuracy_before"], 100.0);  // pos for the actor sentence, labelled 1 = pos

  r = run_assay(dir, "fair mitigate" + base +
                         " --text-column sentence --label-column label --label-map 0=bad,1=good"
                         " --out " +
                         dir.file("bad-map"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("'bad', which is not a label of the model (neg, pos)"));
  EXPECT_THAT(r.err, Not(HasSubstr("internal")));
}

}  // namespace
}  // namespace assay::fairness
