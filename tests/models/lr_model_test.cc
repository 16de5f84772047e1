#include "models/lr_model.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/error.h"
#include "rt_polarity.h"
#include "support/temp_dir.h"

namespace {

using assay::models::LrModel;
using assay::testing::TempDir;
using ::testing::HasSubstr;

TEST(LrModel, RtPolarityAccuracyWithinOnePointOfScikitLearn) {
  if (!assay::testing::rt_polarity_available()) GTEST_SKIP() << "rt-polarity data absent";
  const auto rt = assay::testing::load_rt_polarity();
  ASSERT_EQ(rt.texts.size(), rt.golden["n_documents"].get<std::size_t>());
  std::vector<std::string> texts, labels;
  for (std::size_t i : rt.train) {
    texts.push_back(rt.texts[i]);
    labels.push_back(rt.labels[i]);
  }
  assay::models::LrTrainSummary summary;
  const auto model = LrModel::train(texts, labels, {}, &summary);
  EXPECT_TRUE(summary.converged);
  EXPECT_EQ(summary.n_features, rt.golden["n_features"].get<std::size_t>());
  EXPECT_EQ(model->labels(), rt.golden["classes"].get<std::vector<std::string>>());
  std::vector<std::string> test_texts;
  for (std::size_t i : rt.test) test_texts.push_back(rt.texts[i]);
  const auto scores = model->predict(test_texts);
  std::size_t correct = 0;
  for (std::size_t k = 0; k < rt.test.size(); ++k) {
    correct += model->labels()[assay::models::argmax(scores[k])] == rt.labels[rt.test[k]];
  }
  const double accuracy = static_cast<double>(correct) / static_cast<double>(rt.test.size());
  const double sklearn = rt.golden["accuracy"].get<double>();
  RecordProperty("accuracy", std::to_string(accuracy));
  EXPECT_NEAR(accuracy, sklearn, 0.01) << "assay " << accuracy << ", scikit-learn " << sklearn;
  // The probabilities themselves: scikit-learn's lbfgs stops at 100 iterations, short of the
  // optimum this solver reaches, so they agree only loosely.
  const auto first = rt.golden["first_test_documents"].get<std::vector<std::size_t>>();
  const auto proba = rt.golden["first_test_proba"];
  for (std::size_t k = 0; k < first.size(); ++k) {
    const auto p = model->predict({rt.texts[first[k]]})[0];
    EXPECT_NEAR(p[1], proba[k][1].get<double>(), 0.05) << "document " << first[k];
  }
}

TEST(LrModel, SavedModelLoadsWithTheSameBitsAndAFileHashIdentity) {
  TempDir dir;
  const auto model = LrModel::train({"good fun film", "bad dull film", "great fun", "dull mess"},
                                    {"pos", "neg", "pos", "neg"});
  const std::string path = dir.file("m.lr");
  model->save(path);
  const auto loaded = LrModel::load(path);
  EXPECT_EQ(loaded->labels(), model->labels());
  const std::vector<std::string> texts{"fun film", "dull", "unknown words only", ""};
  EXPECT_EQ(loaded->predict(texts), model->predict(texts));  // bit for bit
  EXPECT_EQ(loaded->identity(), model->identity());
  EXPECT_THAT(loaded->identity(), ::testing::StartsWith("lr:sha256:"));
  EXPECT_EQ(loaded->identity().size(), std::string("lr:sha256:").size() + 64);
  // A different model file gets a different identity.
  const auto other = LrModel::train({"good", "bad"}, {"pos", "neg"});
  EXPECT_NE(other->identity(), model->identity());
}

// The identity of a saved model is the SHA-256 of the file's bytes, pinned: answer-cache keys
// are made of it, so a change would orphan every cached answer.
TEST(LrModel, IdentityOfASavedFileIsPinned) {
  TempDir dir;
  const std::string path =
      dir.write("m.lr",
                "{\"format\":\"assay-lr\",\"version\":1,\"labels\":[\"neg\",\"pos\"],"
                "\"vocabulary\":[\"bad\",\"good\"],\"coef\":[[-1.5,2.0]],\"intercept\":[0.25]}\n");
  const auto model = LrModel::load(path);
  EXPECT_EQ(model->identity(),
            "lr:sha256:afdea358c153351d266c545b66d7964ae7e09c92763e666d99abcf85f25cf1c5");
}

TEST(LrModel, ThreeLabelsUseTheMultinomialModel) {
  const auto model =
      LrModel::train({"red apple", "green leaf", "blue sky", "red wine", "green grass", "blue sea"},
                     {"r", "g", "b", "r", "g", "b"});
  EXPECT_THAT(model->labels(), ::testing::ElementsAre("b", "g", "r"));
  const auto s = model->predict({"red"})[0];
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(assay::models::argmax(s), 2u);
}

TEST(LrModel, BadModelFilesNameTheFile) {
  TempDir dir;
  const auto not_json = dir.write("a.lr", "hello\n");
  try {
    LrModel::load(not_json);
    FAIL();
  } catch (const assay::core::ParseError& e) {
    EXPECT_THAT(e.what(), HasSubstr(not_json));
    EXPECT_THAT(e.what(), HasSubstr("train-lr"));
  }
  const auto bad_rows = dir.write(
      "b.lr", R"({"format":"assay-lr","version":1,"labels":["a","b"],"vocabulary":["x","y"],)"
              R"("coef":[[1.0]],"intercept":[0.0]})");
  try {
    LrModel::load(bad_rows);
    FAIL();
  } catch (const assay::core::ParseError& e) {
    EXPECT_THAT(e.what(), HasSubstr(bad_rows));
    EXPECT_THAT(e.what(), HasSubstr("1 values, expected one per vocabulary entry (2)"));
  }
  const auto twice =
      dir.write("c.lr", R"({"format":"assay-lr","version":1,"labels":["a","a"],"vocabulary":["x"],)"
                        R"("coef":[[1.0],[2.0]],"intercept":[0.0,0.0]})");
  try {
    LrModel::load(twice);
    FAIL();
  } catch (const assay::core::ParseError& e) {
    EXPECT_THAT(e.what(), HasSubstr(twice));
    EXPECT_THAT(e.what(), HasSubstr("the label 'a' is named twice"));
  }
  EXPECT_THROW(LrModel::load(dir.file("missing.lr")), assay::core::IoError);
  EXPECT_THROW(LrModel::train({"a b", "c d"}, {"x", "x"}), assay::core::Error);
}

}  // namespace
