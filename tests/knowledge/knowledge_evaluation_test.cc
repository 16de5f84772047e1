#include "knowledge/knowledge_evaluation.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/error.h"
#include "knowledge_test_paths.h"
#include "support/error_message.h"
#include "support/shared_data.h"
#include "support/temp_dir.h"

namespace assay::knowledge {
namespace {

using ::testing::HasSubstr;
using testing::kShared;

TEST(KnowledgeEvaluation, ReadsTheSharedLists) {
  ASSAY_REQUIRE_FILE(kShared + "/mt-nlp-word-pairs/word_pairs.txt");
  ASSAY_REQUIRE_FILE(kShared + "/debiaswe-gender-lists/definitional_pairs.json");
  const auto mt = read_tab_pairs(kShared + "/mt-nlp-word-pairs/word_pairs.txt");
  ASSERT_EQ(mt.size(), 16u);
  EXPECT_EQ(mt[0].male, "actor");
  EXPECT_EQ(mt[0].female, "actress");
  const auto def =
      read_json_pairs(kShared + "/debiaswe-gender-lists/definitional_pairs.json", true);
  ASSERT_EQ(def.size(), 10u);
  EXPECT_EQ(def[0].male, "man");
  EXPECT_EQ(def[0].female, "woman");
  EXPECT_EQ(noun_pairs(def, testing::kPersonLabels).size(), 6u);
  EXPECT_EQ(read_json_words(kShared + "/debiaswe-gender-lists/professions.json").size(), 320u);
  const auto words = person_benchmark(kShared, testing::kPersonLabels);
  std::size_t n_non = 0;
  for (const auto& w : words) {
    n_non += !w.person;
    EXPECT_NE(w.word, "he");  // skipped
  }
  EXPECT_EQ(n_non, 74u);  // 44 from the lists, 30 everyday nouns
}

TEST(KnowledgeEvaluation, BadInputNamesTheFileAndLine) {
  assay::testing::TempDir dir;
  const auto pairs = dir.write("pairs.txt", "actor\tactress\nboy girl\n");
  EXPECT_THAT(assay::testing::error_message_of([&] { read_tab_pairs(pairs); }),
              HasSubstr("pairs.txt:2: expected two tab-separated words"));
  const auto json = dir.write("pairs.json", "[[\"a\", \"b\"], [\"c\"]]");
  EXPECT_THAT(assay::testing::error_message_of([&] { read_json_pairs(json, true); }),
              HasSubstr("element 1: expected a pair of strings"));
  const auto bad_json = dir.write("bad.json", "[\"a\",");
  EXPECT_THAT(assay::testing::error_message_of([&] { read_json_words(bad_json); }),
              HasSubstr("bad.json:1:"));
  const auto labels = dir.write("labels.tsv", "# comment\nlion\tnonperson\nsun\tstar\n");
  EXPECT_THAT(assay::testing::error_message_of([&] { read_person_labels(labels); }),
              HasSubstr("labels.tsv:3: expected 'word<TAB>nonperson'"));
}

}  // namespace
}  // namespace assay::knowledge
