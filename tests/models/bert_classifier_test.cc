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

// DistilBERT and RoBERTa folders made by tools/goldens/models_hf_encoders.py, with logits
// and probabilities from torch.nn modules written from the published architectures.
namespace {

using assay::models::BertClassifier;
using ::testing::HasSubstr;

const std::string kModels = std::string(ASSAY_TEST_DATA_DIR) + "/models";

nlohmann::json read_goldens(const std::string& dir) {
  std::ifstream in(dir + "/goldens.json");
  return nlohmann::json::parse(in);
}

// Probabilities singly and batched to 1e-5, and the logits through them: log(p_k / p_0)
// is logit_k − logit_0, whatever the softmax's shift.
void expect_matches_goldens(const std::string& dir) {
  const auto golden = read_goldens(dir);
  const auto texts = golden["texts"].get<std::vector<std::string>>();
  BertClassifier one(dir, 1), batched(dir, 32);
  EXPECT_EQ(one.labels(), golden["labels"].get<std::vector<std::string>>());
  const auto single = one.predict(texts);
  const auto together = batched.predict(texts);
  ASSERT_EQ(single.size(), texts.size());
  const std::size_t n = golden["labels"].size();
  double spread = 0;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    ASSERT_EQ(single[i].size(), n);
    for (std::size_t k = 0; k < n; ++k) {
      EXPECT_NEAR(single[i][k], golden["single"][i][k].get<double>(), 1e-5) << texts[i];
      EXPECT_NEAR(together[i][k], golden["batched"][i][k].get<double>(), 1e-5) << texts[i];
      const double logit_gap =
          golden["single_logits"][i][k].get<double>() - golden["single_logits"][i][0].get<double>();
      EXPECT_NEAR(std::log(single[i][k] / single[i][0]), logit_gap, 1e-5) << texts[i];
      spread = std::max(spread, std::abs(logit_gap));
    }
  }
  EXPECT_GT(spread, 0.5);  // the goldens are far from uniform: the checks can fail
}

TEST(HfEncoderClassifier, DistilBertMatchesPyTorch) {
  expect_matches_goldens(kModels + "/distilbert_classifier");
}

TEST(HfEncoderClassifier, RobertaMatchesPyTorch) {
  expect_matches_goldens(kModels + "/roberta_classifier");
}

TEST(HfEncoderClassifier, RobertaFromTokenizerJson) {
  const std::string src = kModels + "/roberta_classifier";
  assay::testing::TempDir dir;
  for (const char* name : {"config.json", "tokenizer_config.json", "model.safetensors"}) {
    std::filesystem::copy_file(src + "/" + name, dir.file(name));
  }
  std::filesystem::copy_file(kModels + "/roberta_tokenizer_json/tokenizer.json",
                             dir.file("tokenizer.json"));
  const auto golden = read_goldens(src);
  const auto texts = golden["texts"].get<std::vector<std::string>>();
  const auto probs = BertClassifier(dir.path().string()).predict(texts);
  for (std::size_t i = 0; i < texts.size(); ++i) {
    for (std::size_t k = 0; k < probs[i].size(); ++k) {
      EXPECT_NEAR(probs[i][k], golden["single"][i][k].get<double>(), 1e-5) << texts[i];
    }
  }
  // Another tokenizer file is another model.
  EXPECT_NE(BertClassifier(dir.path().string()).identity(), BertClassifier(src).identity());
}

// tokenizer_config.json's do_lower_case: false keeps case and accents; lower-casing the
// same folder changes the ids and therefore the scores.
TEST(HfEncoderClassifier, CasedModelIsNotLowerCased) {
  const std::string src = kModels + "/distilbert_classifier";
  assay::testing::TempDir dir;
  for (const char* name : {"config.json", "vocab.txt", "model.safetensors"}) {
    std::filesystem::copy_file(src + "/" + name, dir.file(name));
  }
  dir.write("tokenizer_config.json", "{\"do_lower_case\": true}");
  const std::vector<std::string> text = {"Hello World"};
  const auto cased = BertClassifier(src).predict(text);
  const auto lowered = BertClassifier(dir.path().string()).predict(text);
  EXPECT_GT(std::abs(cased[0][0] - lowered[0][0]), 1e-3);
  EXPECT_NEAR(cased[0][0], read_goldens(src)["single"][2][0].get<double>(), 1e-5);
}

std::string load_error(const std::string& dir) {
  try {
    BertClassifier model(dir);
  } catch (const assay::core::Error& e) {
    return e.what();
  }
  return "";
}

TEST(HfEncoderClassifier, UnsupportedModelTypeNamedBeforeMissingFiles) {
  assay::testing::TempDir dir;
  dir.write("config.json", R"({"model_type": "xlnet", "vocab_size": 10})");
  const std::string msg = load_error(dir.path().string());
  EXPECT_THAT(msg, HasSubstr("model_type 'xlnet' is not supported"));
  EXPECT_THAT(msg, HasSubstr("bert, distilbert, roberta"));
}

TEST(HfEncoderClassifier, MissingTokenizerFilesAreNamed) {
  const std::string src = kModels + "/roberta_classifier";
  assay::testing::TempDir dir;
  for (const char* name : {"config.json", "vocab.json", "model.safetensors"}) {
    std::filesystem::copy_file(src + "/" + name, dir.file(name));
  }
  std::string msg = load_error(dir.path().string());
  EXPECT_THAT(msg, HasSubstr("missing merges.txt"));
  EXPECT_THAT(msg, HasSubstr("tokenizer.json, or vocab.json and merges.txt"));
  assay::testing::TempDir distil;
  std::filesystem::copy_file(kModels + "/distilbert_classifier/config.json",
                             distil.file("config.json"));
  EXPECT_THAT(load_error(distil.path().string()), HasSubstr("missing vocab.txt"));
}

TEST(HfEncoderClassifier, WrongHeadIsNamed) {
  // The DistilBERT config over the RoBERTa weights: the encoder tensors are absent.
  const std::string src = kModels + "/roberta_classifier";
  assay::testing::TempDir dir;
  std::filesystem::copy_file(src + "/model.safetensors", dir.file("model.safetensors"));
  for (const char* name : {"config.json", "vocab.txt"}) {
    std::filesystem::copy_file(kModels + "/distilbert_classifier/" + name, dir.file(name));
  }
  EXPECT_THAT(load_error(dir.path().string()), HasSubstr("distilbert.embeddings.word_embeddings"));
}

}  // namespace
