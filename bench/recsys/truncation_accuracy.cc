// truncation_accuracy DATA_SPEC K...: what keeping only each item's K most similar items
// (item-item:keep=K) costs against the dense model (keep=all), as a Markdown table row per K:
//  - top-10 agreement on the whole data: the mean share of the dense model's top-10 (unrated
//    items) that the truncated model also lists, and the share of users whose lists are equal;
//  - precision@10 on a holdout: every rating whose hash mix64(seed 0, user, item) falls in
//    fold 0 of 5 is held out; a hit is a held-out rating >= 4 in the user's top-10 of items
//    unrated in training; precision = hits / 10 averaged over users with a held-out rating >= 4;
//  - RMSE of 5-fold cross-validation (recsys/accuracy.h), unscorable pairs on the bias baseline;
//  - the fit's time on one thread and the bytes of the kept lists.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <unordered_set>
#include <vector>

#include "core/rng.h"
#include "recsys/accuracy.h"
#include "recsys/data_spec.h"
#include "recsys/item_item.h"
#include "recsys/recommender.h"

namespace {

using namespace assay::recsys;

struct Holdout {
  Ratings train;
  std::vector<std::unordered_set<ItemId>> liked;  // held-out ratings >= 4, per user
};

Holdout holdout(const Ratings& data) {
  Holdout h;
  h.liked.resize(data.n_users());
  std::vector<Modification> removed;
  for (const Rating& r : data.triplets()) {
    const std::uint64_t pair = (static_cast<std::uint64_t>(r.user) << 32) | r.item;
    if (assay::core::mix64(assay::core::mix64(0x4163637572616379ULL) ^ pair) % 5 != 0) continue;
    removed.push_back({Modification::Kind::kRemove, r.user, r.item, 0});
    if (r.value >= 4) h.liked[r.user].insert(r.item);
  }
  h.train = data.apply(removed);
  return h;
}

double precision_at_10(const TopKLists& lists, const Holdout& h) {
  double sum = 0;
  std::size_t users = 0;
  for (UserId u = 0; u < lists.size(); ++u) {
    if (h.liked[u].empty()) continue;
    std::size_t hits = 0;
    for (const ItemId i : lists[u]) hits += h.liked[u].count(i);
    sum += static_cast<double>(hits) / 10.0;
    ++users;
  }
  return users == 0 ? 0 : sum / static_cast<double>(users);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fputs("usage: truncation_accuracy DATA_SPEC K... (K: integer >= 1 or all)\n", stderr);
    return 2;
  }
  try {
    const Ratings data = load_ratings(argv[1]);
    const Holdout h = holdout(data);
    std::printf("data: %zu users, %zu items, %zu ratings\n\n", data.n_users(), data.n_items(),
                data.n_ratings());
    std::printf(
        "| keep | top-10 overlap with dense | equal lists | precision@10 | RMSE (5-fold) "
        "| fit s (1 thread) | lists MB |\n|---|---|---|---|---|---|---|\n");
    auto dense = make_recommender("item-item:keep=all");
    dense->fit(data, {0, 1});
    const TopKLists reference = recommend_all(*dense, data, 10, 2);
    for (int a = 2; a < argc; ++a) {
      const std::string spec = std::string("item-item:keep=") + argv[a];
      auto model = make_recommender(spec);
      const auto t0 = std::chrono::steady_clock::now();
      model->fit(data, {0, 1});
      const double fit_s =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      const auto* ii = dynamic_cast<const ItemItem*>(model.get());
      const double mb = ii->sparse() ? static_cast<double>(ii->sparse()->list_bytes()) / 1e6
                                     : 4.0 * static_cast<double>(data.n_items()) *
                                           static_cast<double>(data.n_items()) / 1e6;
      const TopKLists lists = recommend_all(*model, data, 10, 2);
      double overlap = 0;
      std::size_t equal = 0, counted = 0;
      for (UserId u = 0; u < data.n_users(); ++u) {
        equal += lists[u] == reference[u] ? 1 : 0;
        if (reference[u].empty()) continue;
        std::size_t common = 0;
        for (const ItemId i : reference[u]) {
          common += std::count(lists[u].begin(), lists[u].end(), i) > 0 ? 1 : 0;
        }
        overlap += static_cast<double>(common) / static_cast<double>(reference[u].size());
        ++counted;
      }
      auto held = make_recommender(spec);
      held->fit(h.train, {0, 1});
      const double precision = precision_at_10(recommend_all(*held, h.train, 10, 2), h);
      const auto cv = cross_validated_accuracy(data, spec, 5, 0, 2);
      std::printf("| %s | %.3f | %.3f | %.4f | %.4f | %.2f | %.1f |\n", argv[a],
                  overlap / static_cast<double>(counted),
                  static_cast<double>(equal) / static_cast<double>(data.n_users()), precision,
                  cv.rmse, fit_s, mb);
      std::fflush(stdout);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "truncation_accuracy: %s\n", e.what());
    return 2;
  }
  return 0;
}
