// A saved modification set: what a developer needs to replay an instability found by a
// campaign or a fuzz run (`assay rec replay`). JSON, with users and items written as the
// data's external labels so the file stays meaningful outside this program:
//   {"format": "assay-rec-mods/1", "data": SPEC, "algorithm": NAME, "heuristic": H,
//    "size": N, "trial": T, "campaign_seed": S, "run_seed": R, "model_seed": M, "k": 10,
//    "oracles": {"top-out": ..., ...},
//    "modifications": [{"kind": "add", "user": "196", "item": "242", "value": 1}, ...]}
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "recsys/ratings.h"
#include "stability/campaign_run.h"

namespace assay::stability {

struct SavedModificationSet {
  std::string data;
  RunKey key;
  std::uint64_t campaign_seed = 0;
  std::uint64_t run_seed = 0;
  std::uint64_t model_seed = 0;
  std::size_t k = 10;
  std::array<double, kNumOracles> oracle{};
  std::vector<recsys::Modification> modifications;
};

std::string to_json_text(const SavedModificationSet& set, const recsys::Ratings& data);
// Atomic write.
void write_modification_set(const std::string& path, const SavedModificationSet& set,
                            const recsys::Ratings& data);
// Throws core::IoError when unreadable, core::ParseError naming the file (and the JSON byte or
// the modification index) for malformed content, an unknown kind, user or item label.
SavedModificationSet read_modification_set(const std::string& path, const recsys::Ratings& data);

}  // namespace assay::stability
