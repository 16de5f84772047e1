#include "recsys/kernels/neighbor_walk.h"

namespace assay::recsys::kernels {

std::size_t walk_rated_scalar(const std::uint16_t* ids, std::size_t len,
                              const std::uint32_t* rated_flag, std::size_t k, std::uint32_t* hits) {
  // Branch-free but for the exit (a hit is a coin toss): every position is written, the
  // count advances on hits only.
  std::size_t found = 0;
  for (std::size_t p = 0; p < len; ++p) {
    hits[found] = static_cast<std::uint32_t>(p);
    found += rated_flag[ids[p]];
    if (found == k) break;
  }
  return found;
}

}  // namespace assay::recsys::kernels
