// The order in which the neighbourhood recommenders meet their neighbours: the ids j of a
// similarity row with row[j] > 0, most similar first, ties by smaller id. Sorted by a stable
// least-significant-digit radix sort of the similarity bits (positive floats order like their
// bit patterns; ids enter in ascending order, so stability is the tie rule): the rows are
// long (hundreds to thousands of positives) and std::sort spent its time mispredicting.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace assay::recsys {

class SimilarityOrder {
 public:
  // The positive entries of row[0..n), ordered; the result stays valid until the next call.
  // ids() and sims() have the same length: the ids and their similarities.
  void sort(const float* row, std::size_t n);
  const std::vector<std::uint32_t>& ids() const { return ids_; }
  const std::vector<float>& sims() const { return sims_; }

 private:
  std::vector<std::uint32_t> keys_, ids_, spare_keys_, spare_ids_;
  std::vector<float> sims_;
};

}  // namespace assay::recsys
