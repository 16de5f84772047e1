// BatchedModel: a model asked at most `batch` texts per predict() call, whatever its caller
// hands it: a longer list is asked in order, `batch` texts at a time. What the answer cache
// (cached_model.h) does for the texts it lacks, for a model asked without one, so that an
// endpoint with a batch limit (a proxy that refuses more than 64 texts a request) is never sent
// more than --batch texts.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "models/model.h"

namespace assay::models {

class BatchedModel : public Model {
 public:
  // `batch` ≥ 1.
  BatchedModel(std::unique_ptr<Model> inner, std::size_t batch);
  std::vector<std::vector<double>> predict(const std::vector<std::string>& texts) override;
  const std::vector<std::string>& labels() const override { return inner_->labels(); }
  std::string identity() const override { return inner_->identity(); }
  std::vector<std::string> files_outside_identity() const override {
    return inner_->files_outside_identity();
  }
  void cancel() override { inner_->cancel(); }
  Model& inner() { return *inner_; }

 private:
  std::unique_ptr<Model> inner_;
  std::size_t batch_;
};

}  // namespace assay::models
