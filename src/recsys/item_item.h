// Item-item collaborative filtering with LensKit 3 semantics (ItemItemScorer, lkpy ItemItem):
//  - ratings are centred by the item's mean rating;
//  - similarity = cosine of the centred item vectors (adjusted cosine), kept only when
//    > kMinSimilarity (1e-6; negative and zero similarities are dropped);
//  - score(u, i) = mean_i + sum_j sim(i,j) (r_uj - mean_j) / sum_j sim(i,j) over the 20 items
//    j rated by u most similar to i (at least 1; otherwise the pair is unscorable: NaN).
// Scoring takes one of two paths per user, fixed by the user's number of ratings n_u (so a
// user's scores never depend on which items are asked for): light users gather the
// similarities of their n_u rated items and select the top 20; users with
// n_u > sqrt(20 * n_items) walk each target's neighbour list (sorted at fit time, most similar
// first, ties by smaller id) until 20 rated items are met, which costs ~20 * n_items / n_u.
// Light users asked for many items at once (a top-k: at least a quarter of the items) are
// scored for all items in one column-wise pass over their rated items' rows (ColumnTopK, the
// same bits as the gather path), steered by per-item level rows (the similarity at
// geometric positions of each item's sorted list) that say where its 20th neighbour lies.
// The matrix columns are kept in order of decreasing item mean: top_k() visits items in that
// order and stops once mean + the user's largest centred rating (a bound on every later score)
// is below the k-th best score, which gives the exhaustive list.
// The similarity matrix is dense (n_items^2 floats), so this form is limited to kMaxItems.
// With `keep` set to K (or left at auto on data with more than kMaxItems items) the model
// keeps only each item's K most similar items instead (sparse_item_item.h: memory
// O(n_items * K), the same scores when nothing is cut).
// Training is deterministic and uses no randomness; n_threads parallelises the similarity
// rows without changing a bit of the result.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "core/huge_array.h"
#include "core/thread_pool.h"
#include "recsys/recommender.h"
#include "recsys/sparse_item_item.h"

namespace assay::recsys {

struct ItemItemOptions {
  // `keep`: every positive similarity in the dense matrix (at most ItemItem::kMaxItems items).
  static constexpr std::size_t kKeepAll = std::numeric_limits<std::size_t>::max();
  // `keep`: all up to ItemItem::kMaxItems items, kAutoKeep similar items per item above.
  static constexpr std::size_t kKeepAuto = 0;
  static constexpr std::size_t kAutoKeep = 1000;

  std::size_t n_neighbors = 20;
  float min_similarity = 1e-6f;
  // Similar items kept per item: kKeepAll, kKeepAuto, or K >= 1 (sparse lists of the K most
  // similar, whatever the number of items).
  std::size_t keep = kKeepAuto;
  // The walk's AVX-512 loop where the instruction-set selection allows it (core::cpu_isa(),
  // lowered by ASSAY_ISA) and there are at most 2048 items (the same bits as the scalar loop;
  // false pins the scalar one, for tests).
  bool vector_walk = true;
};

class ItemItem final : public Recommender {
 public:
  static constexpr std::size_t kMaxItems = 16384;  // also: neighbour ids fit 16 bits

  explicit ItemItem(ItemItemOptions options = {}) : options_(options) {}
  std::string name() const override { return "item-item"; }
  const ItemItemOptions& options() const { return options_; }
  // Throws core::UsageError when n_neighbors is 0, or keep is kKeepAll and the data has more
  // than kMaxItems items.
  void fit(const Ratings& train, const FitOptions& options) override;
  void score(UserId user, std::span<const ItemId> items, std::span<float> out) const override;
  // Visits candidates in order of decreasing item mean and stops once mean + the user's largest
  // centred rating (a bound on every later score) falls below the k-th best score so far.
  std::vector<ItemId> top_k(UserId user, std::span<const ItemId> candidates,
                            std::size_t k) const override;

  // The dense matrix's entry (only when the last fit kept every similarity: !sparse()).
  float similarity(ItemId a, ItemId b) const { return sim_[a * stride_ + col_of_[b]]; }
  // The truncated model the last fit built, or null when it built the dense matrix.
  const SparseItemItem* sparse() const { return sparse_.get(); }

 private:
  // The fit's last steps, on the similarity matrix: each row's neighbours sorted, the level
  // rows of the column scorer, the columns permuted into mean order.
  void build_neighbour_lists(core::ThreadPool& pool);
  void build_levels();
  void permute_columns(core::ThreadPool& pool);

  ItemItemOptions options_;
  std::unique_ptr<SparseItemItem> sparse_;
  std::size_t n_users_ = 0, n_items_ = 0;
  std::vector<float> item_mean_;
  // Scores of matrix columns [c0, c1) (c0, c1 multiples of 8 or c1 = stride_) into
  // dense[c0..c1), column scorer path.
  void score_columns(std::size_t n_rated, const ItemId* rated, const float* centred, std::size_t c0,
                     std::size_t c1, float* dense) const;
  // Scores of items[0..n) (n <= kWalkBatch) by walking their neighbour lists, for the user
  // flagged last by flag_rated on this thread.
  static constexpr std::size_t kWalkBatch = 8;
  void walk_scores(const ItemId* items, std::size_t n, float* out) const;
  void flag_rated(std::size_t n_rated, const ItemId* rated, const float* centred) const;
  void score_tiles(std::size_t n_rated, const ItemId* rated, const float* centred,
                   std::span<const ItemId> items, std::span<float> out) const;

  static constexpr std::size_t kLevels = 32;
  // by_mean_[c]: the item of matrix column c (decreasing mean, ties by smaller id);
  // col_of_[i]: its inverse.
  std::vector<ItemId> by_mean_;
  std::vector<std::uint32_t> col_of_;
  // Row-major n_items x stride_, row i = item i, column c = item by_mean_[c]
  // (stride_ = n_items rounded up to 8, padding 0); 0 on the
  // diagonal and below threshold.
  core::HugeArray<float> sim_;
  std::size_t stride_ = 0;
  // levels_[h * stride_ + col_of_[i]]: the level_positions_[h]-th largest similarity of item i (0
  // when its list is shorter); positions grow geometrically by 2^(1/4).
  std::vector<float> levels_;
  std::vector<std::size_t> level_positions_;
  // Each user's rated items (sorted) and ratings centred by item mean.
  std::vector<std::size_t> user_offsets_;
  std::vector<ItemId> user_items_;
  std::vector<float> user_centred_;
  // Per item: the items with positive similarity, most similar first (ties: smaller id).
  std::vector<std::size_t> nbr_offsets_;
  // 16 bits (< kMaxItems): the walk streams them, and reads the similarities at its hits.
  core::HugeArray<std::uint16_t> nbr_ids_;
  core::HugeArray<float> nbr_sims_;
  std::size_t walk_min_rated_ = 0;
  bool walk_avx512_ = false;
};

}  // namespace assay::recsys
