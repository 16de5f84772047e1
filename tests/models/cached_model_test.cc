#include "models/cached_model.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "models/lr_model.h"
#include "models/model_error.h"
#include "support/temp_dir.h"

namespace {

using assay::models::AnswerCache;
using assay::models::CachedModel;
using assay::models::LrModel;
using assay::testing::TempDir;

std::unique_ptr<LrModel> small_model() {
  return LrModel::train({"good fun film", "bad dull film", "great fun", "dull mess"},
                        {"pos", "neg", "pos", "neg"});
}

TEST(CachedModel, AsksOnlyForNewTextsAndGivesTheSameAnswers) {
  TempDir dir;
  auto cache = std::make_shared<AnswerCache>(dir.file("c.sqlite"));
  auto reference = small_model();
  const std::vector<std::string> texts{"fun", "dull", "fun", "film", "new words"};
  const auto expected = reference->predict(texts);
  {
    CachedModel model(small_model(), cache);
    EXPECT_EQ(model.identity(), reference->identity());
    EXPECT_EQ(model.predict(texts), expected);
    EXPECT_EQ(model.n_queries(), 4u);  // "fun" asked once
    EXPECT_EQ(model.n_hits(), 0u);
    EXPECT_EQ(model.predict({"fun", "mess"}), reference->predict({"fun", "mess"}));
    EXPECT_EQ(model.n_queries(), 5u);
    EXPECT_EQ(model.n_hits(), 1u);
  }
  CachedModel again(small_model(), cache);
  EXPECT_EQ(again.predict(texts), expected);
  EXPECT_EQ(again.n_queries(), 0u);
  EXPECT_EQ(again.n_hits(), texts.size());
}

TEST(CachedModel, BudgetStopsAfterStoringWhatFits) {
  TempDir dir;
  auto cache = std::make_shared<AnswerCache>(dir.file("c.sqlite"));
  assay::models::CachedModelOptions options;
  options.budget = 3;
  options.batch_size = 2;
  CachedModel model(small_model(), cache, options);
  const std::vector<std::string> texts{"a1", "a2", "a3", "a4", "a5"};
  try {
    model.predict(texts);
    FAIL();
  } catch (const assay::models::BudgetExhausted& e) {
    EXPECT_EQ(e.n_unanswered(), 2u);
    EXPECT_THAT(e.what(), ::testing::HasSubstr("budget of 3"));
  }
  EXPECT_EQ(model.n_queries(), 3u);
  EXPECT_EQ(cache->count(model.identity()), 3);
  // A new run with a fresh budget continues: only the two left are asked.
  CachedModel rerun(small_model(), cache, options);
  EXPECT_EQ(rerun.predict(texts).size(), 5u);
  EXPECT_EQ(rerun.n_queries(), 2u);
}

}  // namespace
