// The cmd: adapter with real child processes: a scikit-learn pipeline (Debian python3-sklearn)
// and children that crash, hang or answer wrongly (tests/data/models/*.py).
#include "models/command_model.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "adapter_test_support.h"
#include "models/model_error.h"
#include "rt_polarity.h"
#include "support/temp_dir.h"

namespace {

using assay::models::CommandModel;
using assay::models::ModelError;
using assay::models::ModelOptions;
using assay::models::numbered;
using assay::models::predict_error;
using assay::testing::TempDir;
using ::testing::HasSubstr;

const std::string kData = std::string(ASSAY_TEST_DATA_DIR) + "/models";
const std::string kFault = "/usr/bin/python3 " + kData + "/fault_child.py ";

bool have_sklearn() {
  return std::system("/usr/bin/python3 -c 'import sklearn' >/dev/null 2>&1") == 0;
}

ModelOptions quick(double timeout = 20) {
  ModelOptions o;
  o.timeout_seconds = timeout;
  return o;
}

TEST(CommandModel, ScikitLearnPipelineGivesScikitLearnsAnswers) {
  if (!assay::testing::rt_polarity_available()) GTEST_SKIP() << "rt-polarity data absent";
  if (!have_sklearn()) GTEST_SKIP() << "/usr/bin/python3 has no sklearn (python3-sklearn)";
  const auto rt = assay::testing::load_rt_polarity();
  TempDir dir;
  {
    std::ofstream tsv(dir.file("train.tsv"), std::ios::binary);
    tsv << "label\ttext\n";
    for (std::size_t i : rt.train) tsv << rt.labels[i] << '\t' << rt.texts[i] << '\n';
  }
  CommandModel model("/usr/bin/python3 " + kData + "/sklearn_server.py --train " +
                         dir.file("train.tsv") + " --record " + dir.file("answers.jsonl"),
                     quick(120));
  EXPECT_THAT(model.labels(), ::testing::ElementsAre("neg", "pos"));
  std::vector<std::string> test_texts;
  for (std::size_t i : rt.test) test_texts.push_back(rt.texts[i]);
  const auto scores = model.predict(test_texts);  // 2,133 texts pipelined in one call
  ASSERT_EQ(scores.size(), test_texts.size());
  // Bit for bit what the child computed, whatever the processor.
  const auto recorded = assay::testing::recorded_scores(dir.file("answers.jsonl"));
  for (std::size_t k = 0; k < scores.size(); ++k) {
    ASSERT_EQ(scores[k], recorded.at(test_texts[k])) << "text " << k;
  }
  // And scikit-learn's answers of the golden, within what its processor-dependent fit allows.
  std::size_t correct = 0;
  for (std::size_t k = 0; k < scores.size(); ++k) {
    correct += model.labels()[assay::models::argmax(scores[k])] == rt.labels[rt.test[k]];
  }
  EXPECT_NEAR(static_cast<double>(correct) / static_cast<double>(scores.size()),
              rt.golden["accuracy"].get<double>(),
              assay::testing::golden_tolerance(rt, "accuracy"));
  const double tolerance = assay::testing::golden_tolerance(rt, "first_test_proba");
  const auto first = rt.golden["first_test_documents"].get<std::vector<std::size_t>>();
  for (std::size_t k = 0; k < first.size(); ++k) {
    EXPECT_NEAR(scores[k][1], rt.golden["first_test_proba"][k][1].get<double>(), tolerance);
  }
  EXPECT_EQ(model.n_restarts(), 0);
}

TEST(CommandModel, ChildCrashingOnItsFifthRequestIsRestartedAndNothingIsLost) {
  auto options = quick();
  CommandModel model(kFault + "crash5", options);
  const auto scores = model.predict(numbered(10));
  ASSERT_EQ(scores.size(), 10u);
  for (const auto& s : scores) EXPECT_EQ(s, (std::vector<double>{0.25, 0.75}));
  // 4 answered by each of the first two children, the last 2 by the third.
  EXPECT_EQ(model.n_restarts(), 2);
}

TEST(CommandModel, RestartsAreBounded) {
  auto options = quick();
  options.command.max_restarts = 1;
  CommandModel model(kFault + "crash5", options);
  const auto e = predict_error(model, numbered(12));
  EXPECT_THAT(e.what(), HasSubstr("exited with status 3 after 1 restart(s) (limit 1)"));
  ASSERT_TRUE(e.batch_index());
  EXPECT_EQ(*e.batch_index(), 8u);  // texts 0-7 were answered by the two children
}

TEST(CommandModel, HangingChildIsKilledAfterTheTimeOut) {
  CommandModel model(kFault + "hang", quick(1.0));
  (void)model.labels();  // starts the child
  const pid_t pid = model.child_pid();
  ASSERT_GT(pid, 0);
  const auto start = std::chrono::steady_clock::now();
  const auto e = predict_error(model, numbered(3));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_THAT(e.what(), HasSubstr("no answer within 1"));
  EXPECT_THAT(e.what(), HasSubstr("fault_child.py hang"));
  EXPECT_EQ(*e.batch_index(), 0u);
  EXPECT_LT(seconds, 10.0);
  EXPECT_NE(::kill(pid, 0), 0);  // gone (and reaped)
}

// cancel() from another thread stops a predict() waiting on a child that never answers (given
// a minute), kills the child, and the next predict() starts a new one.
TEST(CommandModel, CancelFromAnotherThreadStopsTheWait) {
  CommandModel model(kFault + "hang", quick(60.0));
  (void)model.labels();
  const pid_t pid = model.child_pid();
  const auto start = std::chrono::steady_clock::now();
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    model.cancel();
  });
  const auto e = predict_error(model, numbered(3));
  canceller.join();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_THAT(e.what(), HasSubstr("cancelled"));
  EXPECT_LT(seconds, 5.0);
  EXPECT_NE(::kill(pid, 0), 0);  // gone (and reaped)
}

TEST(CommandModel, MalformedWrongLengthAndNanAnswersNameTheText) {
  struct Case {
    const char* mode;
    const char* message;
  };
  for (const Case c :
       {Case{"malformed", "malformed JSON (expected {\"id\": N, \"scores\": [...]})"},
        Case{"wrong-len", "expected 2 scores (one per label), got 3"},
        Case{"nan", "a non-finite score (NaN or Infinity; expected finite numbers)"},
        Case{"deep", "JSON that nests arrays or objects deeper than 64 levels"}}) {
    CommandModel model(kFault + c.mode, quick());
    const auto e = predict_error(model, numbered(6));
    EXPECT_THAT(e.what(), HasSubstr(c.message)) << c.mode;
    ASSERT_TRUE(e.batch_index()) << c.mode;
    EXPECT_EQ(*e.batch_index(), 2u) << c.mode;
    // The adapter recovers for the next call with a fresh child.
    EXPECT_EQ(model.predict({"again"})[0], (std::vector<double>{0.25, 0.75})) << c.mode;
  }
}

// A child that sends 64 MiB without ending its line: refused once the line passes 1 MiB, the
// child killed, and this process's memory never held the line.
TEST(CommandModel, AnswerLineOverTheLimitIsRefusedWhileItIsRead) {
  CommandModel model(kFault + "endless", quick());
  (void)model.labels();
  const pid_t pid = model.child_pid();
  rusage before{};
  ::getrusage(RUSAGE_SELF, &before);
  const auto e = predict_error(model, numbered(2));
  rusage after{};
  ::getrusage(RUSAGE_SELF, &after);
  EXPECT_THAT(e.what(), HasSubstr("a line longer than the limit of 1048576 bytes from the child "
                                  "(expected {\"id\": N, \"scores\": [...]} lines); it was "
                                  "killed"));
  EXPECT_EQ(*e.batch_index(), 0u);
  EXPECT_NE(::kill(pid, 0), 0);
  EXPECT_LT(after.ru_maxrss - before.ru_maxrss, 32 * 1024);  // KiB
  // A lower limit counts the same way.
  auto options = quick();
  options.command.max_line_bytes = 10;
  CommandModel small(kFault + "ok", options);
  EXPECT_THAT(predict_error(small, numbered(1)).what(),
              HasSubstr("a line longer than the limit of 10 bytes"));
}

TEST(CommandModel, LabelsFromOptionsWhenTheChildSendsNone) {
  CommandModel silent(kFault + "no-labels", quick(0.5));
  EXPECT_THROW(silent.labels(), ModelError);
  auto options = quick();
  options.labels = {"neg", "pos"};
  CommandModel model(kFault + "no-labels", options);
  EXPECT_EQ(model.predict({"a", "b"})[1], (std::vector<double>{0.25, 0.75}));
}

// A child whose labels line names other labels (here the same two in the other order) than
// --labels: its scores would be read under the wrong names, so it is an error naming both.
TEST(CommandModel, LabelsLineThatDiffersFromTheOptionsIsAnError) {
  auto options = quick();
  options.labels = {"pos", "neg"};
  CommandModel swapped(kFault + "ok", options);
  EXPECT_THAT(
      predict_error(swapped, numbered(2)).what(),
      HasSubstr("labels line '{\"labels\": [\"neg\", \"pos\"]}' differs from the labels given "
                "[\"pos\",\"neg\"]"));
  options.labels = {"neg", "pos"};  // the same labels: accepted
  CommandModel same(kFault + "ok", options);
  EXPECT_EQ(same.predict({"a"})[0], (std::vector<double>{0.25, 0.75}));
  CommandModel twice(kFault + "twice", quick());
  try {
    (void)twice.labels();
    ADD_FAILURE() << "a label named twice was accepted";
  } catch (const ModelError& e) {
    EXPECT_THAT(e.what(), HasSubstr("names 'neg' twice"));
  }
}

// The child starts on first need: not for the identity, not for labels given in the options;
// for the labels it sends, or for the first text.
TEST(CommandModel, ChildStartsOnFirstNeed) {
  CommandModel sends(kFault + "ok", quick());
  EXPECT_THAT(sends.identity(), HasSubstr("fault_child.py"));
  EXPECT_EQ(sends.child_pid(), -1);
  EXPECT_THAT(sends.labels(), ::testing::ElementsAre("neg", "pos"));
  EXPECT_GT(sends.child_pid(), 0);
  auto options = quick();
  options.labels = {"neg", "pos"};
  CommandModel given(kFault + "ok", options);
  EXPECT_EQ(given.labels(), options.labels);
  EXPECT_EQ(given.child_pid(), -1);
  EXPECT_NE(given.identity(), sends.identity());  // the labels given name the scores
  EXPECT_EQ(given.predict({"a"})[0], (std::vector<double>{0.25, 0.75}));
  EXPECT_GT(given.child_pid(), 0);
}

TEST(CommandModel, ProgramThatDoesNotExist) {
  try {
    CommandModel model("no-such-program-xyz --flag", quick());
    FAIL();
  } catch (const ModelError& e) {
    EXPECT_THAT(e.what(), HasSubstr("cannot start 'no-such-program-xyz'"));
  }
}

TEST(CommandModel, IdentityFollowsTheScriptsContent) {
  TempDir dir;
  const auto script = dir.file("child.py");
  std::filesystem::copy_file(kData + "/fault_child.py", script);
  std::string first;
  {
    CommandModel model("/usr/bin/python3 " + script + " ok", quick());
    first = model.identity();
    EXPECT_THAT(first, HasSubstr("cmd:[\"/usr/bin/python3\","));
    EXPECT_THAT(first, HasSubstr("1:sha256:"));
  }
  std::ofstream(script, std::ios::app) << "# edited\n";
  CommandModel edited("/usr/bin/python3 " + script + " ok", quick());
  EXPECT_NE(edited.identity(), first);
}

}  // namespace
