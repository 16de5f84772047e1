// Loads tests/data/core/stats_goldens.json (made by tools/goldens/core_stats.py with scipy and
// scikit-learn).
#pragma once

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace assay::testing {
inline const nlohmann::json& stats_goldens() {
  static const nlohmann::json j = [] {
    std::ifstream in(std::string(ASSAY_TEST_DATA_DIR) + "/core/stats_goldens.json");
    return nlohmann::json::parse(in);
  }();
  return j.at("cases");
}
}  // namespace assay::testing
