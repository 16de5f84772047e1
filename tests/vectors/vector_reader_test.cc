#include "vectors/vector_reader.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "support/shared_data.h"
#include "support/temp_dir.h"

namespace assay::vectors {
namespace {

using assay::testing::TempDir;

const std::string kData = std::string(ASSAY_TEST_DATA_DIR) + "/vectors/";
const std::string kGlove =
    std::string(ASSAY_SHARED_DATA_DIR) + "/word-vectors/glove.twitter.27B.25d.subset.txt";
const std::string kGarg =
    std::string(ASSAY_SHARED_DATA_DIR) + "/word-vectors/word2vec-googlenews-300d.garg-subset.txt";

nlohmann::json goldens() {
  std::ifstream in(kData + "gensim_goldens.json");
  return nlohmann::json::parse(in);
}

TEST(VectorReader, ParsesFormatNames) {
  EXPECT_EQ(parse_vector_format("glove"), VectorFormat::kGlove);
  EXPECT_EQ(parse_vector_format("word2vec"), VectorFormat::kWord2vecText);
  EXPECT_EQ(parse_vector_format("word2vec-bin"), VectorFormat::kWord2vecBinary);
  EXPECT_EQ(parse_vector_format("fasttext"), VectorFormat::kFasttext);
  EXPECT_THROW(parse_vector_format("bin"), core::UsageError);
}

TEST(VectorReader, ReadsTheSharedSubsets) {
  ASSAY_REQUIRE_FILE(kGlove);
  ASSAY_REQUIRE_FILE(kGarg);
  const auto glove = read_vectors(kGlove, VectorFormat::kWord2vecText);
  EXPECT_EQ(glove.size(), 11925u);
  EXPECT_EQ(glove.dim(), 25u);
  EXPECT_EQ(glove.word(0), "the");
  const auto garg = read_vectors(kGarg, VectorFormat::kFasttext);
  EXPECT_EQ(garg.size(), 116u);
  EXPECT_EQ(garg.dim(), 300u);
  EXPECT_TRUE(garg.find("nurse"));
}

TEST(VectorReader, LimitReadsThePrefix) {
  ASSAY_REQUIRE_FILE(kGlove);
  ReadOptions o;
  o.limit = 100;
  const auto m = read_vectors(kGlove, VectorFormat::kWord2vecText, o);
  EXPECT_EQ(m.size(), 100u);
  EXPECT_EQ(m.word(99), read_vectors(kGlove, VectorFormat::kWord2vecText).word(99));
}

// gensim wrote the same seeded matrix in three layouts; all must read to gensim's values.
TEST(VectorReader, BinaryTextAndGloveAgreeWithGensim) {
  const auto bin = read_vectors(kData + "tiny.w2v.bin", VectorFormat::kWord2vecBinary);
  const auto txt = read_vectors(kData + "tiny.w2v.txt", VectorFormat::kWord2vecText);
  const auto glv = read_vectors(kData + "tiny.glove.txt", VectorFormat::kGlove);
  ASSERT_EQ(bin.size(), 40u);
  ASSERT_EQ(bin.dim(), 6u);
  ASSERT_EQ(txt.size(), 40u);
  ASSERT_EQ(glv.size(), 40u);
  for (std::size_t i = 0; i < 40; ++i) {
    EXPECT_EQ(bin.word(i), txt.word(i));
    EXPECT_EQ(bin.word(i), glv.word(i));
    EXPECT_FLOAT_EQ(bin.norm(i), txt.norm(i));
    for (std::size_t k = 0; k < 6; ++k) {
      EXPECT_FLOAT_EQ(bin.row(i)[k], txt.row(i)[k]);
      EXPECT_FLOAT_EQ(bin.row(i)[k], glv.row(i)[k]);
    }
  }
  const auto g = goldens()["files"][2];
  ASSERT_EQ(g["file"], "tiny.w2v.bin");
  for (const auto& [word, values] : g["vectors"].items()) {
    const auto i = bin.find(word);
    ASSERT_TRUE(i) << word;
    for (std::size_t k = 0; k < 6; ++k) {
      EXPECT_FLOAT_EQ(bin.row(*i)[k] * bin.norm(*i), values[k].get<float>()) << word;
    }
  }
}

TEST(VectorReader, DuplicatesKeepTheFirstAndAreCounted) {
  TempDir dir;
  const auto p = dir.write("dup.txt", "3 2\na 1 0\nb 0 1\na 5 5\n");
  ReadStats stats;
  const auto m = read_vectors(p, VectorFormat::kWord2vecText, {}, &stats);
  EXPECT_EQ(m.size(), 2u);
  EXPECT_FLOAT_EQ(m.row(0)[0], 1.0f);
  EXPECT_EQ(stats.n_duplicates, 1u);
  EXPECT_EQ(stats.first_duplicate, p + ":4: a");
}

struct TextCase {
  const char* name;
  VectorFormat format;
  const char* content;
  const char* location;  // suffix after the path
  const char* message;
};

// Readable parameter names for gtest and ctest (the file name without its extension).
void PrintTo(const TextCase& c, std::ostream* os) {
  *os << c.name;
}
std::string text_case_name(const ::testing::TestParamInfo<TextCase>& info) {
  std::string n = info.param.name;
  n = n.substr(0, n.find('.'));
  return n;
}

class BrokenTextVectors : public ::testing::TestWithParam<TextCase> {};

TEST_P(BrokenTextVectors, NamesFileLineAndProblem) {
  const TextCase& c = GetParam();
  TempDir dir;
  const auto path = dir.write(c.name, c.content);
  try {
    read_vectors(path, c.format);
    FAIL() << c.name;
  } catch (const core::ParseError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind(path + c.location, 0), 0u) << what;
    EXPECT_NE(what.find(c.message), std::string::npos) << what;
  }
}

INSTANTIATE_TEST_SUITE_P(
    EveryErrorPath, BrokenTextVectors,
    ::testing::Values(
        TextCase{"empty.txt", VectorFormat::kWord2vecText, "", ": ", "empty file"},
        TextCase{"no_header.txt", VectorFormat::kWord2vecText, "a 1 2\nb 3 4\n",
                 ":1:1: ", "a text file without a header is GloVe"},
        TextCase{"header_in_glove.txt", VectorFormat::kGlove, "2 2\na 1 2\nb 3 4\n",
                 ":1:1: ", "looks like a word2vec/fastText header"},
        TextCase{"few_values.txt", VectorFormat::kWord2vecText, "2 3\na 1 2 3\nb 3 4\n",
                 ":3:3: ", "expected 3 values after the word 'b', got 2"},
        TextCase{"glove_dim.txt", VectorFormat::kGlove, "a 1 2 3\nb 3 4 5 6\n",
                 ":2:3: ", "expected 3 values"},
        TextCase{"not_a_number.txt", VectorFormat::kFasttext, "2 2\na 1 2\nb 3 x4\n",
                 ":3:5: ", "expected a number, got 'x4'"},
        TextCase{"nan.txt", VectorFormat::kGlove, "a 1 nan\n", ":1:5: ", "is not finite"},
        TextCase{"truncated.txt", VectorFormat::kWord2vecText, "3 2\na 1 2\nb 3 4\n",
                 ":3: ", "file ends after 2 of the 3 vectors declared in the header"},
        // A short file whose header declares 3.3 million vectors of 93773 values: an error
        // about the missing lines, not an attempt to reserve a terabyte.
        TextCase{"huge_header.txt", VectorFormat::kWord2vecText, "3337777 93773\n",
                 ":1: ", "file ends after 0 of the 3337777 vectors"},
        TextCase{"too_many.txt", VectorFormat::kWord2vecText, "1 2\na 1 2\nb 3 4\n",
                 ":3:1: ", "more vectors than the 1 declared"},
        TextCase{"bad_utf8.txt", VectorFormat::kGlove, "caf\xe9 1 2\n", ":1:4: ", "invalid UTF-8"},
        TextCase{"blank_line.txt", VectorFormat::kWord2vecText, "2 2\na 1 2\n\nb 3 4\n",
                 ":3:1: ", "empty line"}),
    text_case_name);

// Builds a word2vec binary file: header, then "word " + float32 bytes + "\n" per entry.
std::string binary(const std::string& header,
                   const std::vector<std::pair<std::string, std::vector<float>>>& rows) {
  std::string out = header;
  for (const auto& [w, v] : rows) {
    out += w + " ";
    out.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(float));
    out += "\n";
  }
  return out;
}

TEST(Word2vecBinary, ReadsWhatItWrites) {
  TempDir dir;
  const auto p = dir.write("ok.bin", binary("2 2\n", {{"a", {3, 4}}, {"b", {0, 2}}}));
  const auto m = read_vectors(p, VectorFormat::kWord2vecBinary);
  ASSERT_EQ(m.size(), 2u);
  EXPECT_FLOAT_EQ(m.row(0)[1], 0.8f);
  EXPECT_FLOAT_EQ(m.norm(1), 2.0f);
}

struct BinaryCase {
  const char* name;
  std::string content;
  const char* location;
  const char* message;
};

// Readable parameter names for gtest and ctest (the file name without its extension).
void PrintTo(const BinaryCase& c, std::ostream* os) {
  *os << c.name;
}
std::string binary_case_name(const ::testing::TestParamInfo<BinaryCase>& info) {
  std::string n = info.param.name;
  n = n.substr(0, n.find('.'));
  return n;
}

class BrokenBinaryVectors : public ::testing::TestWithParam<BinaryCase> {};

TEST_P(BrokenBinaryVectors, NamesByteOffsetAndProblem) {
  const BinaryCase& c = GetParam();
  TempDir dir;
  const auto path = dir.write(c.name, c.content);
  try {
    read_vectors(path, VectorFormat::kWord2vecBinary);
    FAIL() << c.name;
  } catch (const core::ParseError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind(path + c.location, 0), 0u) << what;
    EXPECT_NE(what.find(c.message), std::string::npos) << what;
  }
}

const std::string kTwo = binary("2 2\n", {{"a", {3, 4}}, {"b", {0, 2}}});  // 4 + 11 + 11 bytes

INSTANTIATE_TEST_SUITE_P(
    EveryErrorPath, BrokenBinaryVectors,
    ::testing::Values(
        BinaryCase{"empty.bin", "", " at byte 0: ", "empty file"},
        BinaryCase{"gzip.bin", std::string("\x1f\x8b\x08\x00rest", 8), " at byte 0: ", "gzip"},
        BinaryCase{"bad_header.bin", binary("2 x\n", {{"a", {1, 2}}}),
                   " at byte 0: ", "expected the header 'count dimension'"},
        BinaryCase{"no_newline.bin", "2 2", " at byte 3: ", "file ends inside the header"},
        BinaryCase{"short.bin", kTwo.substr(0, kTwo.size() - 5),
                   " at byte 4: ", "(at least 20 bytes) but only 17 bytes follow"},
        BinaryCase{"huge_count.bin", binary("1000000 300\n", {{"a", {1, 2}}}),
                   " at byte 12: ", "the header declares 1000000 vectors of 300 floats"},
        BinaryCase{"cut_vector.bin",
                   binary("2 2\n", {{"aaaaaaaaaa", {3, 4}}, {"b", {0, 2}}}).substr(0, 30),
                   " at byte 26: ",
                   "truncated file: the vector of 'b' (2 of 2) needs 8 bytes, only 4 remain"},
        BinaryCase{"cut_word.bin", binary("2 1\n", {{"a", {1}}}) + "abcdefg",
                   " at byte 18: ", "file ends inside word 2 of 2"},
        BinaryCase{"trailing.bin", kTwo + "junk", " at byte 26: ", "unexpected data after"},
        BinaryCase{"nan.bin", binary("1 2\n", {{"a", {1, std::nanf("")}}}),
                   " at byte 10: ", "non-finite value in the vector of 'a'"}),
    binary_case_name);

TEST(VectorReader, MissingFileIsIoError) {
  EXPECT_THROW(read_vectors(kData + "nope.txt", VectorFormat::kGlove), core::IoError);
  EXPECT_THROW(read_vectors(kData + "nope.bin", VectorFormat::kWord2vecBinary), core::IoError);
}

}  // namespace
}  // namespace assay::vectors
