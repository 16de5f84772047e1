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

}  // namespace

Ratings generate_synthetic_ratings(const SyntheticOptions& o) {
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
  const std::size_t d = o.n_factors;
  const auto& genre_names = movielens_100k_genres();
  const std::size_t n_genres = genre_names.size();
  const double factor_scale = 1.0 / std::sqrt(static_cast<double>(d));

  // Genre centroids and a skewed genre frequency (Drama and Comedy dominate MovieLens).
  core::Rng genre_rng(o.seed, kGenreStream);
  std::vector<double> centroids(n_genres * d);
  for (double& c : centroids) c = genre_rng.normal();
  std::vector<double> genre_cdf(n_genres);
  double acc = 0;
  for (std::size_t g = 0; g < n_genres; ++g) {
    acc += 1.0 / static_cast<double>(g + 2);
    genre_cdf[g] = acc;
  }
  std::vector<std::size_t> genre_rank(n_genres);
  std::iota(genre_rank.begin(), genre_rank.end(), std::size_t{0});
  genre_rng.shuffle(genre_rank.begin(), genre_rank.end());
  auto draw_genre = [&](core::Rng& rng) {
    const double x = rng.uniform() * acc;
    const auto k = static_cast<std::size_t>(
        std::lower_bound(genre_cdf.begin(), genre_cdf.end(), x) - genre_cdf.begin());
    return genre_rank[std::min(k, n_genres - 1)];
  };

  // Items: genres, factors pulled towards their genres' centroids, biases.
  core::Rng item_rng(o.seed, kItemStream);
  std::vector<std::vector<AttributeId>> item_genres(o.n_items);
  std::vector<double> q(o.n_items * d), item_bias(o.n_items);
  for (std::size_t i = 0; i < o.n_items; ++i) {
    auto& gs = item_genres[i];
    gs.push_back(static_cast<AttributeId>(draw_genre(item_rng)));
    if (item_rng.bernoulli(0.5)) gs.push_back(static_cast<AttributeId>(draw_genre(item_rng)));
    if (item_rng.bernoulli(0.15)) gs.push_back(static_cast<AttributeId>(draw_genre(item_rng)));
    std::sort(gs.begin(), gs.end());
    gs.erase(std::unique(gs.begin(), gs.end()), gs.end());
    for (std::size_t f = 0; f < d; ++f) {
      double centre = 0;
      for (AttributeId g : gs) centre += centroids[g * d + f];
      centre /= static_cast<double>(gs.size());
      q[i * d + f] = factor_scale * (0.8 * centre + 0.6 * item_rng.normal());
    }
    item_bias[i] = kItemBiasSd * item_rng.normal();
  }

  // Users: factors and biases.
  core::Rng user_rng(o.seed, kUserStream);
  std::vector<double> p(o.n_users * d), user_bias(o.n_users);
  for (std::size_t u = 0; u < o.n_users; ++u) {
    for (std::size_t f = 0; f < d; ++f) p[u * d + f] = factor_scale * 1.2 * user_rng.normal();
    user_bias[u] = kUserBiasSd * user_rng.normal();
  }

  // Popularity: a power law over a random rank; popular items also rate a little higher.
  core::Rng pop_rng(o.seed, kPopularityStream);
  std::vector<std::size_t> rank(o.n_items);
  std::iota(rank.begin(), rank.end(), std::size_t{0});
  pop_rng.shuffle(rank.begin(), rank.end());  // rank[k] = item with popularity rank k
  std::vector<double> item_cdf(o.n_items);
  acc = 0;
  for (std::size_t k = 0; k < o.n_items; ++k) {
    acc += std::pow(static_cast<double>(k) + kPopularityOffset, -o.popularity_exponent);
    item_cdf[k] = acc;
    item_bias[rank[k]] += 0.3 * (0.5 - static_cast<double>(k) / static_cast<double>(o.n_items));
  }

  // Activity: log-normal shares of the total, at least min(20, R / users) each, at most
  // half the items; the remainder goes round robin to keep the total exact.
  core::Rng activity_rng(o.seed, kActivityStream);
  const std::size_t cap = std::max<std::size_t>(1, o.n_items / 2);
  const std::size_t floor_n = std::min({kMinUserRatings, o.n_ratings / o.n_users, cap});
  std::vector<double> weight(o.n_users);
  double weight_sum = 0;
  for (double& w : weight) weight_sum += (w = std::exp(kActivitySigma * activity_rng.normal()));
  std::vector<std::size_t> n_of(o.n_users, floor_n);
  std::size_t assigned = floor_n * o.n_users;
  const double spare = static_cast<double>(o.n_ratings - assigned);
  for (std::size_t u = 0; u < o.n_users; ++u) {
    const auto extra = static_cast<std::size_t>(spare * weight[u] / weight_sum);
    const std::size_t add = std::min(extra, cap - n_of[u]);
    n_of[u] += add;
    assigned += add;
  }
  for (std::size_t u = 0; assigned < o.n_ratings; u = (u + 1) % o.n_users) {
    if (n_of[u] < cap) {
      ++n_of[u];
      ++assigned;
    }
  }

  // Top-only items: the least popular ones, each rated the top value by 1–3 random users whose
  // share (above one rating) pays for it. No other rating of theirs is drawn.
  if (o.top_only_items > o.n_items / 2) {
    throw core::UsageError("synthetic data: top_only=" + std::to_string(o.top_only_items) +
                           " is more than half of the " + std::to_string(o.n_items) + " items");
  }
  std::vector<bool> top_only(o.n_items, false);
  std::vector<std::vector<std::size_t>> planted(o.n_users);  // per user, top-only items rated
  {
    core::Rng rng(o.seed, kTopOnlyStream);
    for (std::size_t k = 0; k < o.top_only_items; ++k) {
      const std::size_t item = rank[o.n_items - 1 - k];
      top_only[item] = true;
      const std::size_t raters = 1 + rng.below(3);
      for (std::size_t r = 0, tries = 0; r < raters && tries < 100 * raters; ++tries) {
        const auto u = static_cast<std::size_t>(rng.below(o.n_users));
        if (n_of[u] < 2 ||
            std::find(planted[u].begin(), planted[u].end(), item) != planted[u].end()) {
          continue;
        }
        planted[u].push_back(item);
        --n_of[u];
        ++r;
      }
    }
  }
  const float top_value = 5.0F;

  // Ratings: each user samples distinct items by popularity (rejection; a deterministic
  // fallback in popularity order when the user's items crowd the head of the distribution).
  std::vector<Rating> triplets;
  triplets.reserve(o.n_ratings);
  std::vector<std::uint32_t> stamp(o.n_items, 0);
  for (std::size_t u = 0; u < o.n_users; ++u) {
    core::Rng rng(o.seed, kSampleStreamBase + u);
    const auto mark = static_cast<std::uint32_t>(u + 1);
    for (const std::size_t item : planted[u]) {
      triplets.push_back({static_cast<UserId>(u), static_cast<ItemId>(item), top_value});
    }
    std::size_t taken = 0, attempts = 0;
    auto take = [&](std::size_t item) {
      stamp[item] = mark;
      double x = kGlobalMean + user_bias[u] + item_bias[item] + o.noise_sd * rng.normal();
      for (std::size_t f = 0; f < d; ++f) x += 2.0 * p[u * d + f] * q[item * d + f];
      const double r = std::clamp(std::round(x), 1.0, 5.0);
      triplets.push_back(
          {static_cast<UserId>(u), static_cast<ItemId>(item), static_cast<float>(r)});
      ++taken;
    };
    while (taken < n_of[u] && attempts < 50 * n_of[u]) {
      ++attempts;
      const double x = rng.uniform() * acc;
      const auto k = std::min<std::size_t>(
          static_cast<std::size_t>(std::lower_bound(item_cdf.begin(), item_cdf.end(), x) -
                                   item_cdf.begin()),
          o.n_items - 1);
      if (stamp[rank[k]] != mark && !top_only[rank[k]]) take(rank[k]);
    }
    for (std::size_t k = 0; taken < n_of[u] && k < o.n_items; ++k) {
      if (stamp[rank[k]] != mark && !top_only[rank[k]]) take(rank[k]);
    }
  }

  Ratings out = Ratings::from_triplets(std::move(triplets), o.n_users, o.n_items,
                                       RatingScale{1, 5, {1, 2, 3, 4, 5}});
  out.set_item_attributes(std::move(item_genres), genre_names);
  return out;
}

}  // namespace assay::recsys
