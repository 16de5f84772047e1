#include "aeon/sentence_splitter.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace assay::aeon {
namespace {

constexpr std::array<std::string_view, 22> kAbbreviations = {
    "mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "vs", "etc", "e.g", "i.e", "inc",
    "ltd", "co", "corp", "jan", "feb", "aug", "sept", "oct", "dec"};

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }

std::string trim(std::string_view s) {
  std::size_t a = 0, b = s.size();
  while (a < b && is_space(s[a])) ++a;
  while (b > a && is_space(s[b - 1])) --b;
  return std::string(s.substr(a, b - a));
}

// The word that ends at `end` (exclusive), lower-cased.
std::string word_before(std::string_view text, std::size_t end) {
  std::size_t begin = end;
  while (begin > 0 && !is_space(text[begin - 1])) --begin;
  std::string w(text.substr(begin, end - begin));
  std::transform(w.begin(), w.end(), w.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  while (!w.empty() && (w.front() == '(' || w.front() == '"' || w.front() == '\'')) w.erase(0, 1);
  return w;
}

}  // namespace

std::vector<std::string> split_sentences(std::string_view text) {
  std::vector<std::string> out;
  std::size_t start = 0, i = 0;
  auto emit = [&](std::size_t end) {
    std::string s = trim(text.substr(start, end - start));
    if (!s.empty()) out.push_back(std::move(s));
    start = end;
  };
  while (i < text.size()) {
    const char c = text[i];
    if (c == '\n') {
      emit(i);
      ++i;
      continue;
    }
    if (c != '.' && c != '!' && c != '?') {
      ++i;
      continue;
    }
    const std::size_t run_begin = i;
    while (i < text.size() && (text[i] == '.' || text[i] == '!' || text[i] == '?')) ++i;
    while (i < text.size() && (text[i] == '"' || text[i] == '\'' || text[i] == ')' || text[i] == ']')) ++i;
    if (i < text.size() && !is_space(text[i])) continue;  // "3.5", "a.m.", "yahoo!com"
    if (i - run_begin == 1 && text[run_begin] == '.') {
      const std::string w = word_before(text, run_begin);
      const bool initial = w.size() == 1 && std::isalpha(static_cast<unsigned char>(w[0]));
      if (initial || std::find(kAbbreviations.begin(), kAbbreviations.end(), w) != kAbbreviations.end()) {
        continue;
      }
    }
    emit(i);
  }
  emit(text.size());
  return out;
}

std::string strip_mutation_markers(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (i + 1 < text.size() && ((text[i] == '[' && text[i + 1] == '[') || (text[i] == ']' && text[i + 1] == ']'))) {
      ++i;
      continue;
    }
    out.push_back(text[i]);
  }
  return out;
}

}  // namespace assay::aeon
