// LrModel: the built-in baseline of the MT-NLP paper — bag of words (CountVectorizer defaults)
// and L2 logistic regression with C = 1 (scikit-learn's LogisticRegression defaults).
//
// Model file (`lr:FILE`): one JSON object,
//   {"format": "assay-lr", "version": 1, "labels": [...], "vocabulary": [...],
//    "coef": [[...], ...], "intercept": [...]}
// with labels sorted (as scikit-learn's classes_), the vocabulary sorted, one coefficient row
// for two labels (the score of labels[1] is σ(w·x + b)) and one per label otherwise. Numbers are
// written in shortest round-trip form, so a saved model predicts the same bits after loading.
// identity() is "lr:sha256:<hash of the file's bytes>".
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "models/count_vectorizer.h"
#include "models/logistic_regression.h"
#include "models/model.h"

namespace assay::models {

struct LrTrainSummary {
  std::size_t n_documents = 0;
  std::size_t n_features = 0;
  int n_iterations = 0;
  bool converged = false;
  double objective = 0;
};

class LrModel : public Model {
 public:
  // Fits on texts with their labels (any strings; at least two distinct). Throws core::Error
  // when there are fewer than two labels or the sizes differ.
  static std::unique_ptr<LrModel> train(const std::vector<std::string>& texts,
                                        const std::vector<std::string>& labels,
                                        const LogisticRegressionOptions& options = {},
                                        LrTrainSummary* summary = nullptr);
  // Reads a model file. Throws core::ParseError naming the file on malformed content.
  static std::unique_ptr<LrModel> load(const std::string& path);

  // The model file's bytes (what save() writes).
  std::string serialize() const;
  // Writes the model file atomically.
  void save(const std::string& path) const;

  std::vector<std::vector<double>> predict(const std::vector<std::string>& texts) override;
  const std::vector<std::string>& labels() const override { return labels_; }
  std::string identity() const override { return identity_; }

  const CountVectorizer& vectorizer() const { return vectorizer_; }
  const LogisticRegression& classifier() const { return classifier_; }

 private:
  LrModel(std::vector<std::string> labels, CountVectorizer vectorizer,
          LogisticRegression classifier);

  std::vector<std::string> labels_;
  CountVectorizer vectorizer_;
  LogisticRegression classifier_;
  std::string identity_;
};

}  // namespace assay::models
