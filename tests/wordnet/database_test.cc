// Database: one instance per directory, each half loaded once (also under concurrent first
// use), the lexicon without the data files, errors retried; on the handcrafted mini database
// of tests/data/knowledge and on Debian's WordNet 3.0.
#include "wordnet/database.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <thread>
#include <vector>

#include "core/error.h"
#include "support/temp_dir.h"

namespace assay::wordnet {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

const std::string kMini = std::string(ASSAY_TEST_DATA_DIR) + "/knowledge/wordnet-mini";

// A copy of the mini database without the files whose names start with `skip`.
std::string copy_mini(const assay::testing::TempDir& dir, const std::string& skip = "") {
  for (const auto& e : std::filesystem::directory_iterator(kMini)) {
    if (!skip.empty() && e.path().filename().string().rfind(skip, 0) == 0) continue;
    std::filesystem::copy_file(e.path(), dir.path() / e.path().filename());
  }
  return dir.path().string();
}

TEST(WordNetDatabase, OneInstancePerDirectory) {
  const auto a = Database::open(kMini);
  EXPECT_EQ(Database::open(kMini).get(), a.get());
  EXPECT_EQ(Database::open(kMini + "/").get(), a.get());
  EXPECT_EQ(Database::open(kMini + "/../wordnet-mini").get(), a.get());
  assay::testing::TempDir other;
  EXPECT_NE(Database::open(copy_mini(other)).get(), a.get());
}

TEST(WordNetDatabase, ConcurrentFirstUseLoadsOnce) {
  assay::testing::TempDir dir;
  const std::string path = copy_mini(dir);
  std::vector<const SynsetTable*> tables(8);
  std::vector<const Lexicon*> lexicons(8);
  // Opened first (opening loads nothing) and held, so that the instance outlives every thread:
  // opened after them, a thread that finished first would have released the only instance.
  const auto held = Database::open(path);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < tables.size(); ++i) {
    threads.emplace_back([&, i] {
      const auto db = Database::open(path);
      // Half the threads start with the lexicon, half with the synsets.
      if (i % 2) lexicons[i] = &db->lexicon();
      tables[i] = &db->synsets();
      lexicons[i] = &db->lexicon();
    });
  }
  for (auto& t : threads) t.join();
  for (std::size_t i = 0; i < tables.size(); ++i) {
    EXPECT_EQ(tables[i], &held->synsets());
    EXPECT_EQ(lexicons[i], &held->lexicon());
  }
  EXPECT_EQ(held->synsets().size(), 17u);
}

TEST(WordNetDatabase, LexiconNeedsNoDataFiles) {
  assay::testing::TempDir dir;
  const auto db = Database::open(copy_mini(dir, "data."));
  EXPECT_TRUE(db->lexicon().is_lemma("actor", PartOfSpeech::kNoun));
  EXPECT_FALSE(db->lexicon().is_lemma("actor", PartOfSpeech::kVerb));
  try {
    db->synsets();
    FAIL() << "no error";
  } catch (const core::MissingResourceError& e) {
    EXPECT_THAT(e.what(), HasSubstr("data.noun"));
    EXPECT_THAT(e.what(), HasSubstr("wordnet-base"));
  }
}

TEST(WordNetDatabase, FailedLoadIsRetried) {
  assay::testing::TempDir dir;
  const auto db = Database::open(copy_mini(dir, "index.verb"));
  EXPECT_THROW(db->lexicon(), core::MissingResourceError);
  EXPECT_THROW(db->synsets(), core::MissingResourceError);
  std::filesystem::copy_file(kMini + "/index.verb", dir.path() / "index.verb");
  EXPECT_EQ(db->synsets().size(), 17u);
  EXPECT_EQ(db->senses("actor", PartOfSpeech::kNoun).size(), 1u);
}

TEST(WordNetDatabase, ExceptionLinesKeepEveryLine) {
  // noun.exc lists "aurar" twice (eyir, eyrir): the database keeps both lines in file order.
  const auto db = Database::open();
  const auto* lines = db->lexicon().exception_lines("aurar", PartOfSpeech::kNoun);
  ASSERT_NE(lines, nullptr);
  ASSERT_EQ(lines->size(), 2u);
  EXPECT_THAT((*lines)[0], ElementsAre("eyir"));
  EXPECT_THAT((*lines)[1], ElementsAre("eyrir"));
  const auto* forms = db->lexicon().exception_forms("goose", PartOfSpeech::kNoun);
  ASSERT_NE(forms, nullptr);
  EXPECT_THAT(*forms, ElementsAre("geese"));
  EXPECT_EQ(db->lexicon().exception_lines("goose", PartOfSpeech::kNoun), nullptr);
}

TEST(WordNetDatabase, RealWordNetSizes) {
  const auto db = Database::open();
  const SynsetTable& t = db->synsets();
  EXPECT_EQ(t.size(), 117659u);  // WordNet 3.0: 82,115 + 13,767 + 18,156 + 3,621
  EXPECT_EQ(db->lexicon().n_lemmas(),
            155287u);  // 117,798 + 11,529 + 21,479 + 4,481 index entries
  const auto senses = db->senses("bank", PartOfSpeech::kNoun);
  ASSERT_EQ(senses.size(), 10u);
  EXPECT_EQ(t.gloss(t.at(senses[0])).rfind("sloping land", 0), 0u);
  EXPECT_EQ(t.word(t.at(senses[0]), 0), "bank");
}

}  // namespace
}  // namespace assay::wordnet
