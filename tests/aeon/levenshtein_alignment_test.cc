#include "aeon/levenshtein_alignment.h"

#include <gtest/gtest.h>

namespace assay::aeon {
namespace {

using Ids = std::vector<std::int32_t>;

TEST(LevenshteinAlignment, SubstitutionInsertionDeletion) {
  const Ids a = {1, 2, 3, 4, 5}, b = {1, 9, 3, 4, 5, 6};
  const auto e = levenshtein_edits(a, b);
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0].kind, EditKind::kSubstitute);
  EXPECT_EQ(e[0].a_pos, 1u);
  EXPECT_EQ(e[0].b_pos, 1u);
  EXPECT_EQ(e[1].kind, EditKind::kInsert);
  EXPECT_EQ(e[1].a_pos, 5u);
  EXPECT_EQ(e[1].b_pos, 5u);
  const auto d = levenshtein_edits(b, a);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[1].kind, EditKind::kDelete);
  EXPECT_TRUE(levenshtein_edits(a, a).empty());
  EXPECT_EQ(levenshtein_edits(Ids{}, a).size(), 5u);
}

TEST(LevenshteinAlignment, PatchesClipAndMerge) {
  // Edits at 0 and 1 overlap ([0,2) and [0,3)); an edit at 6 stands alone ([4,8)).
  const Ids a = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, b = {0, 0, 3, 4, 5, 6, 0, 8, 9, 10};
  const auto p = edit_patches(levenshtein_edits(a, b), a.size(), b.size());
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0].a_begin, 0u);
  EXPECT_EQ(p[0].a_end, 3u);
  EXPECT_EQ(p[1].a_begin, 4u);
  EXPECT_EQ(p[1].a_end, 8u);
  EXPECT_EQ(p[1].b_begin, 4u);
  EXPECT_EQ(p[1].b_end, 8u);
  // Edits 4 apart touch without overlapping: two patches.
  const Ids c = {0, 2, 3, 4, 0, 6, 7, 8, 9, 10};
  const auto q = edit_patches(levenshtein_edits(a, c), a.size(), c.size());
  EXPECT_EQ(q.size(), 2u);
  // The end is clipped to the sequence length.
  const Ids d = {1, 2, 3, 4, 5, 6, 7, 8, 9, 0};
  const auto r = edit_patches(levenshtein_edits(a, d), a.size(), d.size());
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].a_begin, 7u);
  EXPECT_EQ(r[0].a_end, 10u);
}

}  // namespace
}  // namespace assay::aeon
