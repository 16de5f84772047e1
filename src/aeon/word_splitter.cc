#include "aeon/word_splitter.h"

#include <algorithm>
#include <cctype>
#include <iterator>

namespace assay::aeon {
namespace {

bool punct(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u < 0x80 && std::ispunct(u);
}

bool has_alnum(std::string_view w) {
  return std::any_of(w.begin(), w.end(),
                     [](unsigned char c) { return std::isalnum(c) || c >= 0x80; });
}

}  // namespace

std::vector<std::string> split_words(std::string_view sentence, bool keep_punctuation) {
  std::vector<std::string> out;
  std::string cur;
  auto flush = [&] {
    std::size_t b = 0, e = cur.size();
    while (e > b && punct(cur[e - 1])) --e;
    auto clitic = [&](std::size_t at) {
      static constexpr std::string_view kClitics[] = {"s", "re", "ll", "ve", "d", "m", "em"};
      const auto rest = std::string_view(cur).substr(at + 1, e - at - 1);
      return cur[at] == '\'' &&
             std::find(std::begin(kClitics), std::end(kClitics), rest) != std::end(kClitics);
    };
    while (b < e && punct(cur[b]) && !clitic(b)) ++b;
    const std::string_view word = std::string_view(cur).substr(b, e - b);
    if (keep_punctuation) {
      for (std::size_t k = 0; k < b; ++k) out.emplace_back(1, cur[k]);
      if (!word.empty()) out.emplace_back(word);
      for (std::size_t k = e; k < cur.size(); ++k) out.emplace_back(1, cur[k]);
    } else if (!word.empty() && has_alnum(word)) {
      out.emplace_back(word);
    }
    cur.clear();
  };
  for (char ch : sentence) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      flush();
    } else {
      cur.push_back(c < 0x80 ? static_cast<char>(std::tolower(c)) : ch);
    }
  }
  flush();
  return out;
}

}  // namespace assay::aeon
