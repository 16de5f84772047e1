#include "core/ranking_metrics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "core/stats_goldens.h"

namespace assay::core {
namespace {

struct Labels {
  explicit Labels(const std::vector<int>& v) : data(new bool[v.size()]), n(v.size()) {
    for (std::size_t i = 0; i < n; ++i) data[i] = v[i] != 0;
  }
  std::span<const bool> span() const { return {data.get(), n}; }
  std::unique_ptr<bool[]> data;
  std::size_t n;
};

TEST(RankingMetrics, MatchSklearnIncludingTies) {
  for (const auto& c : testing::stats_goldens().at("ranking")) {
    const auto scores = c.at("scores").get<std::vector<double>>();
    const Labels labels(c.at("labels").get<std::vector<int>>());
    EXPECT_NEAR(average_precision(scores, labels.span()), c.at("ap").get<double>(), 1e-12);
    EXPECT_NEAR(roc_auc(scores, labels.span()), c.at("auc").get<double>(), 1e-12);
  }
}

TEST(RankingMetrics, HandComputed) {
  // sklearn docs example: AP 0.8333..., AUC 0.75.
  const std::vector<double> scores{0.1, 0.4, 0.35, 0.8};
  const Labels labels({0, 0, 1, 1});
  EXPECT_NEAR(average_precision(scores, labels.span()), 0.8333333333333333, 1e-12);
  EXPECT_NEAR(roc_auc(scores, labels.span()), 0.75, 1e-12);
  // All tied: AUC one half, AP the positive rate.
  const std::vector<double> tied{1, 1, 1, 1};
  EXPECT_NEAR(roc_auc(tied, labels.span()), 0.5, 1e-12);
  EXPECT_NEAR(average_precision(tied, labels.span()), 0.5, 1e-12);
}

TEST(RankingMetrics, OneClassIsNaN) {
  const std::vector<double> scores{0.1, 0.2};
  const Labels neg({0, 0}), pos({1, 1});
  EXPECT_TRUE(std::isnan(average_precision(scores, neg.span())));
  EXPECT_TRUE(std::isnan(roc_auc(scores, pos.span())));
}

}  // namespace
}  // namespace assay::core
