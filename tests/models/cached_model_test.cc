#include "models/cached_model.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "models/command_model.h"
#include "models/lr_model.h"
#include "models/model_error.h"
#include "support/temp_dir.h"

namespace {

using assay::models::AnswerCache;
using assay::models::CachedModel;
using assay::models::CommandModel;
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

const std::string kChild =
    "/usr/bin/python3 " + std::string(ASSAY_TEST_DATA_DIR) + "/models/fault_child.py ok";

// A cmd: model whose every answer is cached starts no child, not even for its labels (they are
// kept beside the answers); the first text not in the cache starts it.
TEST(CachedModel, EveryAnswerCachedStartsNoProcess) {
  TempDir dir;
  auto cache = std::make_shared<AnswerCache>(dir.file("c.sqlite"));
  std::vector<std::vector<double>> first;
  {
    CachedModel model(std::make_unique<CommandModel>(kChild, assay::models::ModelOptions{}), cache);
    first = model.predict({"a", "b"});
    EXPECT_EQ(model.n_queries(), 2u);
  }
  CachedModel again(std::make_unique<CommandModel>(kChild, assay::models::ModelOptions{}), cache);
  const auto& child = dynamic_cast<CommandModel&>(again.inner());
  EXPECT_EQ(again.labels(), (std::vector<std::string>{"neg", "pos"}));
  EXPECT_EQ(again.predict({"b", "a"}), (std::vector<std::vector<double>>{first[1], first[0]}));
  EXPECT_EQ(again.n_queries(), 0u);
  EXPECT_EQ(child.child_pid(), -1);
  EXPECT_EQ(again.predict({"c"})[0], (std::vector<double>{0.25, 0.75}));
  EXPECT_GT(child.child_pid(), 0);
}

// Answers cached under other label names are not silently renamed: the first text asked of the
// model compares its labels with those kept.
TEST(CachedModel, LabelsThatDifferFromTheCachedOnesAreRefused) {
  TempDir dir;
  auto cache = std::make_shared<AnswerCache>(dir.file("c.sqlite"));
  auto inner = std::make_unique<CommandModel>(kChild, assay::models::ModelOptions{});
  cache->store_labels(inner->identity(), {"bad", "good"});
  CachedModel model(std::move(inner), cache);
  EXPECT_EQ(model.labels(), (std::vector<std::string>{"bad", "good"}));
  try {
    model.predict({"new"});
    FAIL();
  } catch (const assay::models::ModelError& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("names its scores (neg, pos) but the answers "
                                               "cached for it in " +
                                               dir.file("c.sqlite") + " name them (bad, good)"));
  }
}

}  // namespace
