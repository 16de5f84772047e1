#include "lm/arpa_model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "core/error.h"

namespace assay::lm {
namespace {

const std::string kTiny = std::string(ASSAY_TEST_DATA_DIR) + "/lm/tiny.arpa";
std::string broken(const std::string& name) {
  return std::string(ASSAY_TEST_DATA_DIR) + "/lm/broken/" + name;
}

class TinyArpa : public ::testing::Test {
 protected:
  void SetUp() override { model_ = ArpaModel::load(kTiny); }
  WordId id(const char* w) const {
    const WordId i = model_->find(w);
    EXPECT_NE(i, kNoWord) << w;
    return i;
  }
  double p10(const char* w, std::vector<const char*> context) const {
    std::vector<WordId> ids;
    for (const char* c : context) ids.push_back(id(c));
    return model_->log10_prob(id(w), ids);
  }
  std::unique_ptr<ArpaModel> model_;
};

TEST_F(TinyArpa, ReadsVocabularyAndOrder) {
  EXPECT_EQ(model_->order(), 3);
  ASSERT_EQ(model_->vocabulary_size(), 6);
  std::vector<std::string> words;
  for (WordId i = 0; i < model_->vocabulary_size(); ++i) words.emplace_back(model_->word(i));
  EXPECT_EQ(words, (std::vector<std::string>{"<unk>", "<s>", "</s>", "a", "b", "c"}));
  EXPECT_EQ(model_->unknown(), 0);
  EXPECT_EQ(model_->begin_sentence(), 1);
  EXPECT_EQ(model_->end_sentence(), 2);
  EXPECT_EQ(model_->find("zz"), kNoWord);
  EXPECT_EQ(model_->find("A"), kNoWord);  // case-sensitive
}

// Values worked out by hand from tiny.arpa (see the back-off recursion in arpa_model.h).
TEST_F(TinyArpa, HandCheckedProbabilities) {
  EXPECT_NEAR(p10("a", {"<s>"}), -0.3, 1e-6);               // listed bigram
  EXPECT_NEAR(p10("b", {"<s>", "a"}), -0.1, 1e-6);          // listed trigram
  EXPECT_NEAR(p10("</s>", {"a", "b"}), -0.25 - 0.4, 1e-6);  // b(a b) + p(b </s>)
  EXPECT_NEAR(p10("c", {"a", "b"}), -0.15, 1e-6);
  EXPECT_NEAR(p10("c", {"<s>", "a"}), -0.4 - 0.3 - 1.2, 1e-6);  // b(<s> a) + b(a) + p(c)
  EXPECT_NEAR(p10("a", {"b", "c"}), 0.0 - 0.1 - 0.7, 1e-6);     // "b c" has no backoff
  EXPECT_NEAR(p10("a", {}), -0.7, 1e-6);
  EXPECT_NEAR(p10("b", {"c", "<s>", "a"}), -0.1, 1e-6);  // only the last two words count
}

TEST_F(TinyArpa, OovInContextCutsTheHistory) {
  const std::vector<WordId> ctx = {id("<s>"), kNoWord, id("a")};
  EXPECT_NEAR(model_->log10_prob(id("b"), ctx), -0.5, 1e-6);  // bigram a b, not <s> . a b
  const std::vector<WordId> cut = {id("a"), kNoWord};
  EXPECT_NEAR(model_->log10_prob(id("b"), cut), -0.8, 1e-6);  // unigram
}

TEST_F(TinyArpa, NaturalLogIsLog10TimesLn10) {
  const std::vector<WordId> ctx = {id("<s>")};
  EXPECT_NEAR(model_->log_prob(id("a"), ctx), -0.3 * std::numbers::ln10, 1e-6);
}

TEST(ArpaModel, AddsUnkWhenAbsent) {
  const std::string path = ::testing::TempDir() + "/no_unk.arpa";
  {
    std::FILE* f = std::fopen(path.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs("\\data\\\nngram 1=3\n\n\\1-grams:\n-1 <s>\n-0.5 </s>\n-0.2 x\n\n\\end\\\n", f);
    std::fclose(f);
  }
  const auto model = ArpaModel::load(path);
  EXPECT_EQ(model->order(), 1);
  ASSERT_NE(model->unknown(), kNoWord);
  EXPECT_EQ(model->word(model->unknown()), "<unk>");
  EXPECT_NEAR(model->log10_prob(model->unknown(), {}), -100.0, 1e-9);
}

struct BrokenCase {
  const char* file;
  const char* location;  // expected "file:line[:column]" suffix
  const char* message;
};

// Readable parameter names for gtest and ctest (the file name without its extension).
void PrintTo(const BrokenCase& c, std::ostream* os) {
  *os << c.file;
}
std::string case_name(const ::testing::TestParamInfo<BrokenCase>& info) {
  std::string n = info.param.file;
  n = n.substr(0, n.find('.'));
  return n;
}

class BrokenArpa : public ::testing::TestWithParam<BrokenCase> {};

TEST_P(BrokenArpa, IsRejectedWithLocation) {
  const BrokenCase& c = GetParam();
  const std::string path = broken(c.file);
  try {
    ArpaModel::load(path);
    FAIL() << "no error for " << c.file;
  } catch (const core::ParseError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind(path + c.location, 0), 0u) << what;
    EXPECT_NE(what.find(c.message), std::string::npos) << what;
  }
}

INSTANTIATE_TEST_SUITE_P(
    EveryErrorPath, BrokenArpa,
    ::testing::Values(
        BrokenCase{"empty.arpa", ": ", "empty file"},
        BrokenCase{"no_header.arpa", ":1:1: ", "expected '\\data\\'"},
        BrokenCase{"bad_count.arpa", ":3:9: ", "expected a non-negative n-gram count, got 'five'"},
        BrokenCase{"gap_order.arpa", ":3:7: ", "orders must be consecutive"},
        BrokenCase{"wrong_section.arpa", ":14:1: ", "expected '\\2-grams:', got '\\3-grams:'"},
        BrokenCase{"bad_prob.arpa", ":11:1: ", "expected a log10 probability, got '-0.x'"},
        BrokenCase{"bad_backoff.arpa", ":10:8: ", "expected a log10 backoff, got 'zz'"},
        BrokenCase{"huge_backoff.arpa", ":10:8: ", "expected a log10 backoff, got '-1e39'"},
        BrokenCase{"field_count.arpa", ":16:1: ", "expected 3 or 4 fields"},
        BrokenCase{"fewer_entries.arpa",
                   ":19:1: ", "ends after 4 entries, but \\data\\ declares 5"},
        BrokenCase{"more_entries.arpa", ":24:1: ", "more 3-grams than the 2 declared"},
        BrokenCase{"truncated.arpa", ":16: ", "file ends after 2 of the 5 2-grams"},
        BrokenCase{"no_end.arpa", ":24: ", "without '\\end\\'"},
        BrokenCase{"unknown_word.arpa", ":18:8: ", "word 'zz' of this 2-gram is not among"},
        BrokenCase{"duplicate.arpa", ":18:6: ", "duplicate 2-gram"},
        BrokenCase{"positive_prob.arpa", ":19:1: ", "must be <= 0, got 0.5"},
        BrokenCase{"backoff_highest.arpa", ":22:1: ", "expected 4 fields"}),
    case_name);

TEST(ArpaModel, MissingFileIsIoError) {
  EXPECT_THROW(ArpaModel::load(broken("does_not_exist.arpa")), core::IoError);
}

}  // namespace
}  // namespace assay::lm
