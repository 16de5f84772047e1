#include "recsys/item_item.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/check.h"
#include "core/error.h"
#include "core/thread_pool.h"
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
    item_mean_[i] = values.empty() ? 0.0f : static_cast<float>(s / static_cast<double>(values.size()));
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
  sim_.assign(n_items_ * n_items_, 0.0f);
  const float min_sim = options_.min_similarity;
  const std::size_t n_threads = std::max<std::size_t>(1, fit_options.n_threads);
  core::ThreadPool pool(n_threads);
  // Rows are independent; each is computed in a fixed order, so threads change nothing.
  constexpr std::size_t kGrain = 16;
  const std::size_t n_chunks = (n_items_ + kGrain - 1) / kGrain;
  pool.parallel_for(0, n_chunks, 1, [&](std::size_t chunk) {
    std::vector<double> acc(n_items_);
    for (std::size_t i = chunk * kGrain; i < std::min(n_items_, (chunk + 1) * kGrain); ++i) {
      float* row = sim_.data() + i * n_items_;
      if (norm[i] == 0.0) continue;
      std::fill(acc.begin(), acc.end(), 0.0);
      const auto users = train.users_of(static_cast<ItemId>(i));
      const auto values = train.values_of_item(static_cast<ItemId>(i));
      for (std::size_t k = 0; k < users.size(); ++k) {
        const double ci = values[k] - item_mean_[i];
        if (ci == 0.0) continue;
        const UserId u = users[k];
        for (std::size_t p = user_offsets_[u]; p < user_offsets_[u + 1]; ++p) {
          acc[user_items_[p]] += ci * user_centred_[p];
        }
      }
      for (std::size_t j = 0; j < n_items_; ++j) {
        if (j == i || norm[j] == 0.0) continue;
        const auto s = static_cast<float>(acc[j] / (norm[i] * norm[j]));
        if (s > min_sim) row[j] = s;
      }
    }
  });
}

void ItemItem::score(UserId user, std::span<const ItemId> items, std::span<float> out) const {
  ASSAY_CHECK(user < n_users_ && items.size() == out.size());
  const std::size_t begin = user_offsets_[user], end = user_offsets_[user + 1];
  const ItemId* rated = user_items_.data() + begin;
  const float* centred = user_centred_.data() + begin;
  const std::size_t n_rated = end - begin;
  for (ItemId i : items) ASSAY_CHECK(i < n_items_);
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
      const float* row = sim_.data() + static_cast<std::size_t>(rated[j]) * n_items_;
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
