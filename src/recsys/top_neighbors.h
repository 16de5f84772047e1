// Neighbourhood selection of the nearest-neighbour recommenders: among candidate neighbours
// with similarity > 0, the k most similar (ties: the earlier candidate, i.e. the smaller
// neighbour id, since candidates come in id order), aggregated as the similarity-weighted
// average of their centred ratings. A plain function over contiguous arrays: it is the
// innermost scoring loop (selection by a branch-free quickselect, so the cost is linear).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace assay::recsys {

class TopNeighbors {
 public:
  explicit TopNeighbors(std::size_t k) : k_(k) {}

  // Weighted average over the top-k positive candidates of sims[0..n) / values[0..n); false
  // (and `average` untouched) when no candidate has a positive similarity.
  bool weighted_average(const float* sims, const float* values, std::size_t n, double& average) {
    float num = 0, den = 0;
    if (!sums(sims, values, n, num, den)) return false;
    average = static_cast<double>(num) / static_cast<double>(den);
    return true;
  }

  // The two float sums of the weighted average (sum of sim * value and of sim over the
  // selected candidates, in candidate order); false when no candidate is positive.
  bool sums(const float* sims, const float* values, std::size_t n, float& num, float& den) {
    if (pos_sims_.size() < n) {
      pos_sims_.resize(n);
      pos_values_.resize(n);
      work_.resize(n);
      spare_.resize(n);
    }
    std::size_t m = 0;
    for (std::size_t j = 0; j < n; ++j) {  // branch-free compaction of the positive ones
      pos_sims_[m] = sims[j];
      pos_values_[m] = values[j];
      m += sims[j] > 0.0f ? 1 : 0;
    }
    if (m == 0) return false;
    num = 0;
    den = 0;
    if (m <= k_) {
      for (std::size_t j = 0; j < m; ++j) {
        num += pos_sims_[j] * pos_values_[j];
        den += pos_sims_[j];
      }
    } else {
      std::copy(pos_sims_.begin(), pos_sims_.begin() + static_cast<std::ptrdiff_t>(m),
                work_.begin());
      const float t = kth_largest(work_.data(), spare_.data(), m, k_);
      std::size_t above = 0, equal = 0;
      for (std::size_t j = 0; j < m; ++j) {
        above += pos_sims_[j] > t ? 1 : 0;
        equal += pos_sims_[j] == t ? 1 : 0;
      }
      if (above + equal == k_) {  // no tie to break at the threshold: a branch-free sum
        for (std::size_t j = 0; j < m; ++j) {
          const float w = pos_sims_[j] >= t ? pos_sims_[j] : 0.0f;
          num += w * pos_values_[j];
          den += w;
        }
      } else {  // ties at the threshold: the earliest candidates win
        std::size_t ties_left = k_ - above;
        for (std::size_t j = 0; j < m; ++j) {
          const float x = pos_sims_[j];
          if (x > t || (x == t && ties_left > 0)) {
            if (x == t) --ties_left;
            num += x * pos_values_[j];
            den += x;
          }
        }
      }
    }
    return true;
  }

 public:
  // The k-th largest of a[0..m) (1 <= k <= m). Quickselect with branch-free partitions (a
  // copy of the side that holds the answer goes to the other buffer), because the
  // comparisons are unpredictable and std::nth_element spends its time mispredicting them.
  // Destroys both buffers.
  static float kth_largest(float* a, float* b, std::size_t m, std::size_t k) {
    for (;;) {
      if (m <= 16) {
        for (std::size_t x = 1; x < m; ++x) {  // insertion sort, descending
          const float v = a[x];
          std::size_t y = x;
          for (; y > 0 && a[y - 1] < v; --y) a[y] = a[y - 1];
          a[y] = v;
        }
        return a[k - 1];
      }
      float lo = a[0], mid = a[m / 2], hi = a[m - 1];
      if (lo > mid) std::swap(lo, mid);
      if (mid > hi) std::swap(mid, hi);
      if (lo > mid) std::swap(lo, mid);
      const float pivot = mid;
      std::size_t g = 0, e = 0;
      for (std::size_t j = 0; j < m; ++j) {
        b[g] = a[j];
        g += a[j] > pivot ? 1 : 0;
        e += a[j] == pivot ? 1 : 0;
      }
      if (k <= g) {
        std::swap(a, b);
        m = g;
        continue;
      }
      if (k <= g + e) return pivot;
      std::size_t l = 0;
      for (std::size_t j = 0; j < m; ++j) {
        b[l] = a[j];
        l += a[j] < pivot ? 1 : 0;
      }
      k -= g + e;
      std::swap(a, b);
      m = l;
    }
  }

 private:
  std::size_t k_;
  std::vector<float> pos_sims_, pos_values_, work_, spare_;
};

}  // namespace assay::recsys
