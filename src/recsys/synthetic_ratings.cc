#include "recsys/synthetic_ratings.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/error.h"
#include "core/rng.h"
#include "recsys/movielens_100k_loader.h"

namespace assay::recsys {
namespace {

// Stream ids of the independent random choices, so changing one part (say the rating noise)
// leaves the others as they were.
enum Stream : std::uint64_t {
  kGenreStream = 1,
  kItemStream = 2,
  kUserStream = 3,
  kActivityStream = 4,
  kPopularityStream = 5,
  kTopOnlyStream = 6,
  kSampleStreamBase = 1000,  // + user id
};

constexpr double kPopularityOffset = 20;
constexpr double kGlobalMean = 3.53;
constexpr double kUserBiasSd = 0.40;
constexpr double kItemBiasSd = 0.45;
constexpr double kActivitySigma = 0.9;
constexpr std::size_t kMinUserRatings = 20;

void check_options(const SyntheticOptions& o) {
  if (o.n_users == 0 || o.n_items == 0 || o.n_ratings == 0) {
    throw core::UsageError("synthetic data needs at least one user, one item and one rating");
  }
  if (o.n_factors == 0) throw core::UsageError("synthetic data needs at least one latent factor");
  const double max_ratings = 0.5 * static_cast<double>(o.n_users) * static_cast<double>(o.n_items);
  if (static_cast<double>(o.n_ratings) > max_ratings) {
    throw core::UsageError("synthetic data: " + std::to_string(o.n_ratings) +
                           " ratings is more than half of the " + std::to_string(o.n_users) +
                           " x " + std::to_string(o.n_items) + " (user, item) pairs");
  }
  if (o.top_only_items > o.n_items / 2) {
    throw core::UsageError("synthetic data: top_only=" + std::to_string(o.top_only_items) +
                           " is more than half of the " + std::to_string(o.n_items) + " items");
  }
}

// The generator's steps, each from its own random stream, in the order they are drawn.
class Generator {
 public:
  explicit Generator(const SyntheticOptions& o)
      : o_(o),
        d_(o.n_factors),
        n_genres_(movielens_100k_genres().size()),
        factor_scale_(1.0 / std::sqrt(static_cast<double>(o.n_factors))) {}

  Ratings run() {
    draw_genres();
    draw_items();
    draw_users();
    draw_popularity();
    draw_activity();
    plant_top_only();
    std::vector<Rating> triplets;
    triplets.reserve(o_.n_ratings);
    std::vector<std::uint32_t> stamp(o_.n_items, 0);
    for (std::size_t u = 0; u < o_.n_users; ++u) sample_user(u, stamp, triplets);
    Ratings out = Ratings::from_triplets(std::move(triplets), o_.n_users, o_.n_items,
                                         RatingScale{1, 5, {1, 2, 3, 4, 5}});
    out.set_item_attributes(std::move(item_genres_), movielens_100k_genres());
    return out;
  }

 private:
  // Genre centroids and a skewed genre frequency (Drama and Comedy dominate MovieLens).
  void draw_genres() {
    core::Rng rng(o_.seed, kGenreStream);
    centroids_.resize(n_genres_ * d_);
    for (double& c : centroids_) c = rng.normal();
    genre_cdf_.resize(n_genres_);
    double acc = 0;
    for (std::size_t g = 0; g < n_genres_; ++g) {
      acc += 1.0 / static_cast<double>(g + 2);
      genre_cdf_[g] = acc;
    }
    genre_rank_.resize(n_genres_);
    std::iota(genre_rank_.begin(), genre_rank_.end(), std::size_t{0});
    rng.shuffle(genre_rank_.begin(), genre_rank_.end());
  }
  std::size_t draw_genre(core::Rng& rng) const {
    const double x = rng.uniform() * genre_cdf_.back();
    const auto k = static_cast<std::size_t>(
        std::lower_bound(genre_cdf_.begin(), genre_cdf_.end(), x) - genre_cdf_.begin());
    return genre_rank_[std::min(k, n_genres_ - 1)];
  }

  // Items: genres, factors pulled towards their genres' centroids, biases.
  void draw_items() {
    core::Rng rng(o_.seed, kItemStream);
    item_genres_.resize(o_.n_items);
    q_.resize(o_.n_items * d_);
    item_bias_.resize(o_.n_items);
    for (std::size_t i = 0; i < o_.n_items; ++i) {
      auto& gs = item_genres_[i];
      gs.push_back(static_cast<AttributeId>(draw_genre(rng)));
      if (rng.bernoulli(0.5)) gs.push_back(static_cast<AttributeId>(draw_genre(rng)));
      if (rng.bernoulli(0.15)) gs.push_back(static_cast<AttributeId>(draw_genre(rng)));
      std::sort(gs.begin(), gs.end());
      gs.erase(std::unique(gs.begin(), gs.end()), gs.end());
      for (std::size_t f = 0; f < d_; ++f) {
        double centre = 0;
        for (AttributeId g : gs) centre += centroids_[g * d_ + f];
        centre /= static_cast<double>(gs.size());
        q_[i * d_ + f] = factor_scale_ * (0.8 * centre + 0.6 * rng.normal());
      }
      item_bias_[i] = kItemBiasSd * rng.normal();
    }
  }

  // Users: factors and biases.
  void draw_users() {
    core::Rng rng(o_.seed, kUserStream);
    p_.resize(o_.n_users * d_);
    user_bias_.resize(o_.n_users);
    for (std::size_t u = 0; u < o_.n_users; ++u) {
      for (std::size_t f = 0; f < d_; ++f) p_[u * d_ + f] = factor_scale_ * 1.2 * rng.normal();
      user_bias_[u] = kUserBiasSd * rng.normal();
    }
  }

  // Popularity: a power law over a random rank; popular items also rate a little higher.
  void draw_popularity() {
    core::Rng rng(o_.seed, kPopularityStream);
    rank_.resize(o_.n_items);
    std::iota(rank_.begin(), rank_.end(), std::size_t{0});
    rng.shuffle(rank_.begin(), rank_.end());  // rank_[k] = item with popularity rank k
    item_cdf_.resize(o_.n_items);
    double acc = 0;
    for (std::size_t k = 0; k < o_.n_items; ++k) {
      acc += std::pow(static_cast<double>(k) + kPopularityOffset, -o_.popularity_exponent);
      item_cdf_[k] = acc;
      item_bias_[rank_[k]] +=
          0.3 * (0.5 - static_cast<double>(k) / static_cast<double>(o_.n_items));
    }
  }

  // Activity: log-normal shares of the total, at least min(20, R / users) each, at most
  // half the items; the remainder goes round robin to keep the total exact.
  void draw_activity() {
    core::Rng rng(o_.seed, kActivityStream);
    const std::size_t cap = std::max<std::size_t>(1, o_.n_items / 2);
    const std::size_t floor_n = std::min({kMinUserRatings, o_.n_ratings / o_.n_users, cap});
    std::vector<double> weight(o_.n_users);
    double weight_sum = 0;
    for (double& w : weight) weight_sum += (w = std::exp(kActivitySigma * rng.normal()));
    n_of_.assign(o_.n_users, floor_n);
    std::size_t assigned = floor_n * o_.n_users;
    const double spare = static_cast<double>(o_.n_ratings - assigned);
    for (std::size_t u = 0; u < o_.n_users; ++u) {
      const auto extra = static_cast<std::size_t>(spare * weight[u] / weight_sum);
      const std::size_t add = std::min(extra, cap - n_of_[u]);
      n_of_[u] += add;
      assigned += add;
    }
    for (std::size_t u = 0; assigned < o_.n_ratings; u = (u + 1) % o_.n_users) {
      if (n_of_[u] < cap) {
        ++n_of_[u];
        ++assigned;
      }
    }
  }

  // Top-only items: the least popular ones, each rated the top value by 1–3 random users whose
  // share (above one rating) pays for it. No other rating of theirs is drawn.
  void plant_top_only() {
    top_only_.assign(o_.n_items, false);
    planted_.assign(o_.n_users, {});
    core::Rng rng(o_.seed, kTopOnlyStream);
    for (std::size_t k = 0; k < o_.top_only_items; ++k) {
      const std::size_t item = rank_[o_.n_items - 1 - k];
      top_only_[item] = true;
      const std::size_t raters = 1 + rng.below(3);
      for (std::size_t r = 0, tries = 0; r < raters && tries < 100 * raters; ++tries) {
        const auto u = static_cast<std::size_t>(rng.below(o_.n_users));
        if (n_of_[u] < 2 ||
            std::find(planted_[u].begin(), planted_[u].end(), item) != planted_[u].end()) {
          continue;
        }
        planted_[u].push_back(item);
        --n_of_[u];
        ++r;
      }
    }
  }

  // User u's ratings: distinct items sampled by popularity (rejection; a deterministic
  // fallback in popularity order when the user's items crowd the head of the distribution).
  void sample_user(std::size_t u, std::vector<std::uint32_t>& stamp,
                   std::vector<Rating>& triplets) const {
    constexpr float kTopValue = 5.0F;
    core::Rng rng(o_.seed, kSampleStreamBase + u);
    const auto mark = static_cast<std::uint32_t>(u + 1);
    for (const std::size_t item : planted_[u]) {
      triplets.push_back({static_cast<UserId>(u), static_cast<ItemId>(item), kTopValue});
    }
    std::size_t taken = 0, attempts = 0;
    auto take = [&](std::size_t item) {
      stamp[item] = mark;
      double x = kGlobalMean + user_bias_[u] + item_bias_[item] + o_.noise_sd * rng.normal();
      for (std::size_t f = 0; f < d_; ++f) x += 2.0 * p_[u * d_ + f] * q_[item * d_ + f];
      const double r = std::clamp(std::round(x), 1.0, 5.0);
      triplets.push_back(
          {static_cast<UserId>(u), static_cast<ItemId>(item), static_cast<float>(r)});
      ++taken;
    };
    const std::size_t n = n_of_[u];
    const double total = item_cdf_.back();
    while (taken < n && attempts < 50 * n) {
      ++attempts;
      const double x = rng.uniform() * total;
      const auto k = std::min<std::size_t>(
          static_cast<std::size_t>(std::lower_bound(item_cdf_.begin(), item_cdf_.end(), x) -
                                   item_cdf_.begin()),
          o_.n_items - 1);
      if (stamp[rank_[k]] != mark && !top_only_[rank_[k]]) take(rank_[k]);
    }
    for (std::size_t k = 0; taken < n && k < o_.n_items; ++k) {
      if (stamp[rank_[k]] != mark && !top_only_[rank_[k]]) take(rank_[k]);
    }
  }

  const SyntheticOptions& o_;
  const std::size_t d_, n_genres_;
  const double factor_scale_;
  std::vector<double> centroids_, genre_cdf_;
  std::vector<std::size_t> genre_rank_;
  std::vector<std::vector<AttributeId>> item_genres_;
  std::vector<double> q_, item_bias_, p_, user_bias_, item_cdf_;
  std::vector<std::size_t> rank_, n_of_;
  std::vector<bool> top_only_;
  std::vector<std::vector<std::size_t>> planted_;  // per user, top-only items rated
};

}  // namespace

Ratings generate_synthetic_ratings(const SyntheticOptions& o) {
  check_options(o);
  return Generator(o).run();
}

}  // namespace assay::recsys
