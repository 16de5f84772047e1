// The CMU trigram through libsphinxbase against Debian's sphinx_lm_eval on the same model
// (goldens from tools/goldens/lm_sphinx_eval.py). Setup installs pocketsphinx-en-us, so in CI
// these tests run; they skip only where the model file is absent.
#include "lm/sphinx_model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "core/error.h"
#include "core/line_reader.h"
#include "lm/sentence_scorer.h"

namespace assay::lm {
namespace {

const double kLnBase = std::log(1.0001);

nlohmann::json read_goldens() {
  std::ifstream in(std::string(ASSAY_TEST_DATA_DIR) + "/lm/sphinx_lm_eval_goldens.json");
  return nlohmann::json::parse(in);
}

std::vector<std::string> read_lines(const std::string& path, std::size_t limit) {
  core::LineReader reader(path);
  std::vector<std::string> out;
  std::string_view line;
  while (out.size() < limit && reader.next(line)) out.emplace_back(line);
  return out;
}

// Scores in sphinxbase's integer unit (log base 1.0001), scored tokens only, text order.
std::vector<long> raw_scores(const SentenceScore& s) {
  std::vector<long> out;
  for (const auto& t : s.tokens) {
    if (!t.scored) continue;
    const double raw = t.log_prob / kLnBase;
    EXPECT_NEAR(raw, std::round(raw), 1e-6);
    out.push_back(std::lround(raw));
  }
  return out;
}

class CmuTrigram : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (std::filesystem::exists(kCmuTrigramPath)) model_ = SphinxModel::load().release();
  }
  static void TearDownTestSuite() {
    delete model_;
    model_ = nullptr;
  }
  void SetUp() override {
    if (!model_) GTEST_SKIP() << kCmuTrigramPath << " is absent (install " << kCmuTrigramPackage
                              << ")";
  }
  static SphinxModel* model_;
};
SphinxModel* CmuTrigram::model_ = nullptr;

TEST_F(CmuTrigram, VocabularyMatchesTheModelCard) {
  EXPECT_EQ(model_->order(), 3);
  EXPECT_EQ(model_->vocabulary_size(), 72547);
  EXPECT_EQ(model_->word(model_->begin_sentence()), "<s>");
  EXPECT_EQ(model_->word(model_->end_sentence()), "</s>");
  EXPECT_EQ(model_->unknown(), kNoWord);
  EXPECT_EQ(model_->find("zzqqx"), kNoWord);
  EXPECT_EQ(model_->find("Hello"), kNoWord);
  const WordId hello = model_->find("hello");
  ASSERT_NE(hello, kNoWord);
  EXPECT_EQ(model_->word(hello), "hello");
  // Every id round-trips through find().
  for (WordId i = 0; i < model_->vocabulary_size(); i += 997) {
    EXPECT_EQ(model_->find(model_->word(i)), i);
  }
}

TEST_F(CmuTrigram, SentencesEqualSphinxLmEval) {
  const auto goldens = read_goldens();
  const auto lines =
      read_lines(std::string(ASSAY_TEST_DATA_DIR) + "/lm/sentences.txt", 1000);
  ASSERT_EQ(goldens["sentences"].size(), lines.size());
  for (const auto& g : goldens["sentences"]) {
    const std::string& text = lines.at(g["line"].get<std::size_t>() - 1);
    const auto words = split_words(text);
    const auto s = score_sentence(*model_, words);
    EXPECT_EQ(raw_scores(s), g["token_scores"].get<std::vector<long>>()) << text;
    EXPECT_NEAR(s.log_prob / kLnBase, g["lm_score"].get<double>(), 1e-3) << text;
    EXPECT_EQ(s.n_oov, g["n_oov"].get<std::size_t>()) << text;
    EXPECT_EQ(words.size() + 2, g["n_words"].get<std::size_t>()) << text;  // with <s> </s>
  }
}

TEST_F(CmuTrigram, RtPolarityTokensEqualSphinxLmEval) {
  const auto goldens = read_goldens();
  for (const auto& g : goldens["corpora"]) {
    const std::string path = std::string(ASSAY_SHARED_DATA_DIR) + "/" + g["file"].get<std::string>();
    if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is absent";
    const auto lines = read_lines(path, g["n_lines"].get<std::size_t>());
    std::vector<long> all;
    double total = 0;
    std::size_t n_oov = 0;
    for (const auto& line : lines) {
      const auto s = score_sentence(*model_, split_words(line));
      auto raw = raw_scores(s);
      all.insert(all.end(), raw.rbegin(), raw.rend());  // sphinx_lm_eval prints last first
      total += s.log_prob / kLnBase;
      n_oov += s.n_oov;
    }
    const auto expected = g["token_scores"].get<std::vector<long>>();
    ASSERT_EQ(all.size(), expected.size()) << path;
    std::size_t mismatches = 0;
    for (std::size_t i = 0; i < all.size(); ++i) mismatches += all[i] != expected[i];
    EXPECT_EQ(mismatches, 0u) << path;
    EXPECT_NEAR(total, g["lm_score"].get<double>(), 1e-2) << path;
    EXPECT_EQ(n_oov, g["n_oov"].get<std::size_t>()) << path;
  }
}

TEST_F(CmuTrigram, LogProbIsUsableOverTheVocabulary) {
  // Normalisation over the vocabulary (what the AEON n-gram SynEval does): the unigram
  // distribution sums to about one.
  double sum = 0;
  for (WordId i = 0; i < model_->vocabulary_size(); ++i) sum += std::exp(model_->log_prob(i, {}));
  EXPECT_NEAR(sum, 1.0, 0.05);
}

TEST_F(CmuTrigram, ConcurrentQueriesEqualSerialOnes) {
  const auto lines = read_lines(std::string(ASSAY_TEST_DATA_DIR) + "/lm/sentences.txt", 1000);
  std::vector<double> serial;
  for (const auto& l : lines) serial.push_back(score_sentence(*model_, split_words(l)).log_prob);
  std::vector<std::vector<double>> parallel(3, std::vector<double>(lines.size()));
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < parallel.size(); ++t) {
    threads.emplace_back([&, t] {
      for (int rep = 0; rep < 5; ++rep) {
        for (std::size_t i = 0; i < lines.size(); ++i) {
          parallel[t][i] = score_sentence(*model_, split_words(lines[i])).log_prob;
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  for (const auto& p : parallel) EXPECT_EQ(p, serial);  // bitwise
}

TEST(SphinxModel, MissingModelNamesThePackage) {
  try {
    SphinxModel::load("/nonexistent/en-us.lm.bin");
    FAIL();
  } catch (const core::MissingResourceError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/en-us.lm.bin"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("apt-get install pocketsphinx-en-us"), std::string::npos);
  }
}

TEST(SphinxModel, UnreadableFileIsParseError) {
  const std::string path = std::string(ASSAY_TEST_DATA_DIR) + "/lm/sentences.txt";
  try {
    SphinxModel::load(path);
    FAIL();
  } catch (const core::ParseError& e) {
    EXPECT_NE(std::string(e.what()).find(path + ": sphinxbase cannot read"), std::string::npos);
  }
}

}  // namespace
}  // namespace assay::lm
