#include "aeon/human_agreement.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "core/error.h"
#include "support/shared_data.h"
#include "support/temp_dir.h"

namespace assay::aeon {
namespace {

using ::testing::HasSubstr;

const std::string kMr =
    std::string(ASSAY_SHARED_DATA_DIR) + "/aeon-annotations/annotation_rtmr.csv";

double round2(double v) {
  return std::round(v * 100) / 100;
}

// Paper Tables 5 and 6, MR rows (../shared/spec/aeon.md).
TEST(HumanAgreement, ReproducesThePapersMrRows) {
  ASSAY_REQUIRE_FILE(kMr);
  AnnotationEvalOptions o;
  o.metrics = {"SemEval", "BLEU", "SimCSE"};
  o.threshold = dataset_threshold("rtmr");
  const auto consistency = evaluate_annotation_file(kMr, o);
  ASSERT_EQ(consistency.size(), 3u);
  EXPECT_EQ(consistency[0].n, 100u);
  EXPECT_EQ(round2(consistency[0].ap), 0.92);
  EXPECT_EQ(round2(consistency[0].auc), 0.82);
  EXPECT_EQ(round2(consistency[0].pcc), 0.93);
  EXPECT_EQ(round2(consistency[1].ap), 0.75);  // BLEU baseline
  EXPECT_EQ(round2(consistency[2].ap), 0.85);  // SimCSE baseline

  o.metrics = {"SynEval"};
  o.target = JudgmentTarget::kFluency;
  const auto fluency = evaluate_annotation_file(kMr, o);
  EXPECT_EQ(round2(fluency[0].ap), 0.87);
  EXPECT_EQ(round2(fluency[0].auc), 0.59);
  EXPECT_EQ(round2(fluency[0].pcc), 0.66);
}

TEST(HumanAgreement, BinnedPearsonFoldsTopBinAndDropsEmptyOnes) {
  // Scores 5.0 fall into bin 7 with 4.5..5.0; bins 2..6 are empty.
  const std::vector<double> metric{0.1, 0.2, 0.9, 1.0};
  const std::vector<double> human{1.0, 1.6, 4.6, 5.0};
  // Bins: 0 -> 0.1, 1 -> 0.2, 7 -> 0.95; centres 1.0, 1.5, 4.5.
  const double r = binned_pearson(metric, human);
  const double mx = (1.0 + 1.5 + 4.5) / 3, my = (0.1 + 0.2 + 0.95) / 3;
  const double sxy = (1.0 - mx) * (0.1 - my) + (1.5 - mx) * (0.2 - my) + (4.5 - mx) * (0.95 - my);
  const double sxx = (1.0 - mx) * (1.0 - mx) + (1.5 - mx) * (1.5 - mx) + (4.5 - mx) * (4.5 - mx);
  const double syy = (0.1 - my) * (0.1 - my) + (0.2 - my) * (0.2 - my) + (0.95 - my) * (0.95 - my);
  EXPECT_NEAR(r, sxy / std::sqrt(sxx * syy), 1e-12);
}

TEST(HumanAgreement, ThresholdIsInclusive) {
  JudgedScores s{{0.9, 0.1}, {2.0, 1.9}};
  const auto r = compute_agreement("m", JudgmentTarget::kConsistency, s, 2.0);
  EXPECT_EQ(r.n_positive, 1u);
  EXPECT_DOUBLE_EQ(r.auc, 1.0);
}

TEST(HumanAgreement, DatasetsAndTargets) {
  EXPECT_DOUBLE_EQ(dataset_threshold("snli"), 2.67);
  EXPECT_DOUBLE_EQ(dataset_threshold("mnli"), 3.25);
  EXPECT_THROW(dataset_threshold("imdb"), core::UsageError);
  EXPECT_EQ(parse_judgment_target("fluency"), JudgmentTarget::kFluency);
  EXPECT_THROW(parse_judgment_target("grammar"), core::UsageError);
}

TEST(HumanAgreement, ShippedExampleEvaluates) {
  AnnotationEvalOptions o;
  o.metrics = {"SemEval", "BLEU"};
  o.threshold = 3.0;
  const auto r = evaluate_annotation_file(
      std::string(ASSAY_TEST_DATA_DIR) + "/aeon/example_annotations.csv", o);
  EXPECT_EQ(r[0].n, 12u);
  EXPECT_GT(r[0].auc, r[1].auc);  // the example is built so SemEval separates better than BLEU
}

TEST(HumanAgreement, BadInputNamesFileLineAndColumn) {
  assay::testing::TempDir dir;
  AnnotationEvalOptions o;
  o.metrics = {"SemEval"};
  auto message = [&](const std::string& content) {
    try {
      evaluate_annotation_file(dir.write("ann.csv", content), o);
    } catch (const core::Error& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  EXPECT_THAT(message("BLEU,consistency\n0.5,3\n"),
              HasSubstr("ann.csv:1: expected a column named 'SemEval'"));
  EXPECT_THAT(
      message("SemEval,consistency\n0.5,3\nhigh,2\n"),
      HasSubstr("ann.csv:3:1: expected a number for the metric score 'SemEval', got 'high'"));
  EXPECT_THAT(message("SemEval,consistency\n0.5,7\n"),
              HasSubstr("ann.csv:2:5: expected a human score between 1 and 5"));
  EXPECT_THAT(message("SemEval,consistency\n"), HasSubstr("ann.csv:2: no annotated cases"));
  EXPECT_THAT(message(""), HasSubstr("ann.csv:1: empty file"));
}

}  // namespace
}  // namespace assay::aeon
