#include "recsys/sgd_batches.h"

#include <limits>

#include "core/check.h"

namespace assay::recsys {

SgdBatches schedule_sgd_batches(std::span<const Rating> ordered, std::size_t n_users,
                                std::size_t n_items, std::size_t lanes, std::size_t gap,
                                std::size_t window) {
  ASSAY_CHECK(lanes > 0 && window >= lanes && gap > 0);
  ASSAY_CHECK(ordered.size() < SgdBatches::kPadding);
  SgdBatches out;
  out.lanes = lanes;
  out.positions.reserve(ordered.size() + ordered.size() / 8 + lanes);
  // Batch index of each resource's last use, and the scan (stamp) in which an earlier pending
  // update or a lane of the batch being built claimed it.
  constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::min() / 2;
  std::vector<std::int64_t> last_user(n_users, kNever), last_item(n_items, kNever);
  std::vector<std::uint64_t> stamp_user(n_users, 0), stamp_item(n_items, 0);
  std::vector<std::uint32_t> pending, keep;
  pending.reserve(window);
  keep.reserve(window);
  std::size_t next = 0;
  std::uint64_t stamp = 0;
  const auto g = static_cast<std::int64_t>(gap);
  while (next < ordered.size() || !pending.empty()) {
    while (pending.size() < window && next < ordered.size()) {
      pending.push_back(static_cast<std::uint32_t>(next++));
    }
    ++stamp;
    const auto b = static_cast<std::int64_t>(out.n_batches);
    std::size_t taken = 0;
    keep.clear();
    std::size_t k = 0;
    for (; k < pending.size() && taken < lanes; ++k) {
      const std::uint32_t p = pending[k];
      const Rating& r = ordered[p];
      ASSAY_CHECK(r.user < n_users && r.item < n_items);
      const bool ready = stamp_user[r.user] != stamp && stamp_item[r.item] != stamp &&
                         last_user[r.user] <= b - g && last_item[r.item] <= b - g;
      if (ready) {
        out.positions.push_back(p);
        last_user[r.user] = b;
        last_item[r.item] = b;
        ++taken;
      } else {
        keep.push_back(p);
      }
      // Taken or not, later updates of this user or item must wait: for the order if it
      // stays pending, for independence within the batch if it was taken.
      stamp_user[r.user] = stamp;
      stamp_item[r.item] = stamp;
    }
    keep.insert(keep.end(), pending.begin() + static_cast<std::ptrdiff_t>(k), pending.end());
    if (taken == 0) {
      // Everything pending waits on the gap: the oldest goes alone (no earlier pending update
      // shares its user or item, so the order stays valid).
      const Rating& r = ordered[keep.front()];
      out.positions.push_back(keep.front());
      last_user[r.user] = b;
      last_item[r.item] = b;
      keep.erase(keep.begin());
      taken = 1;
    }
    out.padding += lanes - taken;
    out.positions.insert(out.positions.end(), lanes - taken, SgdBatches::kPadding);
    ++out.n_batches;
    pending.swap(keep);
  }
  return out;
}

}  // namespace assay::recsys
