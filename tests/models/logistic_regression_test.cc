#include "models/logistic_regression.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/error.h"
#include "core/rng.h"

namespace {

using assay::models::LogisticRegression;
using assay::models::SparseRow;

// The optimum of C Σ loss + ½‖W‖² has gradient zero: W = -C Σ_i g_i x_i, 0 = Σ_i g_i.
void expect_stationary(const LogisticRegression& lr, const std::vector<SparseRow>& rows,
                       const std::vector<int>& y, double c) {
  const std::size_t nv = lr.n_vectors();
  std::vector<double> grad(nv * lr.n_features(), 0.0), grad_b(nv, 0.0);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto p = lr.predict_proba(rows[i]);
    for (std::size_t k = 0; k < nv; ++k) {
      const std::size_t cls = nv == 1 ? 1 : k;
      const double g = p[cls] - (y[i] == static_cast<int>(cls) ? 1.0 : 0.0);
      for (const auto& [j, v] : rows[i]) grad[k * lr.n_features() + j] += c * g * v;
      grad_b[k] += c * g;
    }
  }
  for (std::size_t j = 0; j < grad.size(); ++j) EXPECT_NEAR(grad[j] + lr.coef()[j], 0.0, 1e-4);
  for (double g : grad_b) EXPECT_NEAR(g, 0.0, 1e-4);
}

void make_data(std::size_t n_classes, std::vector<SparseRow>& rows, std::vector<int>& y) {
  // Feature k (k < n_classes) leans towards class k; features 5..9 are noise.
  std::uint64_t state = 12345;
  auto next = [&] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(state >> 11) / 9007199254740992.0;
  };
  for (int i = 0; i < 300; ++i) {
    const int cls = i % static_cast<int>(n_classes);
    SparseRow row;
    for (std::uint32_t j = 0; j < 10; ++j) {
      const double lean = j == static_cast<std::uint32_t>(cls) ? 0.6 : 0.25;
      if (next() < lean) row.emplace_back(j, 1.0 + (next() < 0.3 ? 1.0 : 0.0));
    }
    rows.push_back(row);
    y.push_back(cls);
  }
}

TEST(LogisticRegression, BinaryFitIsTheRegularisedOptimum) {
  std::vector<SparseRow> rows;
  std::vector<int> y;
  make_data(2, rows, y);
  assay::models::LbfgsResult solver;
  const auto lr = LogisticRegression::fit(rows, y, 2, 10, {}, &solver);
  EXPECT_TRUE(solver.converged);
  EXPECT_EQ(lr.n_vectors(), 1u);
  expect_stationary(lr, rows, y, 1.0);
  const auto p = lr.predict_proba({{0, 2.0}});
  EXPECT_NEAR(p[0] + p[1], 1.0, 1e-15);
  EXPECT_GT(p[0], 0.5);  // feature 0 leans to class 0
}

TEST(LogisticRegression, MultinomialFitIsTheRegularisedOptimum) {
  std::vector<SparseRow> rows;
  std::vector<int> y;
  make_data(3, rows, y);
  assay::models::LogisticRegressionOptions options;
  options.c = 0.5;
  const auto lr = LogisticRegression::fit(rows, y, 3, 10, options);
  EXPECT_EQ(lr.n_vectors(), 3u);
  expect_stationary(lr, rows, y, 0.5);
  const auto p = lr.predict_proba({{2, 2.0}});
  EXPECT_NEAR(p[0] + p[1] + p[2], 1.0, 1e-12);
  EXPECT_GT(p[2], p[0]);
  EXPECT_GT(p[2], p[1]);
}

TEST(LogisticRegression, RejectsInconsistentParameters) {
  EXPECT_THROW(LogisticRegression(2, 3, {1, 2}, {0}), assay::core::Error);
  EXPECT_THROW(LogisticRegression(3, 1, {1, 2, 3}, {0}), assay::core::Error);
  EXPECT_THROW(LogisticRegression(1, 1, {1}, {0}), assay::core::Error);
}

}  // namespace
