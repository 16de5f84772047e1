// Shared by the adapter tests (cmd:, http:): numbered texts and the error a failing predict throws.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "models/model.h"
#include "models/model_error.h"

namespace assay::models {

// "text 0", "text 1", ... "text n-1".
inline std::vector<std::string> numbered(std::size_t n) {
  std::vector<std::string> texts;
  for (std::size_t i = 0; i < n; ++i) texts.push_back("text " + std::to_string(i));
  return texts;
}

// Runs predict and returns the ModelError it throws (a test failure when it throws none).
inline ModelError predict_error(Model& model, const std::vector<std::string>& texts) {
  try {
    model.predict(texts);
  } catch (const ModelError& e) {
    return e;
  }
  ADD_FAILURE() << "predict did not throw";
  return ModelError("none");
}

}  // namespace assay::models
