#include "plain_funk_svd.h"

#include <algorithm>

#include "recsys/sgd_order.h"

namespace assay::bench {

void PlainFunkSvd::fit(const recsys::Ratings& train, std::uint64_t seed) {
  const auto ratings = recsys::sgd_order(train, seed);
  double sum = 0;
  for (const auto& r : ratings) sum += r.value;
  mean = sum / static_cast<double>(ratings.size());
  item_bias.assign(train.n_items(), 0);
  user_bias.assign(train.n_users(), 0);
  std::vector<double> n_item(train.n_items(), 0), n_user(train.n_users(), 0);
  for (const auto& r : ratings) {
    item_bias[r.item] += r.value - mean;
    n_item[r.item] += 1;
  }
  for (std::size_t i = 0; i < item_bias.size(); ++i) item_bias[i] /= n_item[i] + damping;
  for (const auto& r : ratings) {
    user_bias[r.user] += r.value - mean - item_bias[r.item];
    n_user[r.user] += 1;
  }
  for (std::size_t u = 0; u < user_bias.size(); ++u) user_bias[u] /= n_user[u] + damping;

  std::vector<double> cache(ratings.size());
  for (std::size_t k = 0; k < ratings.size(); ++k) {
    cache[k] = std::clamp(mean + user_bias[ratings[k].user] + item_bias[ratings[k].item], 1.0, 5.0);
  }
  uf.assign(n_features, std::vector<double>(train.n_users(), init));
  itf.assign(n_features, std::vector<double>(train.n_items(), init));
  for (std::size_t f = 0; f < n_features; ++f) {
    const double trail = init * init * static_cast<double>(n_features - f - 1);
    for (std::size_t e = 0; e < n_epochs; ++e) {
      for (std::size_t k = 0; k < ratings.size(); ++k) {
        const auto& r = ratings[k];
        const double u = uf[f][r.user], i = itf[f][r.item];
        const double err = r.value - (std::clamp(cache[k] + u * i, 1.0, 5.0) + trail);
        uf[f][r.user] += lrate * (err * i - reg * u);
        itf[f][r.item] += lrate * (err * u - reg * i);
      }
    }
    for (std::size_t k = 0; k < ratings.size(); ++k) {
      cache[k] = std::clamp(cache[k] + uf[f][ratings[k].user] * itf[f][ratings[k].item], 1.0, 5.0);
    }
  }
}

double PlainFunkSvd::predict(recsys::UserId u, recsys::ItemId i) const {
  double s = std::clamp(mean + user_bias[u] + item_bias[i], 1.0, 5.0);
  for (std::size_t f = 0; f < n_features; ++f) s = std::clamp(s + uf[f][u] * itf[f][i], 1.0, 5.0);
  return s;
}

std::vector<std::vector<recsys::ItemId>> PlainFunkSvd::top_k(const recsys::Ratings& train,
                                                             std::size_t k) const {
  std::vector<std::vector<recsys::ItemId>> out(train.n_users());
  for (recsys::UserId u = 0; u < train.n_users(); ++u) {
    std::vector<std::pair<double, recsys::ItemId>> scored;
    for (recsys::ItemId i = 0; i < train.n_items(); ++i) {
      if (!train.rating(u, i)) scored.emplace_back(-predict(u, i), i);
    }
    const std::size_t n = std::min(k, scored.size());
    std::partial_sort(scored.begin(), scored.begin() + static_cast<std::ptrdiff_t>(n),
                      scored.end());
    for (std::size_t j = 0; j < n; ++j) out[u].push_back(scored[j].second);
  }
  return out;
}

}  // namespace assay::bench
