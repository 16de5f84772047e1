#include "text/wordnet_lemmatizer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/error.h"
#include "core/line_reader.h"
#include "support/temp_dir.h"

namespace assay::text {
namespace {

const WordNetLemmatizer& lemmatizer() {
  static const WordNetLemmatizer l;
  return l;
}

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == sep) {
      out.emplace_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return out;
}

TEST(WordNetLemmatizer, EqualsNltkOnEveryNounAndVerbOfTheSample) {
  core::LineReader golden(ASSAY_TEST_DATA_DIR "/text/rt_polarity_pos_1000.lemmas");
  std::string_view line;
  std::size_t n = 0, n_lemma_equal = 0, n_candidates_equal = 0, n_changed = 0;
  while (golden.next(line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto f = split(line, '\t');
    ASSERT_EQ(f.size(), 4u) << golden.location().to_string();
    const PartOfSpeech pos = f[1] == "n" ? PartOfSpeech::kNoun : PartOfSpeech::kVerb;
    const std::string lemma = lemmatizer().lemmatize(f[0], pos);
    EXPECT_EQ(lemma, f[2]) << f[0] << "/" << f[1];
    n_lemma_equal += lemma == f[2];
    const auto cands = lemmatizer().morphy(f[0], pos);
    std::string joined;
    for (std::size_t k = 0; k < cands.size(); ++k) joined += (k ? "," : "") + cands[k];
    EXPECT_EQ(joined, f[3]) << f[0] << "/" << f[1];
    n_candidates_equal += joined == f[3];
    n_changed += f[2] != f[0];
    ++n;
  }
  std::printf(
      "lemmas equal to NLTK: %zu / %zu distinct (word, pos); candidate lists equal: "
      "%zu; %zu words change under lemmatisation\n",
      n_lemma_equal, n, n_candidates_equal, n_changed);
  EXPECT_GT(n, 2000u);
  EXPECT_GT(n_changed, 500u);
}

TEST(WordNetLemmatizer, ExceptionsAndRules) {
  const auto& l = lemmatizer();
  EXPECT_EQ(l.lemmatize("women", PartOfSpeech::kNoun), "woman");
  EXPECT_EQ(l.lemmatize("children", PartOfSpeech::kNoun), "child");
  EXPECT_EQ(l.lemmatize("went", PartOfSpeech::kVerb), "go");
  EXPECT_EQ(l.lemmatize("actresses", PartOfSpeech::kNoun), "actress");
  EXPECT_EQ(l.lemmatize("axes", PartOfSpeech::kNoun), "ax");  // shortest of ax, axis
  EXPECT_EQ(l.lemmatize("running", PartOfSpeech::kVerb), "run");
  EXPECT_EQ(l.lemmatize("xyzzies", PartOfSpeech::kNoun), "xyzzies");  // unknown: unchanged
  // A listed exception stops there: no rule-made "axe" (NLTK does the same).
  EXPECT_EQ(l.morphy("axes", PartOfSpeech::kNoun), (std::vector<std::string>{"ax", "axis"}));
  EXPECT_TRUE(l.is_lemma("person", PartOfSpeech::kNoun));
  EXPECT_FALSE(l.is_lemma("person", PartOfSpeech::kVerb));
}

TEST(WordNetLemmatizer, PosOfTags) {
  EXPECT_EQ(wordnet_pos_of_tag("nns"), PartOfSpeech::kNoun);
  EXPECT_EQ(wordnet_pos_of_tag("vbd"), PartOfSpeech::kVerb);
  EXPECT_EQ(wordnet_pos_of_tag("jjr"), PartOfSpeech::kAdjective);
  EXPECT_EQ(wordnet_pos_of_tag("rb"), PartOfSpeech::kAdverb);
  EXPECT_FALSE(wordnet_pos_of_tag("det").has_value());
}

// A minimal WordNet directory; `broken` replaces one file's content.
std::string write_wordnet(const testing::TempDir& dir, const std::string& name = "",
                          const std::string& content = "") {
  for (const char* s : {"noun", "verb", "adj", "adv"}) {
    const char pos = s[1] == 'd' && s[2] == 'v' ? 'r' : s[0];  // index.adv lists adverbs: r
    std::ofstream(dir.file(std::string("index.") + s))
        << "  1 licence header line\ncat " << pos << " 1 0 1 0 02121620\n";
    std::ofstream(dir.file(std::string(s) + ".exc")) << "cats cat\n";
  }
  if (!name.empty()) std::ofstream(dir.file(name)) << content;
  return dir.path().string();
}

std::string load_error(const std::string& dir) {
  try {
    WordNetLemmatizer l(dir);
  } catch (const core::Error& e) {
    return e.what();
  }
  return "";
}

TEST(WordNetLemmatizer, ReadsAMinimalDirectory) {
  testing::TempDir dir;
  const WordNetLemmatizer l(write_wordnet(dir));
  EXPECT_EQ(l.lemmatize("cats", PartOfSpeech::kNoun), "cat");
  EXPECT_EQ(l.exception_forms("cat", PartOfSpeech::kNoun), (std::vector<std::string>{"cats"}));
}

TEST(WordNetLemmatizer, MissingFileNamesTheDebianPackage) {
  testing::TempDir dir;
  write_wordnet(dir);
  std::filesystem::remove(dir.file("verb.exc"));
  const std::string msg = load_error(dir.path().string());
  EXPECT_NE(msg.find("verb.exc"), std::string::npos) << msg;
  EXPECT_NE(msg.find("apt-get install wordnet-base"), std::string::npos) << msg;
  EXPECT_THROW(WordNetLemmatizer("/nonexistent/wordnet"), core::MissingResourceError);
}

TEST(WordNetLemmatizer, MalformedIndexLineNamesFileAndLine) {
  testing::TempDir dir;
  const std::string msg =
      load_error(write_wordnet(dir, "index.noun", "  1 header\ncat n 1 0 1 0 02121620\ndog x 1\n"));
  EXPECT_NE(msg.find("index.noun:3:5"), std::string::npos) << msg;
  EXPECT_NE(msg.find("part of speech"), std::string::npos) << msg;
}

TEST(WordNetLemmatizer, IndexLineWithoutPosNamesFileAndLine) {
  testing::TempDir dir;
  const std::string msg = load_error(write_wordnet(dir, "index.adv", "lonely\n"));
  EXPECT_NE(msg.find("index.adv:1"), std::string::npos) << msg;
}

TEST(WordNetLemmatizer, ExceptionLineWithoutBaseNamesFileAndLine) {
  testing::TempDir dir;
  const std::string msg = load_error(write_wordnet(dir, "noun.exc", "cats cat\nmice\n"));
  EXPECT_NE(msg.find("noun.exc:2"), std::string::npos) << msg;
  EXPECT_NE(msg.find("base-form"), std::string::npos) << msg;
}

}  // namespace
}  // namespace assay::text
