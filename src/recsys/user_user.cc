#include "recsys/user_user.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "core/check.h"
#include "core/error.h"
#include "core/thread_pool.h"
#include "recsys/similarity_order.h"

namespace assay::recsys {

void UserUser::fit(const Ratings& train, const FitOptions& fit_options) {
  n_users_ = train.n_users();
  n_items_ = train.n_items();
  if (options_.n_neighbors == 0) {
    throw core::UsageError("user-user needs at least one neighbour (n_neighbors is 0)");
  }
  user_mean_.assign(n_users_, 0.0f);
  norm_.assign(n_users_, 0.0);
  for (UserId u = 0; u < n_users_; ++u) {
    const auto values = train.values_of_user(u);
    double s = 0;
    for (float v : values) s += v;
    user_mean_[u] =
        values.empty() ? 0.0f : static_cast<float>(s / static_cast<double>(values.size()));
    double ss = 0;
    for (float v : values) {
      const double c = v - user_mean_[u];
      ss += c * c;
    }
    norm_[u] = std::sqrt(ss);
  }
  item_offsets_.assign(n_items_ + 1, 0);
  item_users_.clear();
  item_centred_.clear();
  item_users_.reserve(train.n_ratings());
  item_centred_.reserve(train.n_ratings());
  for (ItemId i = 0; i < n_items_; ++i) {
    const auto users = train.users_of(i);
    const auto values = train.values_of_item(i);
    for (std::size_t k = 0; k < users.size(); ++k) {
      item_users_.push_back(users[k]);
      item_centred_.push_back(values[k] - user_mean_[users[k]]);
    }
    item_offsets_[i + 1] = item_users_.size();
  }
  user_offsets_.assign(n_users_ + 1, 0);
  user_items_.clear();
  user_centred_.clear();
  for (UserId u = 0; u < n_users_; ++u) {
    const auto items = train.items_of(u);
    const auto values = train.values_of_user(u);
    for (std::size_t k = 0; k < items.size(); ++k) {
      user_items_.push_back(items[k]);
      user_centred_.push_back(values[k] - user_mean_[u]);
    }
    user_offsets_[u + 1] = user_items_.size();
  }
  sim_ = core::HugeArray<float>();
  if (n_users_ > options_.max_dense_users) return;     // rows are computed when a user is scored
  sim_ = core::HugeArray<float>(n_users_ * n_users_);  // zeroed
  core::ThreadPool pool(std::max<std::size_t>(1, fit_options.n_threads));
  constexpr std::size_t kGrain = 16;
  const std::size_t n_chunks = (n_users_ + kGrain - 1) / kGrain;
  // Rows are independent and each is accumulated in a fixed order: threads change nothing.
  pool.parallel_for(0, n_chunks, 1, [&](std::size_t chunk) {
    std::vector<double> acc(n_users_);
    for (std::size_t u = chunk * kGrain; u < std::min(n_users_, (chunk + 1) * kGrain); ++u) {
      similarity_row(static_cast<UserId>(u), acc, sim_.data() + u * n_users_);
    }
  });
}

void UserUser::similarity_row(UserId u, std::vector<double>& acc, float* row) const {
  if (norm_[u] == 0.0) {
    std::fill(row, row + n_users_, 0.0f);
    return;
  }
  acc.assign(n_users_, 0.0);
  for (std::size_t q = user_offsets_[u]; q < user_offsets_[u + 1]; ++q) {
    const double cu = user_centred_[q];
    if (cu == 0.0) continue;
    const ItemId i = user_items_[q];
    for (std::size_t p = item_offsets_[i]; p < item_offsets_[i + 1]; ++p) {
      acc[item_users_[p]] += cu * item_centred_[p];
    }
  }
  // Branch-free (the test is a coin toss): a user with norm 0 has acc 0, 0 / 0 is NaN,
  // and NaN > min_sim is false, so the entry stays 0 like one below the threshold.
  const float min_sim = options_.min_similarity;
  for (std::size_t v = 0; v < n_users_; ++v) {
    const auto s = static_cast<float>(acc[v] / (norm_[u] * norm_[v]));
    row[v] = s > min_sim ? s : 0.0f;
  }
  row[u] = 0.0f;
}

namespace {

struct Neighbor {
  float sim;
  float value;
  UserId user;
};

// Most similar first; ties by smaller user id.
bool more_similar(const Neighbor& a, const Neighbor& b) {
  return a.sim != b.sim ? a.sim > b.sim : a.user < b.user;
}

// Lists shorter than this are scored item by item; longer ones by the neighbour walk.
constexpr std::size_t kWalkMinItems = 32;

}  // namespace

void UserUser::score(UserId user, std::span<const ItemId> items, std::span<float> out) const {
  ASSAY_CHECK(user < n_users_ && items.size() == out.size());
  for (ItemId i : items) ASSAY_CHECK(i < n_items_);
  const float* row = nullptr;
  if (sim_.size() != 0) {
    row = sim_.data() + static_cast<std::size_t>(user) * n_users_;
  } else {
    thread_local std::vector<double> acc;
    thread_local std::vector<float> own;
    own.resize(n_users_);
    similarity_row(user, acc, own.data());
    row = own.data();
  }
  const std::size_t k_max = options_.n_neighbors;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto finish = [&](float num, float den) {
    return static_cast<float>(user_mean_[user] +
                              static_cast<double>(num) / static_cast<double>(den));
  };
  if (items.size() >= kWalkMinItems) {
    // Walk the positive neighbours from most to least similar; each item takes the first
    // k_max of its raters met, which are exactly its top-k_max neighbours.
    thread_local SimilarityOrder order;
    order.sort(row, n_users_);
    // Branch-free accumulation: a full item adds +0 * value = +-0 and +0, which change nothing.
    struct Acc {
      float num = 0, den = 0;
      std::uint32_t count = 0;
    };
    thread_local std::vector<Acc> acc;
    acc.assign(n_items_, Acc{});
    const auto k_cap = static_cast<std::uint32_t>(k_max);
    for (std::size_t q = 0; q < order.ids().size(); ++q) {
      const UserId v = order.ids()[q];
      const auto s_bits = std::bit_cast<std::uint32_t>(order.sims()[q]);
      for (std::size_t p = user_offsets_[v]; p < user_offsets_[v + 1]; ++p) {
        Acc& a = acc[user_items_[p]];
        // open ? s : +0 as a bit mask: a conditional here compiles to a branch that
        // mispredicts on every other rating.
        const std::uint32_t open = a.count < k_cap ? 1u : 0u;
        const float w = std::bit_cast<float>(s_bits & (0u - open));
        a.num += w * user_centred_[p];
        a.den += w;
        a.count += open;
      }
    }
    for (std::size_t k = 0; k < items.size(); ++k) {
      const Acc& a = acc[items[k]];
      out[k] = a.count == 0 ? nan : finish(a.num, a.den);
    }
    return;
  }
  std::vector<Neighbor> cand;
  std::vector<float> work, spare;
  for (std::size_t k = 0; k < items.size(); ++k) {
    const ItemId i = items[k];
    cand.clear();
    for (std::size_t p = item_offsets_[i]; p < item_offsets_[i + 1]; ++p) {
      const float s = row[item_users_[p]];
      if (s > 0.0f) cand.push_back({s, item_centred_[p], item_users_[p]});
    }
    if (cand.empty()) {
      out[k] = nan;
      continue;
    }
    const std::size_t n = std::min(k_max, cand.size());
    std::partial_sort(cand.begin(), cand.begin() + static_cast<std::ptrdiff_t>(n), cand.end(),
                      more_similar);
    float num = 0, den = 0;
    for (std::size_t j = 0; j < n; ++j) {
      num += cand[j].sim * cand[j].value;
      den += cand[j].sim;
    }
    out[k] = finish(num, den);
  }
}

}  // namespace assay::recsys
