// The adapter examples of docs/models.md (examples/models: a word-list model served as a cmd:
// child and as an http: server, standard-library Python) run through `fair test` as a user
// runs them: every mutable input and perturbation is asked once, and both adapters give the
// same violations and summary, byte for byte.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "models/server_process.h"
#include "support/temp_dir.h"

namespace assay::fairness {
namespace {

using assay::testing::read_file;
using assay::testing::run_assay;
using assay::testing::TempDir;
using ::testing::HasSubstr;

const std::string kExamples = std::string(ASSAY_TEST_DATA_DIR) + "/../../examples/models";

// summary.json without what names the model or counts the cache.
nlohmann::json findings(const std::string& path) {
  auto j = nlohmann::json::parse(read_file(path));
  for (const char* key : {"model", "answers_from_cache", "answers_asked"}) j.erase(key);
  return j;
}

TEST(FairAdapterExamples, CmdAndHttpExamplesThroughFairTest) {
  TempDir dir;
  const std::string input = " --input " + kExamples + "/sentences.txt --quiet";
  const std::string cmd = "'cmd:/usr/bin/python3 " + kExamples + "/cmd_model.py'";
  auto r = run_assay(dir, "fair test --model " + cmd + input + " --cache " +
                              dir.file("cmd.sqlite") + " --out " + dir.file("cmd"));
  ASSERT_LE(r.exit_code, 1) << r.err;
  const auto s = nlohmann::json::parse(read_file(dir.file("cmd/summary.json")));
  EXPECT_EQ(s["labels"], nlohmann::json::array({"neg", "pos"}));
  EXPECT_GE(s["mutable"].get<int>(), 5);
  EXPECT_EQ(s["answers_asked"].get<int>(), s["mutable"].get<int>() + s["perturbations"].get<int>());
  // The rerun asks the cache, not the child.
  r = run_assay(dir, "fair test --model " + cmd + input + " --cache " + dir.file("cmd.sqlite") +
                         " --out " + dir.file("cmd2"));
  ASSERT_LE(r.exit_code, 1) << r.err;
  EXPECT_EQ(nlohmann::json::parse(read_file(dir.file("cmd2/summary.json")))["answers_asked"], 0);

  assay::testing::ServerProcess server(
      {"/usr/bin/python3", kExamples + "/http_model.py", "--port", "0"});
  for (const char* batch : {" --body-template '{\"texts\": {texts}}' --batch 16",
                            " --body-template '{\"text\": {text}}' --concurrency 4"}) {
    r = run_assay(dir, "fair test --model http:" + server.url() +
                           " --labels neg,pos --scores-pointer /scores" + batch + input +
                           " --out " + dir.file("http"));
    ASSERT_LE(r.exit_code, 1) << batch << r.err;
    EXPECT_EQ(findings(dir.file("http/summary.json")), findings(dir.file("cmd/summary.json")))
        << batch;
    EXPECT_EQ(read_file(dir.file("http/violations.jsonl")),
              read_file(dir.file("cmd/violations.jsonl")))
        << batch;
  }
  // A request the server cannot read is answered 400, which assay reports.
  r = run_assay(dir, "fair test --model http:" + server.url() +
                         " --labels neg,pos --scores-pointer /scores --body-template "
                         "'{\"words\": {text}}' --retries 0" +
                         input + " --out " + dir.file("bad"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("400"));
}

}  // namespace
}  // namespace assay::fairness
