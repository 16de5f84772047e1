#include "knowledge/knowledge_graph.h"

namespace assay::knowledge {

std::string normalize_term(std::string_view word) {
  std::string out;
  out.reserve(word.size());
  bool pending_space = false;
  for (char c : word) {
    if (c == ' ' || c == '\t' || c == '_') {
      pending_space = !out.empty();
      continue;
    }
    if (pending_space) out.push_back('_');
    pending_space = false;
    out.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c);
  }
  return out;
}

}  // namespace assay::knowledge
