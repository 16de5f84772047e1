#include "aeon/levenshtein_alignment.h"

#include <algorithm>

namespace assay::aeon {

std::vector<Edit> levenshtein_edits(std::span<const std::int32_t> a, std::span<const std::int32_t> b) {
  const std::size_t n = a.size(), m = b.size(), w = m + 1;
  std::vector<std::uint32_t> d((n + 1) * w);
  for (std::size_t i = 0; i <= n; ++i) d[i * w] = static_cast<std::uint32_t>(i);
  for (std::size_t j = 0; j <= m; ++j) d[j] = static_cast<std::uint32_t>(j);
  for (std::size_t i = 1; i <= n; ++i) {
    for (std::size_t j = 1; j <= m; ++j) {
      const std::uint32_t sub = d[(i - 1) * w + j - 1] + (a[i - 1] == b[j - 1] ? 0u : 1u);
      d[i * w + j] = std::min({sub, d[(i - 1) * w + j] + 1, d[i * w + j - 1] + 1});
    }
  }
  std::vector<Edit> edits;
  std::size_t i = n, j = m;
  while (i > 0 || j > 0) {
    if (i > 0 && j > 0 && d[i * w + j] == d[(i - 1) * w + j - 1] + (a[i - 1] == b[j - 1] ? 0u : 1u)) {
      if (a[i - 1] != b[j - 1]) edits.push_back({EditKind::kSubstitute, i - 1, j - 1});
      --i;
      --j;
    } else if (i > 0 && d[i * w + j] == d[(i - 1) * w + j] + 1) {
      edits.push_back({EditKind::kDelete, i - 1, j});
      --i;
    } else {
      edits.push_back({EditKind::kInsert, i, j - 1});
      --j;
    }
  }
  std::reverse(edits.begin(), edits.end());
  return edits;
}

std::vector<Patch> edit_patches(const std::vector<Edit>& edits, std::size_t a_len, std::size_t b_len,
                                std::size_t radius) {
  std::vector<Patch> patches;
  for (const Edit& e : edits) {
    Patch p{e.a_pos >= radius ? e.a_pos - radius : 0, std::min(e.a_pos + radius, a_len),
            e.b_pos >= radius ? e.b_pos - radius : 0, std::min(e.b_pos + radius, b_len)};
    if (!patches.empty()) {
      Patch& last = patches.back();
      if (p.a_begin < last.a_end || p.b_begin < last.b_end) {
        last.a_end = std::max(last.a_end, p.a_end);
        last.b_end = std::max(last.b_end, p.b_end);
        continue;
      }
    }
    patches.push_back(p);
  }
  return patches;
}

}  // namespace assay::aeon
