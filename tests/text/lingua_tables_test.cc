#include "text/lingua_tables.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/error.h"
#include "support/temp_dir.h"

namespace assay::text {
namespace {

// A complete miniature table set in dir/Tagger/ with Tagger.pm next to it.
std::string write_tables(const testing::TempDir& dir, const std::string& words,
                         const std::string& tags =
                             "--- #YAML:1.0\npp: { det: 0.5, nn: 0.5 }\n"
                             "det: { nn: 0.9, pp: 0.1 }\n"
                             "nn: { pp: 0.6, nn: 0.4 }\n",
                         const std::string& unknown = "\"-sym-\": { sym: 1000 }\n") {
  const std::filesystem::path base = dir.path() / "Tagger";
  std::filesystem::create_directories(base);
  std::ofstream(base / "words.yml") << words;
  std::ofstream(base / "tags.yml") << tags;
  std::ofstream(base / "unknown.yml") << unknown;
  std::ofstream(dir.path() / "Tagger.pm")
      << "sub _split_sentences {\n    my @MISC = qw/vs etc no/;\n    my %ABBR = ();\n}\n";
  return base.string();
}

std::string load_error(const std::string& dir) {
  try {
    LinguaTables::load(dir);
  } catch (const core::Error& e) {
    return e.what();
  }
  return "";
}

TEST(LinguaTables, LoadsTheInstalledTables) {
  const auto t = LinguaTables::load();
  EXPECT_GT(t.n_words(), 40000u);
  const auto nn = t.find_tag("nn"), det = t.find_tag("det");
  ASSERT_TRUE(nn && det);
  EXPECT_TRUE(t.has_transition(*det, *nn));
  EXPECT_GT(t.transition(*det, *nn), 0.3);
  const auto* actress = t.find_word("actress");
  ASSERT_NE(actress, nullptr);
  EXPECT_EQ(t.tag_name((*actress)[0].tag), "nn");
  EXPECT_NE(t.find_word("-ing-"), nullptr);  // unknown.yml
  EXPECT_TRUE(t.abbreviations().contains("mr"));
  EXPECT_TRUE(t.abbreviations().contains("etc"));
}

TEST(LinguaTables, ReadsAMiniatureTableSet) {
  testing::TempDir dir;
  const auto base = write_tables(dir,
                                 "--- #YAML:1.0\nthe: { det: 100 }\n\"``\": { ppl: 3 } \n"
                                 "dog: { nn: 5, vb: 1 }\n");
  const auto t = LinguaTables::load(base);
  EXPECT_EQ(t.n_words(), 4u);
  ASSERT_NE(t.find_word("``"), nullptr);
  EXPECT_EQ(t.find_word("dog")->size(), 2u);
  EXPECT_EQ(t.find_word("dog")->at(0).count, 5);
  EXPECT_TRUE(t.abbreviations().contains("vs"));
  EXPECT_FALSE(t.has_transition(*t.find_tag("pp"), *t.find_tag("vb")));
}

TEST(LinguaTables, MissingDirectoryNamesTheDebianPackage) {
  const std::string msg = load_error("/nonexistent/Lingua/EN/Tagger");
  EXPECT_NE(msg.find("liblingua-en-tagger-perl"), std::string::npos) << msg;
  EXPECT_NE(msg.find("/nonexistent/Lingua/EN/Tagger/words.yml"), std::string::npos) << msg;
  EXPECT_THROW(LinguaTables::load("/nonexistent"), core::MissingResourceError);
}

TEST(LinguaTables, MissingUnknownTableIsReported) {
  testing::TempDir dir;
  const auto base = write_tables(dir, "a: { det: 1 }\n");
  std::filesystem::remove(std::filesystem::path(base) / "unknown.yml");
  const std::string msg = load_error(base);
  EXPECT_NE(msg.find("unknown.yml"), std::string::npos) << msg;
  EXPECT_NE(msg.find("apt-get install liblingua-en-tagger-perl"), std::string::npos) << msg;
}

TEST(LinguaTables, LineWithoutMappingNamesFileAndLine) {
  testing::TempDir dir;
  const auto base = write_tables(dir, "--- #YAML:1.0\nthe: { det: 100 }\ndog nn 5\n");
  const std::string msg = load_error(base);
  EXPECT_NE(msg.find("words.yml:3"), std::string::npos) << msg;
  EXPECT_NE(msg.find("expected a one-line mapping"), std::string::npos) << msg;
}

TEST(LinguaTables, BadCountNamesFileLineAndColumn) {
  testing::TempDir dir;
  const auto base = write_tables(dir, "the: { det: 100 }\ndog: { nn: many }\n");
  const std::string msg = load_error(base);
  EXPECT_NE(msg.find("words.yml:2:12"), std::string::npos) << msg;
  EXPECT_NE(msg.find("'many'"), std::string::npos) << msg;
}

TEST(LinguaTables, OddPairsInTransitionTableNamesFileAndLine) {
  testing::TempDir dir;
  const auto base = write_tables(dir, "the: { det: 100 }\n", "pp: { det: 0.5, nn }\n");
  const std::string msg = load_error(base);
  EXPECT_NE(msg.find("tags.yml:1"), std::string::npos) << msg;
  EXPECT_NE(msg.find("'tag: number' pairs"), std::string::npos) << msg;
}

TEST(LinguaTables, TextAfterClosingBraceIsRejected) {
  testing::TempDir dir;
  const auto base = write_tables(dir, "the: { det: 100 } junk\n");
  const std::string msg = load_error(base);
  EXPECT_NE(msg.find("words.yml:1"), std::string::npos) << msg;
}

TEST(LinguaTables, ModuleWithoutAbbreviationListsIsRejected) {
  testing::TempDir dir;
  const auto base = write_tables(dir, "the: { det: 100 }\n");
  std::ofstream(dir.path() / "Tagger.pm") << "package Lingua::EN::Tagger;\n1;\n";
  const std::string msg = load_error(base);
  EXPECT_NE(msg.find("Tagger.pm"), std::string::npos) << msg;
  EXPECT_NE(msg.find("no abbreviation lists"), std::string::npos) << msg;
}

}  // namespace
}  // namespace assay::text
