// bert:DIR against PyTorch on the tiny random BertForSequenceClassification made by
// tools/goldens/models_bert_classifier.py.
#include "models/bert_classifier.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "models/model_spec.h"
#include "support/temp_dir.h"

namespace {

using assay::models::BertClassifier;
using ::testing::HasSubstr;

const std::string kDir = std::string(ASSAY_TEST_DATA_DIR) + "/models/bert_classifier";

nlohmann::json goldens() {
  std::ifstream in(kDir + "/goldens.json");
  return nlohmann::json::parse(in);
}

TEST(BertClassifier, MatchesPyTorchSinglyAndBatched) {
  const auto golden = goldens();
  const auto texts = golden["texts"].get<std::vector<std::string>>();
  BertClassifier one_at_a_time(kDir, 1);
  EXPECT_EQ(one_at_a_time.labels(), golden["labels"].get<std::vector<std::string>>());
  const auto single = one_at_a_time.predict(texts);
  BertClassifier batched(kDir, 32);
  const auto together = batched.predict(texts);
  ASSERT_EQ(single.size(), texts.size());
  ASSERT_EQ(together.size(), texts.size());
  for (std::size_t i = 0; i < texts.size(); ++i) {
    ASSERT_EQ(single[i].size(), 3u);
    for (std::size_t k = 0; k < 3; ++k) {
      EXPECT_NEAR(single[i][k], golden["single"][i][k].get<double>(), 1e-5) << texts[i];
      EXPECT_NEAR(together[i][k], golden["batched"][i][k].get<double>(), 1e-5) << texts[i];
    }
  }
  // The golden probabilities are not uniform: the check can fail.
  EXPECT_GT(std::abs(golden["single"][0][0].get<double>() - golden["single"][0][1].get<double>()),
            1e-3);
}

TEST(BertClassifier, OpenedThroughTheSpecWithAContentIdentity) {
  const auto model = assay::models::open_model("bert:" + kDir);
  EXPECT_THAT(model->identity(), ::testing::StartsWith("bert:sha256:"));
  assay::testing::TempDir dir;
  for (const char* name : {"config.json", "vocab.txt", "model.safetensors"}) {
    std::filesystem::copy_file(kDir + "/" + name, dir.file(name));
  }
  EXPECT_EQ(BertClassifier(dir.path().string()).identity(), model->identity());
  // Another label name is another model.
  std::string config = assay::testing::read_file(dir.file("config.json"));
  config.replace(config.find("\"neutral\""), 9, "\"mixed\"");
  dir.write("config.json", config);
  const BertClassifier renamed(dir.path().string());
  EXPECT_EQ(renamed.labels()[1], "mixed");
  EXPECT_NE(renamed.identity(), model->identity());
}

TEST(BertClassifier, PytorchBinOnlySaysHowToConvert) {
  const std::string dir = std::string(ASSAY_TEST_DATA_DIR) + "/models/bert_bin_only";
  try {
    BertClassifier model(dir);
    FAIL();
  } catch (const assay::core::MissingResourceError& e) {
    EXPECT_THAT(e.what(), HasSubstr("only pytorch_model.bin is present"));
    EXPECT_THAT(e.what(), HasSubstr("save_pretrained('" + dir + "', safe_serialization=True)"));
  }
}

TEST(BertClassifier, CheckpointWithoutAClassifierHead) {
  // The lm tests' BertForPreTraining checkpoint has a pooler but no classifier.
  try {
    BertClassifier model(std::string(ASSAY_TEST_DATA_DIR) + "/lm/bert");
    FAIL();
  } catch (const assay::core::ParseError& e) {
    EXPECT_THAT(e.what(), HasSubstr("no classifier.weight/classifier.bias"));
  }
}

}  // namespace
