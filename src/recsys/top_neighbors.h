// Neighbourhood selection of the nearest-neighbour recommenders: among candidate neighbours
// with similarity > 0, the k most similar (ties: the earlier candidate, i.e. the smaller
// neighbour id, since candidates come in id order), aggregated as the similarity-weighted
// average of their centred ratings. A plain function over contiguous arrays: it is the
// innermost scoring loop (selection by nth_element, not a heap, so the cost is linear).
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <vector>

namespace assay::recsys {

class TopNeighbors {
 public:
  explicit TopNeighbors(std::size_t k) : k_(k) {}

  // Weighted average over the top-k positive candidates of sims[0..n) / values[0..n); false
  // (and `average` untouched) when no candidate has a positive similarity.
  bool weighted_average(const float* sims, const float* values, std::size_t n, double& average) {
    if (pos_sims_.size() < n) {
      pos_sims_.resize(n);
      pos_values_.resize(n);
      work_.resize(n);
    }
    std::size_t m = 0;
    for (std::size_t j = 0; j < n; ++j) {  // branch-free compaction of the positive ones
      pos_sims_[m] = sims[j];
      pos_values_[m] = values[j];
      m += sims[j] > 0.0f ? 1 : 0;
    }
    if (m == 0) return false;
    double num = 0, den = 0;
    if (m <= k_) {
      for (std::size_t j = 0; j < m; ++j) {
        num += static_cast<double>(pos_sims_[j]) * pos_values_[j];
        den += pos_sims_[j];
      }
    } else {
      std::copy(pos_sims_.begin(), pos_sims_.begin() + static_cast<std::ptrdiff_t>(m), work_.begin());
      const auto kth = work_.begin() + static_cast<std::ptrdiff_t>(k_ - 1);
      std::nth_element(work_.begin(), kth, work_.begin() + static_cast<std::ptrdiff_t>(m),
                       std::greater<float>());
      const float t = *kth;
      std::size_t above = 0;
      for (std::size_t j = 0; j < m; ++j) above += pos_sims_[j] > t ? 1 : 0;
      std::size_t ties_left = k_ - above;
      for (std::size_t j = 0; j < m; ++j) {
        const float s = pos_sims_[j];
        if (s > t || (s == t && ties_left > 0)) {
          if (s == t) --ties_left;
          num += static_cast<double>(s) * pos_values_[j];
          den += s;
        }
      }
    }
    average = num / den;
    return true;
  }

 private:
  std::size_t k_;
  std::vector<float> pos_sims_, pos_values_, work_;
};

}  // namespace assay::recsys
