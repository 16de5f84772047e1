#include "recsys/similarity_order.h"

#include <array>
#include <bit>

namespace assay::recsys {

void SimilarityOrder::sort(const float* row, std::size_t n) {
  keys_.resize(n + 1);  // + 1: the branch-free compaction writes one past the last
  ids_.resize(n + 1);
  std::size_t m = 0;
  for (std::size_t j = 0; j < n; ++j) {
    // Inverted bits: ascending keys are descending similarities.
    keys_[m] = ~std::bit_cast<std::uint32_t>(row[j]);
    ids_[m] = static_cast<std::uint32_t>(j);
    m += row[j] > 0.0f ? 1 : 0;
  }
  keys_.resize(m);
  ids_.resize(m);
  std::array<std::array<std::uint32_t, 256>, 4> count{};
  for (std::size_t p = 0; p < m; ++p) {
    const std::uint32_t key = keys_[p];
    ++count[0][key & 0xff];
    ++count[1][(key >> 8) & 0xff];
    ++count[2][(key >> 16) & 0xff];
    ++count[3][key >> 24];
  }
  spare_keys_.resize(m);
  spare_ids_.resize(m);
  for (unsigned d = 0; d < 4; ++d) {
    const unsigned shift = 8 * d;
    auto& c = count[d];
    if (m == 0 || c[(keys_[0] >> shift) & 0xff] == m) continue;  // one digit value: in order
    std::uint32_t total = 0;
    for (auto& x : c) {
      const std::uint32_t here = x;
      x = total;
      total += here;
    }
    for (std::size_t p = 0; p < m; ++p) {
      const std::uint32_t slot = c[(keys_[p] >> shift) & 0xff]++;
      spare_keys_[slot] = keys_[p];
      spare_ids_[slot] = ids_[p];
    }
    keys_.swap(spare_keys_);
    ids_.swap(spare_ids_);
  }
  sims_.resize(m);
  for (std::size_t p = 0; p < m; ++p) sims_[p] = std::bit_cast<float>(~keys_[p]);
}

}  // namespace assay::recsys
