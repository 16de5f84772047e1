#include "knowledge/conceptnet_dump_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <zlib.h>

#include <vector>

#include "core/error.h"
#include "knowledge_test_paths.h"
#include "support/shared_data.h"
#include "support/temp_dir.h"

namespace assay::knowledge {
namespace {

using ::testing::HasSubstr;
using testing::kData;

const std::string kSample = testing::kShared + "/conceptnet-format-sample/assertions.csv";

std::string error_of(const std::string& path) {
  try {
    read_conceptnet_dump(path, [](const ConceptNetAssertion&) {});
  } catch (const core::Error& e) {
    return e.what();
  }
  return "no error";
}

// gzip-compresses `text` into `path`, optionally keeping only the first `keep` bytes.
void write_gzip(const std::string& path, const std::string& text,
                std::size_t keep = std::string::npos) {
  const std::string full = path + ".full";
  gzFile gz = gzopen(full.c_str(), "wb");
  ASSERT_NE(gz, nullptr);
  ASSERT_EQ(gzwrite(gz, text.data(), static_cast<unsigned>(text.size())),
            static_cast<int>(text.size()));
  gzclose(gz);
  std::string bytes = assay::testing::read_file(full);
  if (keep < bytes.size()) bytes.resize(keep);
  std::ofstream(path, std::ios::binary) << bytes;
}

TEST(ConceptNetDumpReader, RealFormatSampleKeepsEnglishEdges) {
  ASSAY_REQUIRE_FILE(kSample);
  std::vector<std::string> isa;
  const auto stats = read_conceptnet_dump(kSample, [&](const ConceptNetAssertion& a) {
    if (a.relation == ConceptNetRelation::kIsA)
      isa.push_back(std::string(a.start) + ">" + std::string(a.end));
  });
  EXPECT_EQ(stats.n_lines, 764u);
  EXPECT_EQ(stats.n_kept, 32u);  // 7 IsA, 2 Antonym, 5 FormOf, 6 DerivedFrom, 12 Synonym
  EXPECT_EQ(stats.n_other_relation, 64u);
  EXPECT_EQ(stats.n_not_english, 668u);
  EXPECT_EQ(isa.size(), 7u);
  EXPECT_THAT(isa, ::testing::Contains("assay>test"));  // /c/en/assay/n/wn -> /c/en/test/n/wn/act
}

TEST(ConceptNetDumpReader, GzipGivesTheSameAssertions) {
  ASSAY_REQUIRE_FILE(kSample);
  assay::testing::TempDir dir;
  const std::string gz = dir.file("assertions.csv.gz");
  write_gzip(gz, assay::testing::read_file(kSample));
  std::vector<std::string> plain, inflated;
  auto collect = [](std::vector<std::string>& v) {
    return [&v](const ConceptNetAssertion& a) {
      v.push_back(std::string(to_string(a.relation)) + " " + std::string(a.start) + " " +
                  std::string(a.end) + " " + std::to_string(a.weight) + " " +
                  std::to_string(a.line));
    };
  };
  read_conceptnet_dump(kSample, collect(plain));
  const auto stats = read_conceptnet_dump(gz, collect(inflated));
  EXPECT_EQ(stats.n_lines, 764u);
  EXPECT_EQ(plain, inflated);
}

TEST(ConceptNetDumpReader, DamagedGzipIsRejected) {
  ASSAY_REQUIRE_FILE(kSample);
  assay::testing::TempDir dir;
  const std::string text = assay::testing::read_file(kSample);
  const std::string truncated = dir.file("truncated.csv.gz");
  write_gzip(truncated, text);
  const std::size_t full_size = assay::testing::read_file(truncated).size();
  write_gzip(truncated, text, full_size / 2);
  EXPECT_THAT(error_of(truncated), HasSubstr("truncated.csv.gz"));
  EXPECT_THAT(error_of(truncated), HasSubstr("gzip"));
  // Flip bytes in the middle of the deflate stream.
  const std::string corrupt = dir.file("corrupt.csv.gz");
  write_gzip(corrupt, text);
  std::string bytes = assay::testing::read_file(corrupt);
  for (std::size_t i = bytes.size() / 2; i < bytes.size() / 2 + 64; ++i)
    bytes[i] = static_cast<char>(~bytes[i]);
  std::ofstream(corrupt, std::ios::binary) << bytes;
  const std::string msg = error_of(corrupt);
  EXPECT_THAT(msg, HasSubstr("corrupt.csv.gz"));
  EXPECT_NE(msg, "no error");
}

TEST(ConceptNetDumpReader, BrokenLinesNameFileAndLine) {
  struct Case {
    const char* file;
    const char* want;
  };
  const Case cases[] = {
      {"four-fields.csv",
       "four-fields.csv:2: expected 5 tab-separated fields (URI, relation, start, end, JSON), got "
       "4"},
      {"bad-relation.csv",
       "bad-relation.csv:2: expected a /r/<Relation> URI in the second field, got 'IsA'"},
      {"empty-node.csv", "empty-node.csv:2: expected a node URI as the start"},
      {"empty-term.csv", "empty-term.csv:2: empty English term in the start URI"},
      {"no-weight.csv", "no-weight.csv:2: the metadata JSON has no \"weight\""},
      {"bad-weight.csv", "bad-weight.csv:2: expected a number after \"weight\":, got 'heavy'"},
      {"huge-weight.csv",
       "huge-weight.csv:2: weight must be a finite non-negative number of at most 3.4e38, got "
       "'1e39'"},
      {"not-json.csv", "not-json.csv:2: expected a JSON object in the fifth field"},
  };
  for (const auto& c : cases) {
    EXPECT_THAT(error_of(kData + "/conceptnet-broken/" + c.file), HasSubstr(c.want));
  }
  EXPECT_THROW(read_conceptnet_dump(kData + "/no-such.csv", [](const ConceptNetAssertion&) {}),
               core::IoError);
}

}  // namespace
}  // namespace assay::knowledge
