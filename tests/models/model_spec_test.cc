#include "models/model_spec.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/error.h"
#include "models/lr_model.h"
#include "support/temp_dir.h"

namespace {

using assay::models::open_model;
using assay::models::split_command_words;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(ModelSpec, SplitsCommandWordsWithQuotes) {
  EXPECT_THAT(split_command_words("python3  serve.py --x 'a b' \"c \\\"d\\\"\" e'f g'"),
              ElementsAre("python3", "serve.py", "--x", "a b", "c \"d\"", "ef g"));
  EXPECT_THAT(split_command_words("''"), ElementsAre(""));
  EXPECT_THROW(split_command_words("a 'b"), assay::core::UsageError);
}

TEST(ModelSpec, OpensLrAndRejectsUnknownSpecs) {
  assay::testing::TempDir dir;
  const auto path = dir.file("m.lr");
  assay::models::LrModel::train({"good", "bad"}, {"pos", "neg"})->save(path);
  const auto model = open_model("lr:" + path);
  EXPECT_THAT(model->labels(), ElementsAre("neg", "pos"));
  try {
    open_model("sklearn:model.pkl");
    FAIL();
  } catch (const assay::core::UsageError& e) {
    EXPECT_THAT(e.what(), HasSubstr("expected lr:FILE, cmd:PROGRAM"));
  }
  EXPECT_THROW(open_model("lr:"), assay::core::UsageError);
}

}  // namespace
