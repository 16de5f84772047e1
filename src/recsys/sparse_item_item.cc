#include "recsys/sparse_item_item.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "core/check.h"
#include "core/error.h"
#include "core/thread_pool.h"
#include "recsys/item_centring.h"

namespace assay::recsys {
namespace {

// Most similar first; ties by smaller id.
template <class T>
bool more_similar(const T& a, const T& b) {
  return a.sim != b.sim ? a.sim > b.sim : a.item < b.item;
}

struct Kept {
  float sim;
  ItemId item;
};

// The rows of one chunk of items, concatenated.
struct RowChunk {
  std::vector<std::size_t> lengths;
  std::vector<ItemId> ids;
  std::vector<float> sims;
};

}  // namespace

void SparseItemItem::fit(const Ratings& train, const FitOptions& fit_options) {
  if (options_.n_neighbors == 0) {
    throw core::UsageError("item-item needs at least one neighbour (n_neighbors is 0)");
  }
  if (options_.keep == 0) {
    throw core::UsageError("item-item needs at least one kept neighbour per item (keep is 0)");
  }
  n_users_ = train.n_users();
  n_items_ = train.n_items();
  ItemCentredRatings centred = centre_by_item(train);
  item_mean_ = std::move(centred.item_mean);
  user_offsets_ = std::move(centred.user_offsets);
  user_items_ = std::move(centred.user_items);
  user_centred_ = std::move(centred.user_centred);
  const std::vector<double>& norm = centred.norm;
  heavy_min_rated_ = static_cast<std::size_t>(
      std::sqrt(static_cast<double>(options_.n_neighbors) * static_cast<double>(n_items_)));
  const float min_sim = options_.min_similarity;
  const std::size_t keep = options_.keep;
  // Row i: acc[j] = sum over the raters u of i (user order) of c_ui * c_uj, the dense model's
  // sums (its row min(i, j)) with the factors commuted; a zero c_ui adds only +-0 to sums that
  // start at +0, so skipping it changes nothing.
  constexpr std::size_t kGrain = 64;
  const std::size_t n_chunks = (n_items_ + kGrain - 1) / kGrain;
  std::vector<RowChunk> chunks(n_chunks);
  core::ThreadPool pool(std::max<std::size_t>(1, fit_options.n_threads));
  pool.parallel_for(0, n_chunks, 1, [&](std::size_t chunk) {
    std::vector<double> acc(n_items_, 0.0);
    std::vector<std::uint8_t> seen(n_items_, 0);
    std::vector<ItemId> touched;
    std::vector<Kept> row;
    RowChunk& out = chunks[chunk];
    for (std::size_t i = chunk * kGrain; i < std::min(n_items_, (chunk + 1) * kGrain); ++i) {
      touched.clear();
      row.clear();
      if (norm[i] != 0.0) {
        const auto users = train.users_of(static_cast<ItemId>(i));
        const auto values = train.values_of_item(static_cast<ItemId>(i));
        for (std::size_t k = 0; k < users.size(); ++k) {
          const double ci = values[k] - item_mean_[i];
          if (ci == 0.0) continue;
          const UserId u = users[k];
          for (std::size_t p = user_offsets_[u]; p < user_offsets_[u + 1]; ++p) {
            const ItemId j = user_items_[p];
            if (!seen[j]) {
              seen[j] = 1;
              touched.push_back(j);
            }
            acc[j] += ci * user_centred_[p];
          }
        }
        for (const ItemId j : touched) {
          // An item with norm 0 gives 0 / 0 = NaN, which fails the test like a small one.
          const auto s = static_cast<float>(acc[j] / (norm[i] * norm[j]));
          if (j != i && s > min_sim) row.push_back({s, j});
        }
      }
      for (const ItemId j : touched) {
        acc[j] = 0.0;
        seen[j] = 0;
      }
      if (row.size() > keep) {
        std::nth_element(row.begin(), row.begin() + static_cast<std::ptrdiff_t>(keep), row.end(),
                         more_similar<Kept>);
        row.resize(keep);
      }
      std::sort(row.begin(), row.end(), more_similar<Kept>);
      out.lengths.push_back(row.size());
      for (const Kept& k : row) {
        out.ids.push_back(k.item);
        out.sims.push_back(k.sim);
      }
    }
  });
  nbr_offsets_.assign(n_items_ + 1, 0);
  nbr_ids_.clear();
  nbr_sims_.clear();
  std::size_t total = 0;
  for (const RowChunk& c : chunks) total += c.ids.size();
  nbr_ids_.reserve(total);
  nbr_sims_.reserve(total);
  std::size_t i = 0;
  for (RowChunk& c : chunks) {
    for (const std::size_t len : c.lengths) {
      nbr_offsets_[i + 1] = nbr_offsets_[i] + len;
      ++i;
    }
    nbr_ids_.insert(nbr_ids_.end(), c.ids.begin(), c.ids.end());
    nbr_sims_.insert(nbr_sims_.end(), c.sims.begin(), c.sims.end());
    RowChunk().lengths.swap(c.lengths);
    std::vector<ItemId>().swap(c.ids);
    std::vector<float>().swap(c.sims);
  }
  // The transpose, targets ascending within each neighbour (a counting sort).
  inv_offsets_.assign(n_items_ + 1, 0);
  for (const ItemId j : nbr_ids_) ++inv_offsets_[j + 1];
  for (std::size_t j = 0; j < n_items_; ++j) inv_offsets_[j + 1] += inv_offsets_[j];
  inv_targets_.resize(nbr_ids_.size());
  inv_sims_.resize(nbr_ids_.size());
  std::vector<std::size_t> cursor(inv_offsets_.begin(), inv_offsets_.end() - 1);
  for (ItemId t = 0; t < n_items_; ++t) {
    for (std::size_t p = nbr_offsets_[t]; p < nbr_offsets_[t + 1]; ++p) {
      const std::size_t q = cursor[nbr_ids_[p]]++;
      inv_targets_[q] = t;
      inv_sims_[q] = nbr_sims_[p];
    }
  }
}

std::span<const ItemId> SparseItemItem::neighbors_of(ItemId i) const {
  ASSAY_CHECK(i < n_items_);
  return {nbr_ids_.data() + nbr_offsets_[i], nbr_offsets_[i + 1] - nbr_offsets_[i]};
}

std::span<const float> SparseItemItem::similarities_of(ItemId i) const {
  ASSAY_CHECK(i < n_items_);
  return {nbr_sims_.data() + nbr_offsets_[i], nbr_offsets_[i + 1] - nbr_offsets_[i]};
}

std::size_t SparseItemItem::list_bytes() const {
  return (nbr_ids_.size() + inv_targets_.size()) * sizeof(ItemId) +
         (nbr_sims_.size() + inv_sims_.size()) * sizeof(float) +
         (nbr_offsets_.size() + inv_offsets_.size()) * sizeof(std::size_t);
}

float SparseItemItem::finish(ItemId target, Candidate* chosen, std::size_t n, bool heavy) const {
  if (n == 0) return std::numeric_limits<float>::quiet_NaN();
  if (heavy) {
    std::sort(chosen, chosen + n, more_similar<Candidate>);
  } else {
    std::sort(chosen, chosen + n,
              [](const Candidate& a, const Candidate& b) { return a.item < b.item; });
  }
  float num = 0, den = 0;
  for (std::size_t k = 0; k < n; ++k) {
    num += chosen[k].sim * chosen[k].value;
    den += chosen[k].sim;
  }
  return static_cast<float>(item_mean_[target] +
                            static_cast<double>(num) / static_cast<double>(den));
}

namespace {

// Per-thread scratch: the user's rated items flagged with their centred values, and the
// candidates of every target grouped by target.
struct Scratch {
  std::vector<std::uint8_t> rated;
  std::vector<float> value;
  std::vector<std::uint32_t> count, offset;
  std::vector<ItemId> touched;
  std::vector<float> num, den;  // the running sums of a light user's targets
};
thread_local Scratch scratch;

}  // namespace

void SparseItemItem::flag_rated(std::size_t n_rated, const ItemId* rated,
                                const float* centred) const {
  Scratch& w = scratch;
  w.rated.assign(n_items_, 0);
  w.value.resize(n_items_);
  for (std::size_t r = 0; r < n_rated; ++r) {
    w.rated[rated[r]] = 1;
    w.value[rated[r]] = centred[r];
  }
}

std::size_t SparseItemItem::walk(ItemId target, Candidate* chosen) const {
  // The list is most similar first, ties by smaller id: its first n_neighbors rated items
  // are the neighbourhood.
  const Scratch& w = scratch;
  std::size_t n = 0;
  for (std::size_t p = nbr_offsets_[target];
       p < nbr_offsets_[target + 1] && n < options_.n_neighbors; ++p) {
    const ItemId j = nbr_ids_[p];
    if (w.rated[j]) chosen[n++] = {nbr_sims_[p], w.value[j], j};
  }
  return n;
}

void SparseItemItem::score_all(std::size_t n_rated, const ItemId* rated, const float* centred,
                               std::vector<float>& dense) const {
  // Each rated item j offers itself, in id order, to the targets that keep it; a target's
  // candidates are then its kept items that the user rated, in id order. A light user sums in
  // id order, the order they come in: the sums run as they come, in one pass, and only the
  // targets offered more than n_neighbors candidates (popular items sit in many lists) have
  // theirs grouped in a second pass and selected. A heavy user sums most similar first: all
  // targets' candidates are grouped and selected.
  Scratch& w = scratch;
  w.count.assign(n_items_, 0);
  w.touched.clear();
  w.num.resize(n_items_);
  w.den.resize(n_items_);
  const bool heavy = n_rated > heavy_min_rated_;
  const std::size_t k = options_.n_neighbors;
  for (std::size_t r = 0; r < n_rated; ++r) {
    const ItemId j = rated[r];
    const float c = centred[r];
    for (std::size_t q = inv_offsets_[j]; q < inv_offsets_[j + 1]; ++q) {
      const ItemId t = inv_targets_[q];
      const float s = inv_sims_[q];
      if (w.count[t]++ == 0) {
        w.touched.push_back(t);
        w.num[t] = 0.0f;
        w.den[t] = 0.0f;
      }
      w.num[t] += s * c;
      w.den[t] += s;
    }
  }
  const auto grouped = [&](ItemId t) { return heavy || w.count[t] > k; };
  w.offset.resize(n_items_);
  std::uint32_t total = 0;
  for (const ItemId t : w.touched) {
    w.offset[t] = total;
    if (grouped(t)) total += w.count[t];
  }
  thread_local std::vector<Candidate> cand;
  cand.resize(total);
  if (total > 0) {
    for (std::size_t r = 0; r < n_rated; ++r) {
      const ItemId j = rated[r];
      for (std::size_t q = inv_offsets_[j]; q < inv_offsets_[j + 1]; ++q) {
        const ItemId t = inv_targets_[q];
        if (grouped(t)) cand[w.offset[t]++] = {inv_sims_[q], centred[r], j};
      }
    }
  }
  dense.assign(n_items_, std::numeric_limits<float>::quiet_NaN());
  for (const ItemId t : w.touched) {
    const std::size_t n = w.count[t];
    if (!grouped(t)) {
      dense[t] = static_cast<float>(item_mean_[t] +
                                    static_cast<double>(w.num[t]) / static_cast<double>(w.den[t]));
      continue;
    }
    Candidate* first = cand.data() + (w.offset[t] - n);  // offset now marks the group's end
    if (n > k) std::nth_element(first, first + k, first + n, more_similar<Candidate>);
    dense[t] = finish(t, first, std::min(n, k), heavy);
  }
}

void SparseItemItem::score(UserId user, std::span<const ItemId> items, std::span<float> out) const {
  ASSAY_CHECK(user < n_users_ && items.size() == out.size());
  for (const ItemId i : items) ASSAY_CHECK(i < n_items_);
  const std::size_t begin = user_offsets_[user], n_rated = user_offsets_[user + 1] - begin;
  const ItemId* rated = user_items_.data() + begin;
  const float* centred = user_centred_.data() + begin;
  // Many targets: the rated items offer themselves to all targets at once (~ n_u * keep);
  // few: each target's list is walked (<= keep each). Both choose the same neighbours.
  if (items.size() > n_rated) {
    thread_local std::vector<float> dense;
    score_all(n_rated, rated, centred, dense);
    for (std::size_t k = 0; k < items.size(); ++k) out[k] = dense[items[k]];
    return;
  }
  flag_rated(n_rated, rated, centred);
  const bool heavy = n_rated > heavy_min_rated_;
  std::vector<Candidate> chosen(options_.n_neighbors);
  for (std::size_t k = 0; k < items.size(); ++k) {
    out[k] = finish(items[k], chosen.data(), walk(items[k], chosen.data()), heavy);
  }
}

}  // namespace assay::recsys
