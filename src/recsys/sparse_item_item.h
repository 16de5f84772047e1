// Item-item with truncated neighbour lists: the same model as item_item.h (adjusted cosine,
// similarities <= min_similarity dropped, score = item mean + the similarity-weighted average
// of the user's centred ratings of the n_neighbors items most similar to the target), except
// that each item keeps only its `keep` most similar items (ties: smaller id), as LensKit's
// ItemItem does with save_nbrs. A target's neighbourhood is chosen among its own kept items.
//
// Memory is O(n_items * keep) (the lists and their transpose) instead of n_items^2: the
// similarity rows are computed one at a time from the sparse ratings (row i sums c_ui * c_uj
// over the raters u of i, a scratch row of n_items doubles per thread), truncated, and kept.
// Fit costs sum over users of n_u^2 additions; scoring every item for a user costs about
// n_u * keep (each rated item offers itself to the targets that keep it).
//
// With keep >= n_items - 1 nothing is cut and the scores equal the dense model's bit for bit:
// the similarities are the same sums in the same user order, the neighbourhood is the same
// set, and the weighted sum runs in the dense model's order (the user's rated items in id order
// when n_u <= sqrt(n_neighbors * n_items), else most similar first).
// Deterministic, no randomness; n_threads parallelises the rows without changing a bit.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "recsys/recommender.h"

namespace assay::recsys {

struct SparseItemItemOptions {
  std::size_t n_neighbors = 20;
  float min_similarity = 1e-6f;
  std::size_t keep = 1000;  // similar items kept per item (>= 1)
};

class SparseItemItem final : public Recommender {
 public:
  explicit SparseItemItem(SparseItemItemOptions options) : options_(options) {}
  std::string name() const override { return "item-item"; }
  // Throws core::UsageError when n_neighbors or keep is 0.
  void fit(const Ratings& train, const FitOptions& options) override;
  void score(UserId user, std::span<const ItemId> items, std::span<float> out) const override;

  // Item i's kept neighbours, most similar first (ties: smaller id), and their similarities.
  std::span<const ItemId> neighbors_of(ItemId i) const;
  std::span<const float> similarities_of(ItemId i) const;
  // Bytes held by the lists and their transpose (the part that grows with keep).
  std::size_t list_bytes() const;

 private:
  struct Candidate {
    float sim;
    float value;
    ItemId item;
  };
  // Every target's score for `user` at once (NaN where none of its kept items is rated).
  void score_all(std::size_t n_rated, const ItemId* rated, const float* centred,
                 std::vector<float>& dense) const;
  // Flags the user's rated items (and their centred values) in this thread's scratch.
  void flag_rated(std::size_t n_rated, const ItemId* rated, const float* centred) const;
  // The neighbourhood of `target` among the flagged items into chosen[0..n_neighbors): the
  // first rated items of its list. Returns how many.
  std::size_t walk(ItemId target, Candidate* chosen) const;
  // The score of target i from its selected neighbours (at most n_neighbors), summed in the
  // order of the user's path (heavy: most similar first; light: by id).
  float finish(ItemId target, Candidate* chosen, std::size_t n, bool heavy) const;

  SparseItemItemOptions options_;
  std::size_t n_users_ = 0, n_items_ = 0;
  std::vector<float> item_mean_;
  std::vector<std::size_t> user_offsets_;
  std::vector<ItemId> user_items_;
  std::vector<float> user_centred_;
  // Per item: its kept neighbours, most similar first (CSR).
  std::vector<std::size_t> nbr_offsets_;
  std::vector<ItemId> nbr_ids_;
  std::vector<float> nbr_sims_;
  // The transpose: per item j, the targets that keep j (ascending) and sim(target, j).
  std::vector<std::size_t> inv_offsets_;
  std::vector<ItemId> inv_targets_;
  std::vector<float> inv_sims_;
  std::size_t heavy_min_rated_ = 0;
};

}  // namespace assay::recsys
