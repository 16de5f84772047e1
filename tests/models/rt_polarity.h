// rt-polarity v1.0 for the model tests: the documents (.pos lines then .neg lines, UTF-8 as
// shipped in ../shared/data) and the seeded 80/20 split stored with the scikit-learn golden
// (tools/goldens/models_lr_sklearn.py), both index lists in the split's order. The golden's
// probabilities hold within its "tolerances" (the spread of scikit-learn's unconverged lbfgs
// across OpenBLAS kernels; the script explains them); what the server actually answered is
// checked bit for bit against its --record file.
#pragma once

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace assay::testing {

inline const std::string kRtPolarityDir = std::string(ASSAY_SHARED_DATA_DIR) + "/rt-polarity-v1.0";

struct RtPolarity {
  std::vector<std::string> texts, labels;
  std::vector<std::size_t> train, test;
  nlohmann::json golden;
};

inline bool rt_polarity_available() {
  return std::filesystem::exists(kRtPolarityDir + "/rt-polarity.pos");
}

inline RtPolarity load_rt_polarity() {
  RtPolarity rt;
  for (const char* name : {"pos", "neg"}) {
    std::ifstream in(kRtPolarityDir + "/rt-polarity." + name, std::ios::binary);
    std::string line;
    while (std::getline(in, line)) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      rt.texts.push_back(line);
      rt.labels.push_back(name);
    }
  }
  std::ifstream golden(std::string(ASSAY_TEST_DATA_DIR) + "/models/lr_rt_polarity_golden.json");
  rt.golden = nlohmann::json::parse(golden);
  rt.train = rt.golden["train_indices"].get<std::vector<std::size_t>>();
  rt.test = rt.golden["test_indices"].get<std::vector<std::size_t>>();
  return rt;
}

// The golden's absolute tolerance for the numbers under `key` ("first_test_proba", "accuracy").
inline double golden_tolerance(const RtPolarity& rt, const std::string& key) {
  return rt.golden.at("tolerances").at(key).get<double>();
}

// The answers sklearn_server.py --record FILE wrote: text → scores, as the server computed them.
inline std::map<std::string, std::vector<double>> recorded_scores(const std::string& path) {
  std::map<std::string, std::vector<double>> out;
  std::ifstream in(path, std::ios::binary);
  std::string line;
  while (std::getline(in, line)) {
    const auto row = nlohmann::json::parse(line);
    out[row.at("text").get<std::string>()] = row.at("scores").get<std::vector<double>>();
  }
  return out;
}

}  // namespace assay::testing
