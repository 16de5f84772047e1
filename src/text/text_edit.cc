#include "text/text_edit.h"

#include <algorithm>

#include "core/error.h"

namespace assay::text {

std::string apply_edits(std::string_view original, std::vector<TextEdit> edits) {
  for (const TextEdit& e : edits) {
    if (e.end < e.begin || e.end > original.size()) {
      throw core::UsageError("text edit [" + std::to_string(e.begin) + ", " +
                             std::to_string(e.end) + ") lies outside the text of " +
                             std::to_string(original.size()) + " bytes");
    }
  }
  // Stable: equal starts keep the caller's order; an insertion (empty span) sorts before a
  // replacement at the same offset.
  std::stable_sort(edits.begin(), edits.end(), [](const TextEdit& a, const TextEdit& b) {
    if (a.begin != b.begin) return a.begin < b.begin;
    return (a.end == a.begin) && (b.end != b.begin);
  });
  std::string out;
  out.reserve(original.size() + 16);
  std::size_t pos = 0;
  for (const TextEdit& e : edits) {
    if (e.begin < pos) {
      throw core::UsageError("text edits overlap at byte " + std::to_string(e.begin));
    }
    out.append(original.substr(pos, e.begin - pos));
    out.append(e.replacement);
    pos = e.end;
  }
  out.append(original.substr(pos));
  return out;
}

}  // namespace assay::text
