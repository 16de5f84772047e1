// `assay fair test` against a real Python model behind cmd: — the scikit-learn model of
// tools/fairness/sst2_sklearn.py (TF-IDF + logistic regression), trained here on the first
// 4,000 rows of SST-2 with Debian's /usr/bin/python3 and tested on 300 rt-polarity sentences.
// The violations' scores are checked against the pickled model's own predict_proba, run in a
// separate Python process; a rerun through the cache asks the model nothing. Skipped (named)
// when the data, python3 or scikit-learn is absent.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "support/shared_data.h"
#include "support/temp_dir.h"

namespace assay::fairness {
namespace {

using assay::testing::read_file;
using assay::testing::run_assay;
using assay::testing::TempDir;
using ::testing::HasSubstr;

const std::string kScript =
    std::string(ASSAY_TEST_DATA_DIR) + "/../../tools/fairness/sst2_sklearn.py";

std::string head_lines(const std::string& path, std::size_t n) {
  std::ifstream in(path);
  std::string line, out;
  for (std::size_t i = 0; i < n && std::getline(in, line); ++i) out += line + "\n";
  return out;
}

TEST(FairPythonModelCommand, ScikitLearnBehindCmd) {
  const std::string sst2 = std::string(ASSAY_SHARED_DATA_DIR) + "/sst2-glue/train.tsv";
  const std::string rt = std::string(ASSAY_SHARED_DATA_DIR) + "/rt-polarity-v1.0/rt-polarity";
  ASSAY_REQUIRE_FILE(sst2);
  ASSAY_REQUIRE_FILE(rt + ".pos");
  ASSAY_REQUIRE_FILE("/usr/bin/python3");
  if (std::system("/usr/bin/python3 -c 'import sklearn' >/dev/null 2>&1") != 0)
    GTEST_SKIP()
        << "scikit-learn absent: /usr/bin/python3 cannot import sklearn (Debian python3-sklearn)";
  TempDir dir;
  const auto train = dir.write("train.tsv", head_lines(sst2, 4001));  // header + 4,000 rows
  const std::string model = dir.file("m.sklearn");
  ASSERT_EQ(std::system(("/usr/bin/python3 " + kScript + " train --train " + train + " --out " +
                         model + " 2>" + dir.file("train.err"))
                            .c_str()),
            0)
      << read_file(dir.file("train.err"));
  // rt-polarity is Latin-1: the first 150 lines of each file that are ASCII.
  std::string texts;
  for (const char* part : {".pos", ".neg"}) {
    std::ifstream in(rt + part);
    std::string line;
    for (std::size_t n = 0; n < 150 && std::getline(in, line);) {
      bool ascii = true;
      for (unsigned char c : line) ascii &= c < 0x80;
      if (!ascii) continue;
      texts += line + "\n";
      ++n;
    }
  }
  const auto in = dir.write("in.txt", texts);
  const std::string spec = "'cmd:/usr/bin/python3 " + kScript + " serve " + model + "'";
  const std::string args = "fair test --model " + spec + " --input " + in + " --cache " +
                           dir.file("cache.sqlite") + " --threads 2 --out ";
  auto r = run_assay(dir, args + dir.file("out1"));
  ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.err;
  const auto summary = nlohmann::json::parse(read_file(dir.file("out1/summary.json")));
  EXPECT_EQ(summary["inputs"], 300);
  EXPECT_THAT(summary["model"].get<std::string>(), HasSubstr("cmd:"));
  const int n_mutable = summary["mutable"], n_perturbations = summary["perturbations"];
  EXPECT_GT(n_mutable, 20);
  EXPECT_GT(n_perturbations, n_mutable);
  EXPECT_EQ(summary["answers_asked"].get<int>(), n_mutable + n_perturbations);
  EXPECT_EQ(r.exit_code, summary["violations"].get<int>() > 0 ? 1 : 0);

  // Every violation, re-predicted by the pickled model in a separate process: same scores,
  // and the labels really differ.
  std::istringstream v(read_file(dir.file("out1/violations.jsonl")));
  std::vector<nlohmann::json> violations;
  std::string line, requests;
  while (std::getline(v, line)) {
    violations.push_back(nlohmann::json::parse(line));
    requests +=
        nlohmann::json{{"id", 2 * violations.size()}, {"text", violations.back()["original"]}}
            .dump() +
        "\n";
    requests +=
        nlohmann::json{{"id", 2 * violations.size() + 1}, {"text", violations.back()["perturbed"]}}
            .dump() +
        "\n";
  }
  const auto req = dir.write("requests.jsonl", requests);
  ASSERT_EQ(std::system(("/usr/bin/python3 " + kScript + " serve " + model + " <" + req + " >" +
                         dir.file("answers.jsonl") + " 2>/dev/null")
                            .c_str()),
            0);
  std::istringstream answers(read_file(dir.file("answers.jsonl")));
  std::getline(answers, line);  // {"labels": [...]}
  EXPECT_EQ(nlohmann::json::parse(line)["labels"], nlohmann::json::array({"0", "1"}));
  for (const auto& viol : violations) {
    EXPECT_NE(viol["label_original"], viol["label_perturbed"]);
    for (const char* which : {"scores_original", "scores_perturbed"}) {
      ASSERT_TRUE(std::getline(answers, line));
      const auto expected = nlohmann::json::parse(line)["scores"];
      ASSERT_EQ(viol[which].size(), 2u);
      EXPECT_NEAR(viol[which][0].get<double>() + viol[which][1].get<double>(), 1.0, 1e-9);
      for (std::size_t k = 0; k < 2; ++k)
        EXPECT_NEAR(viol[which][k].get<double>(), expected[k].get<double>(), 1e-12)
            << viol["perturbed"];
    }
  }

  // A rerun asks the model nothing and writes the same violations.
  r = run_assay(dir, args + dir.file("out2"));
  ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.err;
  const auto again = nlohmann::json::parse(read_file(dir.file("out2/summary.json")));
  EXPECT_EQ(again["answers_asked"], 0);
  EXPECT_EQ(read_file(dir.file("out1/violations.jsonl")),
            read_file(dir.file("out2/violations.jsonl")));
}

}  // namespace
}  // namespace assay::fairness
