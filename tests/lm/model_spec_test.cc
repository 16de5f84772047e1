#include "lm/model_spec.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "core/error.h"
#include "lm/sphinx_model.h"
#include "lm/sphinx_trie.h"

namespace assay::lm {
namespace {

TEST(OpenNgramModel, Arpa) {
  const auto m = open_ngram_model(std::string("arpa:") + ASSAY_TEST_DATA_DIR + "/lm/tiny.arpa");
  EXPECT_EQ(m->order(), 3);
  EXPECT_NE(std::string(m->name()).find("tiny.arpa"), std::string::npos);
}

// The sphinxbase formats are read by the lock-free SphinxTrie (scores equal to sphinxbase's,
// sphinx_trie_test.cc), not by the SphinxModel that serialises every query.
TEST(OpenNgramModel, SphinxFormatsOpenAsTheLockFreeTrie) {
  if (!std::filesystem::exists(kCmuTrigramPath)) GTEST_SKIP() << kCmuTrigramPath << " is absent";
  EXPECT_NE(dynamic_cast<const SphinxTrie*>(open_ngram_model("cmu").get()), nullptr);
  EXPECT_NE(dynamic_cast<const SphinxTrie*>(
                open_ngram_model(std::string("sphinx:") + kCmuTrigramPath).get()),
            nullptr);
}

TEST(OpenNgramModel, UnknownSpecIsUsageError) {
  try {
    open_ngram_model("kenlm:x.bin");
    FAIL();
  } catch (const core::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("expected cmu, arpa:FILE or sphinx:FILE"),
              std::string::npos);
  }
  EXPECT_THROW(open_ngram_model("arpa:"), core::UsageError);
}

TEST(OpenNgramModel, MissingSphinxFileIsMissingResource) {
  EXPECT_THROW(open_ngram_model("sphinx:/nonexistent/x.lm.bin"), core::MissingResourceError);
}

}  // namespace
}  // namespace assay::lm
