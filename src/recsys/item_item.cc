#include "recsys/item_item.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "core/check.h"
#include "core/error.h"
#include "core/thread_pool.h"
#include "recsys/item_centring.h"
#include "recsys/kernels/column_top_k.h"
#include "recsys/kernels/isa.h"
#include "recsys/kernels/neighbor_walk.h"
#include "recsys/similarity_order.h"
#include "recsys/top_neighbors.h"

namespace assay::recsys {
namespace {

// Items per task of the fit's parallel loops.
constexpr std::size_t kGrain = 16;

}  // namespace

using kernels::ColumnLevels;
using kernels::ColumnTopK;
using kernels::kBitmapItems;
using kernels::kBitmapWords;
using kernels::kWalkSlack;
using kernels::walk_rated_avx512;
using kernels::walk_rated_scalar;

void ItemItem::fit(const Ratings& train, const FitOptions& fit_options) {
  n_users_ = train.n_users();
  n_items_ = train.n_items();
  if (options_.n_neighbors == 0) {
    throw core::UsageError("item-item needs at least one neighbour (n_neighbors is 0)");
  }
  const std::size_t keep = options_.keep;
  if (keep == ItemItemOptions::kKeepAll && n_items_ > kMaxItems) {
    throw core::UsageError(
        "item-item with keep=all keeps a dense similarity matrix and supports "
        "at most " +
        std::to_string(kMaxItems) + " items; the data has " + std::to_string(n_items_) +
        " (keep=K or keep=auto keep each item's K "
        "most similar items)");
  }
  sparse_.reset();
  if (keep != ItemItemOptions::kKeepAll &&
      (keep != ItemItemOptions::kKeepAuto || n_items_ > kMaxItems)) {
    // Release the dense model's arrays of an earlier fit before the sparse one is built.
    *this = ItemItem(options_);
    n_users_ = train.n_users();
    n_items_ = train.n_items();
    sparse_ = std::make_unique<SparseItemItem>(SparseItemItemOptions{
        options_.n_neighbors, options_.min_similarity,
        keep == ItemItemOptions::kKeepAuto ? ItemItemOptions::kAutoKeep : keep});
    sparse_->fit(train, fit_options);
    return;
  }
  ItemCentredRatings centred = centre_by_item(train);
  item_mean_ = std::move(centred.item_mean);
  // Matrix columns in order of decreasing item mean (ties: smaller id), so that a top-k can
  // stop at the first column whose mean already bounds every later score below the k-th.
  by_mean_.resize(n_items_);
  for (ItemId i = 0; i < n_items_; ++i) by_mean_[i] = i;
  std::stable_sort(by_mean_.begin(), by_mean_.end(),
                   [&](ItemId a, ItemId b) { return item_mean_[a] > item_mean_[b]; });
  col_of_.resize(n_items_);
  for (std::size_t c = 0; c < n_items_; ++c) col_of_[by_mean_[c]] = static_cast<std::uint32_t>(c);
  user_offsets_ = std::move(centred.user_offsets);
  user_items_ = std::move(centred.user_items);
  user_centred_ = std::move(centred.user_centred);
  const std::vector<double>& norm = centred.norm;
  stride_ = (n_items_ + 7) / 8 * 8;
  // 11 MB for ML-100K, rebuilt at every fit: a HugeArray (huge pages, few faults). Every entry
  // is written below all the same: row i's upper part and padding by its own task, the
  // diagonal here, the lower part by the mirror.
  sim_ = core::HugeArray<float>(n_items_ * stride_);
  for (std::size_t i = 0; i < n_items_; ++i) sim_[i * stride_ + i] = 0.0f;
  const float min_sim = options_.min_similarity;
  const std::size_t n_threads = std::max<std::size_t>(1, fit_options.n_threads);
  core::ThreadPool pool(n_threads);
  // The matrix is symmetric bit for bit (row j's sum for i is row i's sum for j: the same
  // products, commuted, added in the same user order; a zero c_ui only adds +-0), so row i
  // accumulates only the items after i, starting in each rater's row just past i, and the
  // lower triangle is mirrored. Rows are independent and each is computed in a fixed order,
  // so threads change nothing.
  // after_i[q] for the q-th rating of item i (item order): its index in the rater's row.
  std::vector<std::size_t> after_i(train.n_ratings());
  {
    std::vector<std::size_t> cursor(n_items_ + 1, 0);
    for (ItemId i = 0; i < n_items_; ++i) cursor[i + 1] = cursor[i] + train.users_of(i).size();
    for (UserId u = 0; u < n_users_; ++u) {  // raters of an item come in user order
      for (std::size_t p = user_offsets_[u]; p < user_offsets_[u + 1]; ++p) {
        after_i[cursor[user_items_[p]]++] = p + 1;
      }
    }
  }
  std::vector<std::size_t> item_begin(n_items_ + 1, 0);
  for (ItemId i = 0; i < n_items_; ++i)
    item_begin[i + 1] = item_begin[i] + train.users_of(i).size();
  const std::size_t n_chunks = (n_items_ + kGrain - 1) / kGrain;
  pool.parallel_for(0, n_chunks, 1, [&](std::size_t chunk) {
    std::vector<double> acc(n_items_);
    for (std::size_t i = chunk * kGrain; i < std::min(n_items_, (chunk + 1) * kGrain); ++i) {
      float* row = sim_.data() + i * stride_;
      std::fill(row + n_items_, row + stride_, 0.0f);
      if (norm[i] == 0.0) {
        std::fill(row + i + 1, row + n_items_, 0.0f);
        continue;
      }
      std::fill(acc.begin() + static_cast<std::ptrdiff_t>(i) + 1, acc.end(), 0.0);
      const auto users = train.users_of(static_cast<ItemId>(i));
      const auto values = train.values_of_item(static_cast<ItemId>(i));
      for (std::size_t k = 0; k < users.size(); ++k) {
        const double ci = values[k] - item_mean_[i];
        if (ci == 0.0) continue;
        const UserId u = users[k];
        for (std::size_t p = after_i[item_begin[i] + k]; p < user_offsets_[u + 1]; ++p) {
          acc[user_items_[p]] += ci * user_centred_[p];
        }
      }
      // Branch-free (the test is a coin toss): an item with norm 0 has acc 0, 0 / 0 is NaN,
      // and NaN > min_sim is false, so it stays 0 like one below the threshold.
      for (std::size_t j = i + 1; j < n_items_; ++j) {
        const auto s = static_cast<float>(acc[j] / (norm[i] * norm[j]));
        row[j] = s > min_sim ? s : 0.0f;
      }
    }
  });
  // Mirror the upper triangle, in tiles so both sides stay in cache.
  constexpr std::size_t kTile = 64;
  for (std::size_t i0 = 0; i0 < n_items_; i0 += kTile) {
    for (std::size_t j0 = i0; j0 < n_items_; j0 += kTile) {
      for (std::size_t i = i0; i < std::min(n_items_, i0 + kTile); ++i) {
        for (std::size_t j = std::max(j0, i + 1); j < std::min(n_items_, j0 + kTile); ++j) {
          sim_[j * stride_ + i] = sim_[i * stride_ + j];
        }
      }
    }
  }
  build_neighbour_lists(pool);
  build_levels();
  permute_columns(pool);
}

// Sorted neighbour lists for the walk path; each list depends only on its row.
void ItemItem::build_neighbour_lists(core::ThreadPool& pool) {
  const std::size_t n_chunks = (n_items_ + kGrain - 1) / kGrain;
  walk_avx512_ = options_.vector_walk && n_items_ <= kBitmapItems && kernels::has_avx512();
  walk_min_rated_ = static_cast<std::size_t>(
      std::sqrt(static_cast<double>(options_.n_neighbors) * static_cast<double>(n_items_)));
  std::vector<std::size_t> counts(n_items_ + 1, 0);
  for (std::size_t i = 0; i < n_items_; ++i) {
    const float* row = sim_.data() + i * stride_;
    std::size_t c = 0;
    for (std::size_t j = 0; j < n_items_; ++j) c += row[j] > 0.0f ? 1 : 0;
    counts[i + 1] = counts[i] + c;
  }
  nbr_offsets_ = counts;
  nbr_ids_ = core::HugeArray<std::uint16_t>(nbr_offsets_.back());
  nbr_sims_ = core::HugeArray<float>(nbr_offsets_.back());
  pool.parallel_for(0, n_chunks, 1, [&](std::size_t chunk) {
    SimilarityOrder order;
    for (std::size_t i = chunk * kGrain; i < std::min(n_items_, (chunk + 1) * kGrain); ++i) {
      order.sort(sim_.data() + i * stride_, n_items_);
      std::transform(order.ids().begin(), order.ids().end(), nbr_ids_.begin() + nbr_offsets_[i],
                     [](std::uint32_t j) { return static_cast<std::uint16_t>(j); });
      std::copy(order.sims().begin(), order.sims().end(), nbr_sims_.begin() + nbr_offsets_[i]);
    }
  });
}

// Level rows for the column-wise scorer: positions from sqrt(k n_items) / 2 upwards.
void ItemItem::build_levels() {
  level_positions_.assign(kLevels, 0);
  const double first = std::max(1.0, 0.5 * std::sqrt(static_cast<double>(options_.n_neighbors) *
                                                     static_cast<double>(n_items_)));
  for (std::size_t h = 0; h < kLevels; ++h) {
    level_positions_[h] =
        static_cast<std::size_t>(std::ceil(first * std::exp2(static_cast<double>(h) / 4.0)));
  }
  levels_.assign(kLevels * stride_, 0.0f);
  for (std::size_t i = 0; i < n_items_; ++i) {
    const std::size_t len = nbr_offsets_[i + 1] - nbr_offsets_[i];
    const float* row = sim_.data() + i * stride_;
    for (std::size_t h = 0; h < kLevels; ++h) {
      const std::size_t p = level_positions_[h];
      if (p <= len) levels_[h * stride_ + col_of_[i]] = row[nbr_ids_[nbr_offsets_[i] + p - 1]];
    }
  }
}

// Permute every row's columns into mean order (rows stay by item id: the column scorer sums
// over a user's rated rows in id order). Padding columns stay 0.
void ItemItem::permute_columns(core::ThreadPool& pool) {
  const std::size_t n_chunks = (n_items_ + kGrain - 1) / kGrain;
  pool.parallel_for(0, n_chunks, 1, [&](std::size_t chunk) {
    std::vector<float> tmp(n_items_);
    for (std::size_t i = chunk * kGrain; i < std::min(n_items_, (chunk + 1) * kGrain); ++i) {
      float* row = sim_.data() + i * stride_;
      std::copy(row, row + n_items_, tmp.begin());
      for (std::size_t c = 0; c < n_items_; ++c) row[c] = tmp[by_mean_[c]];
    }
  });
}

namespace {

// Per-thread scratch of the walk: the user's rated items flagged (and as a bitmap for the
// AVX-512 walk), their centred values, and the hit positions of one list.
struct WalkScratch {
  std::vector<std::uint32_t> rated_flag, hits;
  std::vector<std::uint64_t> rated_bits;
  std::vector<float> rated_value;
};
thread_local WalkScratch walk_scratch;

}  // namespace

void ItemItem::flag_rated(std::size_t n_rated, const ItemId* rated, const float* centred) const {
  WalkScratch& w = walk_scratch;
  w.rated_flag.assign(n_items_, 0);
  w.rated_value.assign(n_items_, 0.0f);
  w.rated_bits.assign(kBitmapWords, 0);
  for (std::size_t j = 0; j < n_rated; ++j) {
    w.rated_flag[rated[j]] = 1;
    w.rated_value[rated[j]] = centred[j];
    if (walk_avx512_) w.rated_bits[rated[j] / 64] |= std::uint64_t{1} << (rated[j] % 64);
  }
  w.hits.resize(kWalkBatch * (options_.n_neighbors + kWalkSlack));
}

void ItemItem::walk_scores(const ItemId* items, std::size_t n, float* out) const {
  // Walk each target's sorted neighbours; the first k rated ones are its neighbourhood, summed
  // in walk order. (Unrated neighbours are skipped, not added as +-0 times a value: the same,
  // since a sum that starts at +0 never becomes -0.) The walk reads only the 16-bit ids (the
  // lists are many and long); the similarities are read at the hits alone, from the list (the
  // row would be a cache miss per hit). The sums of the batch's targets are interleaved: each
  // is a chain of dependent float additions in a fixed order, too slow to run one by one.
  ASSAY_CHECK(n <= kWalkBatch);
  WalkScratch& w = walk_scratch;
  const std::size_t k_max = options_.n_neighbors, room = k_max + kWalkSlack;
  const std::uint16_t* ids[kWalkBatch];
  const float* sims[kWalkBatch];
  std::size_t found[kWalkBatch];
  std::size_t most = 0;
  for (std::size_t l = 0; l < kWalkBatch; ++l) {
    found[l] = 0;
    if (l >= n) continue;
    const std::size_t o = nbr_offsets_[items[l]], len = nbr_offsets_[items[l] + 1] - o;
    ids[l] = nbr_ids_.data() + o;
    sims[l] = nbr_sims_.data() + o;
    std::uint32_t* hits = w.hits.data() + l * room;
    found[l] = walk_avx512_ ? walk_rated_avx512(ids[l], len, w.rated_bits.data(), k_max, hits)
                            : walk_rated_scalar(ids[l], len, w.rated_flag.data(), k_max, hits);
    most = std::max(most, found[l]);
  }
  const float* rated_value = w.rated_value.data();
  float num[kWalkBatch] = {}, den[kWalkBatch] = {};
  for (std::size_t h = 0; h < most; ++h) {
    for (std::size_t l = 0; l < kWalkBatch; ++l) {
      if (h >= found[l]) continue;
      const std::uint32_t p = w.hits[l * room + h];
      num[l] += sims[l][p] * rated_value[ids[l][p]];
      den[l] += sims[l][p];
    }
  }
  for (std::size_t l = 0; l < n; ++l) {
    out[l] = found[l] == 0
                 ? std::numeric_limits<float>::quiet_NaN()
                 : static_cast<float>(item_mean_[items[l]] +
                                      static_cast<double>(num[l]) / static_cast<double>(den[l]));
  }
}

void ItemItem::score(UserId user, std::span<const ItemId> items, std::span<float> out) const {
  if (sparse_) return sparse_->score(user, items, out);
  ASSAY_CHECK(user < n_users_ && items.size() == out.size());
  const std::size_t begin = user_offsets_[user], end = user_offsets_[user + 1];
  const ItemId* rated = user_items_.data() + begin;
  const float* centred = user_centred_.data() + begin;
  const std::size_t n_rated = end - begin;
  for (ItemId i : items) ASSAY_CHECK(i < n_items_);
  if (n_rated > walk_min_rated_) {
    flag_rated(n_rated, rated, centred);
    for (std::size_t k = 0; k < items.size(); k += kWalkBatch) {
      walk_scores(items.data() + k, std::min(kWalkBatch, items.size() - k), out.data() + k);
    }
    return;
  }
  // A top-k asks for (almost) every item: one column-wise pass scores them all.
  if (n_rated > 0 && items.size() * 4 >= n_items_) {
    thread_local std::vector<float> dense;
    dense.resize(stride_);
    score_columns(n_rated, rated, centred, 0, stride_, dense.data());
    for (std::size_t k = 0; k < items.size(); ++k) out[k] = dense[col_of_[items[k]]];
    return;
  }
  score_tiles(n_rated, rated, centred, items, out);
}

namespace {

// The k best (score, item) pairs offered so far, in ranks_before order.
class BestK {
 public:
  explicit BestK(std::size_t k) : k_(k) { best_.reserve(k + 1); }
  bool full() const { return best_.size() == k_; }
  float worst() const { return best_.back().score; }
  void offer(float score, ItemId item) {
    if (full() && !ranks_before({score, item}, best_.back())) return;
    auto at = std::upper_bound(best_.begin(), best_.end(), ScoredItem{score, item}, ranks_before);
    best_.insert(at, {score, item});
    if (best_.size() > k_) best_.pop_back();
  }
  std::vector<ItemId> items() const {
    std::vector<ItemId> out(best_.size());
    for (std::size_t j = 0; j < best_.size(); ++j) out[j] = best_[j].item;
    return out;
  }

 private:
  std::size_t k_;
  std::vector<ScoredItem> best_;
};

}  // namespace

std::vector<ItemId> ItemItem::top_k(UserId user, std::span<const ItemId> candidates,
                                    std::size_t k) const {
  if (sparse_) return sparse_->top_k(user, candidates, k);
  ASSAY_CHECK(user < n_users_);
  const std::size_t begin = user_offsets_[user], end = user_offsets_[user + 1];
  const ItemId* rated = user_items_.data() + begin;
  const float* centred = user_centred_.data() + begin;
  const std::size_t n_rated = end - begin;
  const bool walk = n_rated > walk_min_rated_;
  if (k == 0 || n_rated == 0 || (!walk && candidates.size() * 4 < n_items_)) {
    return Recommender::top_k(user, candidates, k);
  }
  thread_local std::vector<std::uint8_t> wanted;
  wanted.assign(n_items_, 0);
  for (ItemId i : candidates) {
    ASSAY_CHECK(i < n_items_);
    wanted[i] = 1;
  }
  // Every score is mean_i + a weighted average of the user's centred ratings with positive
  // weights, so at most mean_i + the largest of them; the margin covers the float rounding
  // of the two sums (relative 2^-24 per addition, 20 terms: ~1e-5 here) many times over.
  float c_max = centred[0], c_abs = 0;
  for (std::size_t j = 0; j < n_rated; ++j) {
    c_max = std::max(c_max, centred[j]);
    c_abs = std::max(c_abs, std::abs(centred[j]));
  }
  const auto bound = [&](ItemId i) {
    const double m = item_mean_[i];
    return m + c_max + 1e-4 * (1.0 + c_abs + std::abs(m));
  };
  BestK best(k);
  // Columns are in order of decreasing mean: once the bound of the next one is below the
  // k-th score, no later item can enter (it would need a score >= the k-th).
  const auto done = [&](std::size_t c) {
    return best.full() && bound(by_mean_[c]) < static_cast<double>(best.worst());
  };
  if (walk) {
    flag_rated(n_rated, rated, centred);
    // Scored kWalkBatch at a time: the stop is checked before each target joins a batch, so a
    // batch may hold targets past it, whose scores (<= their bound < the k-th) change nothing.
    ItemId batch[kWalkBatch];
    float scores[kWalkBatch];
    std::size_t n_batch = 0;
    const auto flush = [&] {
      walk_scores(batch, n_batch, scores);
      for (std::size_t l = 0; l < n_batch; ++l) {
        if (!std::isnan(scores[l])) best.offer(scores[l], batch[l]);
      }
      n_batch = 0;
    };
    for (std::size_t c = 0; c < n_items_ && !done(c); ++c) {
      const ItemId i = by_mean_[c];
      if (!wanted[i]) continue;
      batch[n_batch++] = i;
      if (n_batch == kWalkBatch) flush();
    }
    flush();
    return best.items();
  }
  constexpr std::size_t kChunk = 128;  // columns scored between two checks of the bound
  thread_local std::vector<float> dense;
  dense.resize(stride_);
  for (std::size_t c0 = 0; c0 < n_items_ && !done(c0); c0 += kChunk) {
    const std::size_t c1 = std::min(stride_, c0 + kChunk);
    score_columns(n_rated, rated, centred, c0, c1, dense.data());
    for (std::size_t c = c0; c < std::min(c1, n_items_); ++c) {
      const ItemId i = by_mean_[c];
      if (wanted[i] && !std::isnan(dense[c])) best.offer(dense[c], i);
    }
  }
  return best.items();
}

void ItemItem::score_columns(std::size_t n_rated, const ItemId* rated, const float* centred,
                             std::size_t c0, std::size_t c1, float* dense) const {
  thread_local std::vector<const float*> rows;
  thread_local std::vector<float> num, den;
  thread_local std::vector<std::uint8_t> ok;
  thread_local ColumnTopK top;
  rows.resize(n_rated);
  for (std::size_t j = 0; j < n_rated; ++j) {
    rows[j] = sim_.data() + std::size_t{rated[j]} * stride_ + c0;
  }
  const std::size_t n_cols = c1 - c0;
  num.resize(n_cols);
  den.resize(n_cols);
  ok.resize(n_cols);
  const std::size_t k = options_.n_neighbors;
  ColumnLevels levels;
  if (n_rated > k) {
    // Expected count above the level at position p: about p * n_rated / n_items; start at
    // the level where that is k (ColumnTopK then follows the data).
    const double target =
        static_cast<double>(k) * static_cast<double>(n_items_) / static_cast<double>(n_rated);
    std::size_t mid = 0;
    for (std::size_t h = 1; h < kLevels; ++h) {
      if (std::abs(static_cast<double>(level_positions_[h]) - target) <
          std::abs(static_cast<double>(level_positions_[mid]) - target)) {
        mid = h;
      }
    }
    levels = {levels_.data() + c0, kLevels, stride_, mid};
  }
  top.run(rows.data(), centred, n_rated, n_cols, k, levels, num.data(), den.data(), ok.data(),
          stride_ - c0);
  for (std::size_t c = c0; c < std::min(c1, n_items_); ++c) {
    const std::size_t q = c - c0;
    dense[c] = ok[q] ? static_cast<float>(item_mean_[by_mean_[c]] +
                                          static_cast<double>(num[q]) / static_cast<double>(den[q]))
                     : std::numeric_limits<float>::quiet_NaN();
  }
}

void ItemItem::score_tiles(std::size_t n_rated, const ItemId* rated, const float* centred,
                           std::span<const ItemId> items, std::span<float> out) const {
  // Targets are processed in tiles: block[k][j] = sim(items[k], rated[j]) is gathered from
  // the rows of the rated items (the matrix is symmetric bit for bit), so each tile reads a
  // narrow band of those rows and the block stays in L1, instead of every target touching
  // its whole row at scattered places.
  constexpr std::size_t kTile = 64;
  std::vector<float> block(kTile * n_rated);
  TopNeighbors top(options_.n_neighbors);
  for (std::size_t k0 = 0; k0 < items.size(); k0 += kTile) {
    const std::size_t n_tile = std::min(kTile, items.size() - k0);
    const ItemId* tile = items.data() + k0;
    for (std::size_t j = 0; j < n_rated; ++j) {
      const float* row = sim_.data() + static_cast<std::size_t>(rated[j]) * stride_;
      for (std::size_t k = 0; k < n_tile; ++k) block[k * n_rated + j] = row[col_of_[tile[k]]];
    }
    for (std::size_t k = 0; k < n_tile; ++k) {
      double avg = 0;
      out[k0 + k] = top.weighted_average(block.data() + k * n_rated, centred, n_rated, avg)
                        ? static_cast<float>(item_mean_[tile[k]] + avg)
                        : std::numeric_limits<float>::quiet_NaN();
    }
  }
}

}  // namespace assay::recsys
