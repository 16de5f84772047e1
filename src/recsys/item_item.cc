#include "recsys/item_item.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/check.h"
#include "core/error.h"
#include "core/thread_pool.h"
#include "recsys/column_top_k.h"
#include "recsys/similarity_order.h"
#include "recsys/top_neighbors.h"

namespace assay::recsys {

void ItemItem::fit(const Ratings& train, const FitOptions& fit_options) {
  n_users_ = train.n_users();
  n_items_ = train.n_items();
  if (n_items_ > kMaxItems) {
    throw core::UsageError("item-item keeps a dense similarity matrix and supports at most " +
                           std::to_string(kMaxItems) + " items; the data has " +
                           std::to_string(n_items_));
  }
  item_mean_.assign(n_items_, 0.0f);
  for (ItemId i = 0; i < n_items_; ++i) {
    const auto values = train.values_of_item(i);
    double s = 0;
    for (float v : values) s += v;
    item_mean_[i] =
        values.empty() ? 0.0f : static_cast<float>(s / static_cast<double>(values.size()));
  }
  user_offsets_.assign(n_users_ + 1, 0);
  user_items_.clear();
  user_centred_.clear();
  user_items_.reserve(train.n_ratings());
  user_centred_.reserve(train.n_ratings());
  for (UserId u = 0; u < n_users_; ++u) {
    const auto items = train.items_of(u);
    const auto values = train.values_of_user(u);
    for (std::size_t k = 0; k < items.size(); ++k) {
      user_items_.push_back(items[k]);
      user_centred_.push_back(values[k] - item_mean_[items[k]]);
    }
    user_offsets_[u + 1] = user_items_.size();
  }
  // Centred item vectors: norms, and for row i the dot products with every other item,
  // accumulated user by user (sum over u in U_i of c_ui * c_u*).
  std::vector<double> norm(n_items_, 0.0);
  for (ItemId i = 0; i < n_items_; ++i) {
    const auto users = train.users_of(i);
    const auto values = train.values_of_item(i);
    double s = 0;
    for (std::size_t k = 0; k < users.size(); ++k) {
      const double c = values[k] - item_mean_[i];
      s += c * c;
    }
    norm[i] = std::sqrt(s);
  }
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
  constexpr std::size_t kGrain = 16;
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
  // Sorted neighbour lists for the walk path; each list depends only on its row.
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
  // Level rows for the column-wise scorer: positions from sqrt(k n_items) / 2 upwards.
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
      if (p <= len) levels_[h * stride_ + i] = row[nbr_ids_[nbr_offsets_[i] + p - 1]];
    }
  }
}

void ItemItem::score(UserId user, std::span<const ItemId> items, std::span<float> out) const {
  ASSAY_CHECK(user < n_users_ && items.size() == out.size());
  const std::size_t begin = user_offsets_[user], end = user_offsets_[user + 1];
  const ItemId* rated = user_items_.data() + begin;
  const float* centred = user_centred_.data() + begin;
  const std::size_t n_rated = end - begin;
  for (ItemId i : items) ASSAY_CHECK(i < n_items_);
  if (n_rated > walk_min_rated_) {
    // Walk each target's sorted neighbours; the first k rated ones are its neighbourhood,
    // summed in walk order. (Unrated neighbours are skipped, not added as +-0 times a
    // value: the same, since a sum that starts at +0 never becomes -0.)
    thread_local std::vector<std::uint32_t> rated_flag, hits;
    thread_local std::vector<float> rated_value;
    rated_flag.assign(n_items_, 0);
    rated_value.assign(n_items_, 0.0f);
    for (std::size_t j = 0; j < n_rated; ++j) {
      rated_flag[rated[j]] = 1;
      rated_value[rated[j]] = centred[j];
    }
    const std::size_t k_max = options_.n_neighbors;
    hits.resize(k_max + 1);  // + 1: the scan writes one past the last hit
    for (std::size_t k = 0; k < items.size(); ++k) {
      const ItemId i = items[k];
      const std::size_t o = nbr_offsets_[i], len = nbr_offsets_[i + 1] - o;
      const std::uint16_t* ids = nbr_ids_.data() + o;
      const float* sims = nbr_sims_.data() + o;
      // The scan reads only the 16-bit ids (the lists are many and long; the similarities
      // are read at the hits alone, from the list: the row would be a cache miss per hit),
      // branch-free but for the exit. (An AVX-512 gather of the
      // flags was slower here.)
      std::size_t found = 0;
      for (std::size_t p = 0; p < len; ++p) {
        hits[found] = static_cast<std::uint32_t>(p);
        found += rated_flag[ids[p]];
        if (found == k_max) break;
      }
      float num = 0, den = 0;
      for (std::size_t h = 0; h < found; ++h) {
        const std::uint32_t p = hits[h];
        num += sims[p] * rated_value[ids[p]];
        den += sims[p];
      }
      out[k] = found == 0 ? std::numeric_limits<float>::quiet_NaN()
                          : static_cast<float>(item_mean_[i] +
                                               static_cast<double>(num) / static_cast<double>(den));
    }
    return;
  }
  // A top-k asks for (almost) every item: one column-wise pass scores them all.
  if (n_rated > 0 && items.size() * 4 >= n_items_) {
    thread_local std::vector<float> dense;
    dense.resize(stride_);
    score_all(n_rated, rated, centred, dense.data());
    for (std::size_t k = 0; k < items.size(); ++k) out[k] = dense[items[k]];
    return;
  }
  score_tiles(n_rated, rated, centred, items, out);
}

void ItemItem::score_all(std::size_t n_rated, const ItemId* rated, const float* centred,
                         float* dense) const {
  thread_local std::vector<const float*> rows;
  thread_local std::vector<float> num, den;
  thread_local std::vector<std::uint8_t> ok;
  thread_local ColumnTopK top;
  rows.resize(n_rated);
  for (std::size_t j = 0; j < n_rated; ++j) rows[j] = sim_.data() + std::size_t{rated[j]} * stride_;
  num.resize(stride_);
  den.resize(stride_);
  ok.resize(stride_);
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
    levels = {levels_.data(), kLevels, stride_, mid};
  }
  top.run(rows.data(), centred, n_rated, stride_, k, levels, num.data(), den.data(), ok.data());
  for (std::size_t i = 0; i < n_items_; ++i) {
    dense[i] = ok[i] ? static_cast<float>(item_mean_[i] +
                                          static_cast<double>(num[i]) / static_cast<double>(den[i]))
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
      for (std::size_t k = 0; k < n_tile; ++k) block[k * n_rated + j] = row[tile[k]];
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
