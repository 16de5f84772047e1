#include "models/count_vectorizer.h"

#include <utf8proc.h>

#include <algorithm>
#include <map>
#include <set>

#include "core/error.h"

namespace assay::models {
namespace {

bool is_word_char(utf8proc_int32_t c) {
  if (c == '_') return true;
  switch (utf8proc_category(c)) {
    case UTF8PROC_CATEGORY_LU:
    case UTF8PROC_CATEGORY_LL:
    case UTF8PROC_CATEGORY_LT:
    case UTF8PROC_CATEGORY_LM:
    case UTF8PROC_CATEGORY_LO:
    case UTF8PROC_CATEGORY_ND:
    case UTF8PROC_CATEGORY_NL:
    case UTF8PROC_CATEGORY_NO:
      return true;
    default:
      return false;
  }
}

// Calls emit(token) for every lower-cased run of >= 2 word characters.
template <typename Emit>
void for_each_token(std::string_view text, Emit&& emit) {
  std::string token;
  std::size_t n_chars = 0;
  auto flush = [&] {
    if (n_chars >= 2) emit(token);
    token.clear();
    n_chars = 0;
  };
  const auto* p = reinterpret_cast<const utf8proc_uint8_t*>(text.data());
  std::size_t i = 0;
  while (i < text.size()) {
    const unsigned char byte = p[i];
    if (byte < 0x80) {  // ASCII fast path
      const char c = static_cast<char>(byte);
      const bool word =
          (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
      if (word) {
        token.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c);
        ++n_chars;
      } else {
        flush();
      }
      ++i;
      continue;
    }
    utf8proc_int32_t cp = 0;
    const auto n = utf8proc_iterate(p + i, static_cast<utf8proc_ssize_t>(text.size() - i), &cp);
    if (n <= 0) {  // invalid UTF-8: a separator
      flush();
      ++i;
      continue;
    }
    i += static_cast<std::size_t>(n);
    const utf8proc_int32_t lower = utf8proc_tolower(cp);
    if (!is_word_char(lower)) {
      flush();
      continue;
    }
    utf8proc_uint8_t buffer[4];
    const auto len = utf8proc_encode_char(lower, buffer);
    token.append(reinterpret_cast<const char*>(buffer), static_cast<std::size_t>(len));
    ++n_chars;
  }
  flush();
}

}  // namespace

CountVectorizer::CountVectorizer(std::vector<std::string> vocabulary)
    : vocabulary_(std::move(vocabulary)) {
  for (std::size_t i = 1; i < vocabulary_.size(); ++i) {
    if (!(vocabulary_[i - 1] < vocabulary_[i])) {
      throw core::Error("vocabulary is not sorted or has duplicates at entry " +
                        std::to_string(i + 1) + " ('" + vocabulary_[i] + "')");
    }
  }
  build_index();
}

std::vector<std::string> CountVectorizer::tokenize(std::string_view text) {
  std::vector<std::string> tokens;
  for_each_token(text, [&](const std::string& t) { tokens.push_back(t); });
  return tokens;
}

void CountVectorizer::fit(const std::vector<std::string>& texts) {
  std::set<std::string> terms;
  for (const auto& text : texts) {
    for_each_token(text, [&](const std::string& t) { terms.insert(t); });
  }
  vocabulary_.assign(terms.begin(), terms.end());
  build_index();
}

void CountVectorizer::build_index() {
  index_.clear();
  index_.reserve(vocabulary_.size());
  for (std::size_t i = 0; i < vocabulary_.size(); ++i) {
    index_.emplace(vocabulary_[i], static_cast<std::uint32_t>(i));
  }
}

SparseRow CountVectorizer::transform(std::string_view text) const {
  SparseRow row;
  for_each_token(text, [&](const std::string& t) {
    const auto it = index_.find(t);
    if (it != index_.end()) row.emplace_back(it->second, 1.0);
  });
  std::sort(row.begin(), row.end());
  std::size_t out = 0;
  for (std::size_t i = 0; i < row.size(); ++i) {
    if (out > 0 && row[out - 1].first == row[i].first) {
      row[out - 1].second += 1.0;
    } else {
      row[out++] = row[i];
    }
  }
  row.resize(out);
  return row;
}

}  // namespace assay::models
