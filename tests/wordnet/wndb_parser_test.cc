#include "wordnet/wndb_parser.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace assay::wordnet::wndb {
namespace {

using ::testing::HasSubstr;

const core::SourceLocation kWhere("data.noun", 7);

std::string error_of(void (*fn)(std::string_view), std::string_view line) {
  try {
    fn(line);
  } catch (const core::ParseError& e) {
    return e.what();
  }
  return "no error";
}

void data(std::string_view l) {
  parse_data_line(l, kWhere);
}
void index(std::string_view l) {
  parse_index_line(l, kWhere);
}

TEST(WndbParser, DataLineWithLexicalAndSemanticPointers) {
  const std::string line =
      "09767700 18 n 02 actress 0 female_actor 1 003 @ 09765278 n 0000 ! 09765278 n 0101 "
      "#m 08000000 n 0000 | a female actor  ";
  const DataRecord r = parse_data_line(line, kWhere);
  EXPECT_EQ(r.offset, 9767700u);
  EXPECT_EQ(r.lex_filenum, 18);
  EXPECT_EQ(r.pos, PartOfSpeech::kNoun);
  ASSERT_EQ(r.words.size(), 2u);
  EXPECT_EQ(r.words[1].lemma, "female_actor");
  ASSERT_EQ(r.pointers.size(), 2u);  // '#m' is not kept
  EXPECT_EQ(r.pointers[0].kind, PointerKind::kHypernym);
  EXPECT_EQ(r.pointers[1].kind, PointerKind::kAntonym);
  EXPECT_EQ(r.pointers[1].source_word, 1);
  EXPECT_EQ(r.pointers[1].target_word, 1);
  EXPECT_EQ(r.gloss, "a female actor");
}

TEST(WndbParser, VerbFramesAndAdjectiveMarkers) {
  const DataRecord v =
      parse_data_line("00000100 36 v 01 act 0 000 02 + 02 00 + 08 01 | perform", kWhere);
  EXPECT_EQ(v.pos, PartOfSpeech::kVerb);
  EXPECT_EQ(v.gloss, "perform");
  const DataRecord a = parse_data_line("00000200 00 s 01 galore(ip) 0 000 | plenty", kWhere);
  EXPECT_TRUE(a.satellite);
  EXPECT_EQ(a.words[0].lemma, "galore");
}

TEST(WndbParser, IndexLine) {
  const IndexRecord r = parse_index_line("queen n 2 2 ! @ 2 1 00000910 00000920  ", kWhere);
  EXPECT_EQ(r.lemma, "queen");
  ASSERT_EQ(r.offsets.size(), 2u);
  EXPECT_EQ(r.offsets[0], 910u);
}

TEST(WndbParser, BadDataLinesNameLineAndColumn) {
  EXPECT_THAT(error_of(data, "0000x100 03 n 01 entity 0 000 | x"),
              HasSubstr("data.noun:7:1: expected an 8-digit synset offset, got '0000x100'"));
  EXPECT_THAT(error_of(data, "00000100 03 q 01 entity 0 000 | x"),
              HasSubstr("data.noun:7:13: expected a part of speech"));
  EXPECT_THAT(error_of(data, "00000100 03 n 01 entity 0 001 ~ 00000200 n 0000"),
              HasSubstr("expected '|' and a gloss, got end of line"));
  EXPECT_THAT(error_of(data, "00000100 03 n 01 entity 0 002 ~ 00000200 n 0000 | gloss"),
              HasSubstr("expected an 8-digit target synset offset, got 'gloss'"));
  EXPECT_THAT(error_of(data, "00000100 03 n 01 entity 0 001 ! 00000200 n 0301 | x"),
              HasSubstr("source word number"));
  EXPECT_THAT(error_of(data, "00000100 03 n 00 000 | x"), HasSubstr("word count of at least 1"));
  EXPECT_THAT(error_of(data, "00000100 36 v 01 act 0 000 01 - 02 00 | x"),
              HasSubstr("expected '+' before a verb frame"));
}

TEST(WndbParser, BadIndexLines) {
  EXPECT_THAT(
      error_of(index, "person n 1 2 @ ~ 2 0 00000300"),
      HasSubstr("data.noun:7:18: expected a sense count equal to the synset count 1, got '2'"));
  EXPECT_THAT(error_of(index, "person n 2 2 @ ~ 2 0 00000300"),
              HasSubstr("expected an 8-digit synset offset, got end of line"));
  EXPECT_THAT(error_of(index, "person n 1 2 @ ~ 1 0 00000300 00000400"),
              HasSubstr("expected end of line after 1 synset offsets"));
}

TEST(WndbParser, ExceptionLine) {
  const auto f = parse_exception_line("geese goose", kWhere);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[1], "goose");
  EXPECT_THROW(parse_exception_line("geese", kWhere), core::ParseError);
}

}  // namespace
}  // namespace assay::wordnet::wndb
