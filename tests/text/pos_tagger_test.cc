#include "text/pos_tagger.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "core/error.h"
#include "golden_tags.h"
#include "support/shared_data.h"
#include "support/temp_dir.h"

namespace assay::text {
namespace {

std::vector<std::string> tag_names(const PosTagger& tagger, std::string_view text) {
  const TaggedText t = tagger.tag_text(text);
  std::vector<std::string> out;
  for (TagId id : t.tags) out.emplace_back(tagger.tag_name(id));
  return out;
}

const PosTagger& shared_tagger() {
  static const PosTagger tagger;
  return tagger;
}

struct Agreement {
  std::size_t n_tokens = 0;
  std::size_t n_agree = 0;
  std::size_t n_sentences_with_token_mismatch = 0;
};

Agreement measure(const PosTagger& tagger) {
  const auto golden = testing::read_golden_tags(testing::kGoldenTags);
  const auto sentences = testing::read_lines(testing::kRtPolarityPos, golden.size());
  EXPECT_EQ(golden.size(), 1000u);
  EXPECT_EQ(sentences.size(), golden.size());
  Agreement a;
  for (std::size_t s = 0; s < std::min(golden.size(), sentences.size()); ++s) {
    const auto ours = tag_names(tagger, sentences[s]);
    const auto& ref = golden[s];
    a.n_tokens += std::max(ours.size(), ref.size());
    if (ours.size() != ref.size()) {
      ++a.n_sentences_with_token_mismatch;
      continue;  // every token of a mis-tokenised sentence counts as a disagreement
    }
    for (std::size_t k = 0; k < ref.size(); ++k) a.n_agree += ours[k] == ref[k];
  }
  return a;
}

TEST(PosTagger, AgreesWithPerlLinguaTaggerOnRtPolarity) {
  ASSAY_REQUIRE_FILE(testing::kRtPolarityPos);
  const Agreement a = measure(shared_tagger());
  const double rate = static_cast<double>(a.n_agree) / static_cast<double>(a.n_tokens);
  std::printf(
      "agreement with Lingua::EN::Tagger: %zu / %zu tokens = %.4f%%, %zu sentences "
      "tokenised differently\n",
      a.n_agree, a.n_tokens, 100 * rate, a.n_sentences_with_token_mismatch);
  EXPECT_GT(a.n_tokens, 15000u);
  EXPECT_GE(rate, 0.99);
}

TEST(PosTagger, ViterbiDecoderIsCloseToTheGreedyOne) {
  ASSAY_REQUIRE_FILE(testing::kRtPolarityPos);
  PosTaggerOptions o;
  o.decoder = Decoder::kViterbi;
  const PosTagger viterbi(o);
  const Agreement a = measure(viterbi);
  const double rate = static_cast<double>(a.n_agree) / static_cast<double>(a.n_tokens);
  std::printf("Viterbi decoder agreement with Lingua::EN::Tagger: %.4f%%\n", 100 * rate);
  EXPECT_GE(rate, 0.95);
  EXPECT_LT(rate, 1.0);  // exact decoding does change some tags
}

TEST(PosTagger, TagsSimpleSentences) {
  // Expected values are the Perl module's output for the same strings.
  const auto& t = shared_tagger();
  EXPECT_EQ(tag_names(t, "The actor is happy."),
            (std::vector<std::string>{"det", "nn", "vbz", "jj", "pp"}));
  EXPECT_EQ(tag_names(t, "The actor is happy. She does not like it!"),
            (std::vector<std::string>{"det", "nn", "vbz", "jj", "pp", "prp", "vbz", "rb", "in",
                                      "prp", "pp"}));
}

TEST(PosTagger, UnknownWordClasses) {
  const auto& t = shared_tagger();
  EXPECT_EQ(tag_names(t, "blorfing")[0], "vbg");  // -ing-
  EXPECT_EQ(tag_names(t, "12:30")[0], "cd");      // *NUM*
  EXPECT_EQ(tag_names(t, "#")[0], "sym");
  EXPECT_EQ(tag_names(t, "Zyxwv")[0], "nnp");    // -cap-
  EXPECT_EQ(tag_names(t, "blorfish")[0], "nn");  // -unknown-
}

TEST(PosTagger, HyphenSuffixLookupMakesTheSuffixATaglessWord) {
  // The Perl module autovivifies the suffix of an unknown hyphenated word; later in the same
  // text the bare suffix is a known word without tags and gets "nn" (perl -MLingua::EN::Tagger
  // -e 'print Lingua::EN::Tagger->new->add_tags("very-blorfing blorfing")').
  const auto& t = shared_tagger();
  EXPECT_EQ(tag_names(t, "blorfing")[0], "vbg");
  EXPECT_EQ(tag_names(t, "very-blorfing blorfing"), (std::vector<std::string>{"jj", "nn"}));
}

TEST(PosTagger, EmptyTextHasNoTags) {
  EXPECT_TRUE(shared_tagger().tag_text("  \t ").tags.empty());
}

}  // namespace
}  // namespace assay::text

namespace assay::text {
namespace {

TEST(PosTagger, TablesWithoutSentenceTagAreRejected) {
  testing::TempDir dir;
  const std::filesystem::path base = dir.path() / "Tagger";
  std::filesystem::create_directories(base);
  std::ofstream(base / "words.yml") << "the: { det: 1 }\n";
  std::ofstream(base / "tags.yml") << "det: { nn: 1 }\nnn: { det: 1 }\n";
  std::ofstream(base / "unknown.yml") << "\"-sym-\": { sym: 1 }\n";
  std::ofstream(dir.path() / "Tagger.pm") << "sub _split_sentences {\n my @A = qw/mr/;\n";
  PosTaggerOptions o;
  o.tables_dir = base.string();
  try {
    PosTagger t(o);
    FAIL() << "no exception";
  } catch (const core::ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("tags.yml"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("no 'pp' tag"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace assay::text
