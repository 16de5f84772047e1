// recsys_accuracy ML100K_DIR [SPEC...]: RMSE/MAE of funk-svd, item-item, user-user and the damped
// bias baseline (or of the given recommender specs, e.g. funk-svd-lenskit, funk-svd:damping=25) on
// the official folds u1..u5 (rebuilt from u.data by mku.sh's rule; mean and range) and on the ua
// split (ua.base / ua.test), as a Markdown table (the figures of docs/recsys.md). Unscorable pairs
// take the bias baseline.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "core/csv_reader.h"
#include "recsys/bias_model.h"
#include "recsys/movielens_100k_loader.h"
#include "recsys/recommender.h"

namespace {

using namespace assay::recsys;

struct Split {
  Ratings train;
  std::vector<Rating> test;
};

struct Accuracy {
  double rmse = 0, mae = 0, coverage = 0;
};

Accuracy evaluate(const std::string& name, const Split& s) {
  const BiasModel fallback = BiasModel::fit(s.train);
  std::unique_ptr<Recommender> model;
  if (name != "bias") {
    model = make_recommender(name);
    model->fit(s.train, {0, 2});
  }
  double se = 0, ae = 0, scored = 0;
  for (const Rating& r : s.test) {
    float p = std::nanf("");
    if (model) model->score(r.user, std::span<const ItemId>(&r.item, 1), std::span<float>(&p, 1));
    if (std::isnan(p)) {
      p = static_cast<float>(std::clamp(fallback.predict(r.user, r.item), 1.0, 5.0));
    } else {
      scored += 1;
    }
    const double e = static_cast<double>(p) - r.value;
    se += e * e;
    ae += std::abs(e);
  }
  const auto n = static_cast<double>(s.test.size());
  return {std::sqrt(se / n), ae / n, model ? scored / n : 1.0};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: recsys_accuracy ML100K_DIR [SPEC...]\n");
    return 2;
  }
  const std::string dir = argv[1];
  std::vector<Split> folds;
  for (int f = 1; f <= 5; ++f) {
    MovieLensFold fold = movielens_100k_fold(dir + "/u.data", f);
    folds.push_back({std::move(fold.train), std::move(fold.test)});
  }
  Split ua;
  ua.train = read_movielens_100k_ratings(dir + "/ua.base");
  assay::core::CsvOptions o;
  o.delimiter = '\t';
  o.has_header = false;
  assay::core::CsvReader reader(dir + "/ua.test", o);
  while (reader.next()) {
    const auto u = ua.train.find_user(reader.field(0));
    const auto i = ua.train.find_item(reader.field(1));
    if (u && i) ua.test.push_back({*u, *i, static_cast<float>(reader.number(2, "rating"))});
  }
  std::printf(
      "| algorithm | RMSE, u1-u5 mean (range) | MAE, u1-u5 mean (range) | "
      "RMSE ua | MAE ua | coverage ua |\n|---|---|---|---|---|---|\n");
  std::vector<std::string> names = {"funk-svd", "item-item", "user-user", "bias"};
  if (argc > 2) names.assign(argv + 2, argv + argc);
  for (const std::string& name : names) {
    double sr = 0, sm = 0, lo_r = 9, hi_r = 0, lo_m = 9, hi_m = 0;
    for (const Split& s : folds) {
      const Accuracy a = evaluate(name, s);
      sr += a.rmse;
      sm += a.mae;
      lo_r = std::min(lo_r, a.rmse);
      hi_r = std::max(hi_r, a.rmse);
      lo_m = std::min(lo_m, a.mae);
      hi_m = std::max(hi_m, a.mae);
    }
    const Accuracy b = evaluate(name, ua);
    std::printf("| %s | %.4f (%.4f-%.4f) | %.4f (%.4f-%.4f) | %.4f | %.4f | %.4f |\n",
                name == "bias" ? "bias baseline" : name.c_str(), sr / 5, lo_r, hi_r, sm / 5, lo_m,
                hi_m, b.rmse, b.mae, b.coverage);
  }
  return 0;
}
