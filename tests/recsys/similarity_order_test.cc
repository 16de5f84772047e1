// SimilarityOrder against a comparison sort: positives only, most similar first, ties by the
// smaller id, on rows with heavy ties, zeros, negatives and -0, from empty to long.
#include "recsys/similarity_order.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "core/rng.h"

namespace {

using assay::recsys::SimilarityOrder;

std::vector<std::uint32_t> reference(const std::vector<float>& row) {
  std::vector<std::uint32_t> ids;
  for (std::uint32_t j = 0; j < row.size(); ++j) {
    if (row[j] > 0.0f) ids.push_back(j);
  }
  std::stable_sort(ids.begin(), ids.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return row[a] > row[b]; });
  return ids;
}

TEST(SimilarityOrder, MatchesAStableComparisonSort) {
  assay::core::Rng rng(11, 3);
  SimilarityOrder order;
  for (std::size_t n : {0, 1, 2, 7, 100, 1000, 5000}) {
    for (std::size_t distinct : {1, 5, 300, 1000000}) {
      std::vector<float> row(n);
      for (float& x : row) {
        const double u = rng.uniform();
        if (u < 0.2) {
          x = 0.0f;
        } else if (u < 0.25) {
          x = -0.0f;
        } else if (u < 0.35) {
          x = -static_cast<float>(rng.uniform());
        } else {
          // Values across several binary exponents, so every radix digit varies.
          x = static_cast<float>(1 + rng.below(distinct)) / static_cast<float>(distinct) /
              static_cast<float>(1u << rng.below(20));
        }
      }
      order.sort(row.data(), row.size());
      const std::vector<std::uint32_t> want = reference(row);
      ASSERT_EQ(order.ids(), want) << "n " << n << " distinct " << distinct;
      ASSERT_EQ(order.sims().size(), want.size());
      for (std::size_t p = 0; p < want.size(); ++p) {
        ASSERT_EQ(order.sims()[p], row[want[p]]);
      }
    }
  }
}

TEST(SimilarityOrder, ATieKeepsTheSmallerIdFirst) {
  const std::vector<float> row = {0.5f, 0.25f, 0.5f, 0.0f, 1.0f, 0.25f};
  SimilarityOrder order;
  order.sort(row.data(), row.size());
  EXPECT_EQ(order.ids(), (std::vector<std::uint32_t>{4, 0, 2, 1, 5}));
}

}  // namespace
