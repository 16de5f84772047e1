#include "lm/model_spec.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace assay::lm {
namespace {

TEST(OpenNgramModel, Arpa) {
  const auto m = open_ngram_model(std::string("arpa:") + ASSAY_TEST_DATA_DIR + "/lm/tiny.arpa");
  EXPECT_EQ(m->order(), 3);
  EXPECT_NE(std::string(m->name()).find("tiny.arpa"), std::string::npos);
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
