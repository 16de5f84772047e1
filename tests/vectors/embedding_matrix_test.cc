#include "vectors/embedding_matrix.h"

#include <gtest/gtest.h>

#include <cmath>

namespace assay::vectors {
namespace {

TEST(EmbeddingMatrix, NormalisesRowsAndKeepsNorms) {
  const EmbeddingMatrix m({"a", "b", "zero"}, {3, 4, 0, -2, 0, 0}, 2);
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m.dim(), 2u);
  EXPECT_FLOAT_EQ(m.row(0)[0], 0.6f);
  EXPECT_FLOAT_EQ(m.row(0)[1], 0.8f);
  EXPECT_FLOAT_EQ(m.norm(0), 5.0f);
  EXPECT_FLOAT_EQ(m.row(1)[0], 0.0f);
  EXPECT_FLOAT_EQ(m.row(1)[1], -1.0f);
  EXPECT_FLOAT_EQ(m.norm(1), 2.0f);
  // A zero vector stays zero (cosine 0 with everything) instead of becoming NaN.
  EXPECT_EQ(m.row(2)[0], 0.0f);
  EXPECT_EQ(m.row(2)[1], 0.0f);
  EXPECT_EQ(m.norm(2), 0.0f);
}

TEST(EmbeddingMatrix, FindsWordsInFileOrder) {
  const EmbeddingMatrix m({"x", "y"}, {1, 0, 0, 1}, 2);
  EXPECT_EQ(m.find("x"), 0u);
  EXPECT_EQ(m.find("y"), 1u);
  EXPECT_FALSE(m.find("z"));
  EXPECT_EQ(m.word(1), "y");
}

}  // namespace
}  // namespace assay::vectors
