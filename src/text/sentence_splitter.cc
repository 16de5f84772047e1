#include "text/sentence_splitter.h"

namespace assay::text {
namespace {

bool is_terminator(const Token& t) {
  return t.text == "." || t.text == "!" || t.text == "?";
}

bool is_closer(const Token& t) {
  return t.text == "''" || t.text == "'" || t.text == ")" || t.text == "]" || t.text == "}";
}

}  // namespace

std::vector<Sentence> split_sentences(const std::vector<Token>& tokens) {
  std::vector<Sentence> out;
  std::size_t start = 0;
  std::size_t i = 0;
  while (i < tokens.size()) {
    if (!is_terminator(tokens[i])) {
      ++i;
      continue;
    }
    while (i < tokens.size() && is_terminator(tokens[i])) ++i;
    while (i < tokens.size() && is_closer(tokens[i])) ++i;
    out.push_back(Sentence{start, i, tokens[start].begin, tokens[i - 1].end});
    start = i;
  }
  if (start < tokens.size()) {
    out.push_back(Sentence{start, tokens.size(), tokens[start].begin, tokens.back().end});
  }
  return out;
}

}  // namespace assay::text
