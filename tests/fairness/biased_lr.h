// The command tests' model under test: a built-in LR trained (through `assay model train-lr`)
// on a small set where "actress" and "female" occur only in negative texts, so swapping
// actor -> actress or inserting "female" flips its label.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "support/temp_dir.h"

namespace assay::fairness::testing {

// Writes the training set (a TSV with the columns text and label) into `dir`; returns its path.
inline std::string write_biased_train_tsv(const assay::testing::TempDir& dir) {
  std::string train = "text\tlabel\n";
  for (int i = 0; i < 6; ++i) {
    train += "the actor was wonderful\tpos\n";
    train += "a great actor and a great film\tpos\n";
    train += "the actress was awful\tneg\n";
    train += "a female lead and a dull film\tneg\n";
  }
  return dir.write("train.tsv", train);
}

// Trains the model into `dir` and returns its path (m.lr); fails the test when training fails.
inline std::string train_biased_lr(const assay::testing::TempDir& dir) {
  const auto tsv = write_biased_train_tsv(dir);
  const auto r = assay::testing::run_assay(
      dir, "model train-lr --quiet --train " + tsv + " --out " + dir.file("m.lr"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return dir.file("m.lr");
}

}  // namespace assay::fairness::testing
