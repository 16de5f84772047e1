// Paths shared by the knowledge tests.
#pragma once

#include <string>

namespace assay::knowledge::testing {

inline const std::string kData = std::string(ASSAY_TEST_DATA_DIR) + "/knowledge";
inline const std::string kMiniWordNet = kData + "/wordnet-mini";
inline const std::string kShared = ASSAY_SHARED_DATA_DIR;
inline const std::string kPersonLabels = kData + "/person_labels.tsv";

}  // namespace assay::knowledge::testing
