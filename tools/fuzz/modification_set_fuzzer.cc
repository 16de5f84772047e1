// libFuzzer target: stability::read_modification_set (the JSON files `assay rec replay`
// reads), against a small fixed dataset (users 1..3 and "u x", items 10..12 and "i-y"). A set
// that is read must name users and items of the data, with k >= 1. It is written back with
// to_json_text and read again: the round trip must give the same set.
// Run: tools/fuzz/run.sh modification_set
#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/error.h"
#include "fuzz_input.h"
#include "recsys/ratings_builder.h"
#include "stability/modification_set_file.h"

namespace {

const assay::recsys::Ratings& dataset() {
  static const assay::recsys::Ratings data = [] {
    assay::recsys::RatingsBuilder b(assay::recsys::RatingScale{});
    const assay::core::SourceLocation where("fuzz-data");
    const char* users[] = {"1", "2", "3", "u x"};
    const char* items[] = {"10", "11", "12", "i-y"};
    for (int u = 0; u < 4; ++u) {
      for (int i = 0; i < 4; ++i) {
        if ((u + i) % 3 != 0) b.add_value(users[u], items[i], 1 + (u * i) % 5, where);
      }
    }
    return b.build("fuzz-data");
  }();
  return data;
}

bool same(const assay::stability::SavedModificationSet& a,
          const assay::stability::SavedModificationSet& b) {
  if (a.data != b.data || a.k != b.k || a.campaign_seed != b.campaign_seed ||
      a.run_seed != b.run_seed || a.model_seed != b.model_seed ||
      a.modifications.size() != b.modifications.size()) {
    return false;
  }
  for (std::size_t i = 0; i < a.modifications.size(); ++i) {
    const auto &x = a.modifications[i], &y = b.modifications[i];
    if (x.kind != y.kind || x.user != y.user || x.item != y.item) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto& ratings = dataset();
  const std::string& path = assay::fuzz::write_input(data, size, "mods.json");
  assay::stability::SavedModificationSet set;
  try {
    set = assay::stability::read_modification_set(path, ratings);
  } catch (const assay::core::Error& e) {
    assay::fuzz::rejected(e);
    return 0;
  }
  if (set.k == 0) std::abort();
  for (const auto& m : set.modifications) {
    if (m.user >= ratings.n_users() || m.item >= ratings.n_items()) std::abort();
  }
  // What was read must survive a write and a second read unchanged.
  const std::string text = assay::stability::to_json_text(set, ratings);
  const std::string& again = assay::fuzz::write_input(
      reinterpret_cast<const std::uint8_t*>(text.data()), text.size(), "mods.json");
  try {
    if (!same(set, assay::stability::read_modification_set(again, ratings))) std::abort();
  } catch (const assay::core::Error& e) {
    std::fprintf(stderr, "round trip failed: %s\n", e.what());
    std::abort();
  }
  return 0;
}
