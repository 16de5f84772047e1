// TestCaseScorer: SemEval and SynEval of AEON test cases from local Hugging Face checkpoints.
// The embedding model (SemEval) and the masked LM (SynEval) may be different directories;
// when only one is given it serves both (SemEval then uses its pooler or [CLS] vector, and
// SynEval needs its MLM head). Every score names the backend that produced it.
#pragma once

#include <iosfwd>
#include <memory>
#include <optional>
#include <string>

#include "aeon/semeval.h"
#include "aeon/syneval.h"
#include "aeon/test_case.h"

namespace assay::aeon {

struct TestCaseScorerOptions {
  std::string model_dir;      // masked LM, e.g. bert-base-uncased
  std::string embedding_dir;  // embedding model, e.g. sup-simcse-bert-base-uncased
  SemEvalOptions semeval;
  SynEvalOptions syneval;
};

struct TestCaseScore {
  double semeval = 1.0;
  double syneval = 1.0;
  double syneval_original = 1.0;
  std::size_t n_patches = 0;
};

class TestCaseScorer {
 public:
  // Loads the checkpoints. Throws UsageError when neither directory is given (the offline
  // n-gram / word-vector backends live on another branch), and the loaders' errors otherwise.
  explicit TestCaseScorer(const TestCaseScorerOptions& options);
  ~TestCaseScorer();

  TestCaseScore score(const TestCase& test_case);
  const std::string& semeval_backend() const { return semeval_backend_; }
  const std::string& syneval_backend() const { return syneval_backend_; }

 private:
  std::optional<lm::BertModel::Loaded> mlm_, embedder_;
  std::unique_ptr<SemEval> semeval_;
  std::unique_ptr<SynEval> syneval_;
  std::string semeval_backend_, syneval_backend_;
};

// Re-scores an AEON annotation CSV: every record's ori_text/adv_text (markers stripped) gets
// fresh SemEval and SynEval values, written into those columns (appended when absent), all
// other columns unchanged, so `assay aeon eval` can evaluate the result. Returns the count.
std::size_t score_annotation_csv(const std::string& in_path, std::ostream& out, TestCaseScorer& scorer);

}  // namespace assay::aeon
