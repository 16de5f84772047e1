#include "lm/basic_tokenizer.h"

#include <utf8proc.h>

#include <algorithm>
#include <cstdlib>
#include <memory>

namespace assay::lm {
namespace {

using CodePoints = std::u32string;

utf8proc_category_t category(char32_t c) {
  return utf8proc_category(static_cast<utf8proc_int32_t>(c));
}

CodePoints decode(std::string_view s) {
  CodePoints out;
  out.reserve(s.size());
  const auto* p = reinterpret_cast<const utf8proc_uint8_t*>(s.data());
  utf8proc_ssize_t left = static_cast<utf8proc_ssize_t>(s.size());
  while (left > 0) {
    utf8proc_int32_t c = 0;
    const utf8proc_ssize_t n = utf8proc_iterate(p, left, &c);
    if (n <= 0) {  // invalid byte: U+FFFD, which cleaning drops (as Python's errors="replace")
      out.push_back(0xFFFD);
      ++p;
      --left;
      continue;
    }
    out.push_back(static_cast<char32_t>(c));
    p += n;
    left -= n;
  }
  return out;
}

std::string encode(const CodePoints& cps) {
  std::string out;
  out.reserve(cps.size());
  utf8proc_uint8_t buf[4];
  for (char32_t c : cps) {
    const auto n = utf8proc_encode_char(static_cast<utf8proc_int32_t>(c), buf);
    out.append(reinterpret_cast<const char*>(buf), static_cast<std::size_t>(n));
  }
  return out;
}

// Applies utf8proc's NFC or NFD to a NUL-free string.
CodePoints normalize(const CodePoints& cps, bool compose) {
  const std::string s = encode(cps);
  utf8proc_uint8_t* out = nullptr;
  const int flags = UTF8PROC_STABLE | (compose ? UTF8PROC_COMPOSE : UTF8PROC_DECOMPOSE);
  const utf8proc_ssize_t n = utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(s.data()),
                                          static_cast<utf8proc_ssize_t>(s.size()), &out,
                                          static_cast<utf8proc_option_t>(flags));
  if (n < 0) return cps;  // cannot happen for valid code points; keep the input unchanged
  std::unique_ptr<utf8proc_uint8_t, decltype(&std::free)> guard(out, &std::free);
  return decode(std::string_view(reinterpret_cast<const char*>(out), static_cast<std::size_t>(n)));
}

bool is_whitespace(char32_t c) {
  if (c == U' ' || c == U'\t' || c == U'\n' || c == U'\r') return true;
  return category(c) == UTF8PROC_CATEGORY_ZS;
}

bool is_control(char32_t c) {
  if (c == U'\t' || c == U'\n' || c == U'\r') return false;
  switch (category(c)) {
    case UTF8PROC_CATEGORY_CC:
    case UTF8PROC_CATEGORY_CF:
    case UTF8PROC_CATEGORY_CN:
    case UTF8PROC_CATEGORY_CO:
    case UTF8PROC_CATEGORY_CS:
      return true;
    default:
      return false;
  }
}

bool is_punctuation(char32_t c) {
  if ((c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) ||
      (c >= 123 && c <= 126)) {
    return true;
  }
  switch (category(c)) {
    case UTF8PROC_CATEGORY_PC:
    case UTF8PROC_CATEGORY_PD:
    case UTF8PROC_CATEGORY_PS:
    case UTF8PROC_CATEGORY_PE:
    case UTF8PROC_CATEGORY_PI:
    case UTF8PROC_CATEGORY_PF:
    case UTF8PROC_CATEGORY_PO:
      return true;
    default:
      return false;
  }
}

bool is_cjk(char32_t c) {
  return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) ||
         (c >= 0x20000 && c <= 0x2A6DF) || (c >= 0x2A700 && c <= 0x2B73F) ||
         (c >= 0x2B740 && c <= 0x2B81F) || (c >= 0x2B820 && c <= 0x2CEAF) ||
         (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x2F800 && c <= 0x2FA1F);
}

// Python's str.split() separators that survive cleaning (controls are gone, Zs became ' ').
bool is_split_space(char32_t c) {
  return c == U' ' || c == 0x2028 || c == 0x2029;
}

bool is_cased(char32_t c) {
  const auto cat = category(c);
  return cat == UTF8PROC_CATEGORY_LU || cat == UTF8PROC_CATEGORY_LL || cat == UTF8PROC_CATEGORY_LT;
}

bool is_case_ignorable(char32_t c) {
  const auto cat = category(c);
  return c == U'\'' || c == U'.' || c == U':' || c == 0x2019 || cat == UTF8PROC_CATEGORY_MN ||
         cat == UTF8PROC_CATEGORY_ME || cat == UTF8PROC_CATEGORY_CF ||
         cat == UTF8PROC_CATEGORY_LM || cat == UTF8PROC_CATEGORY_SK;
}

// Python's str.lower(): the simple mapping plus the unconditional special case U+0130 and
// the Final_Sigma context rule.
CodePoints lower(const CodePoints& in) {
  CodePoints out;
  out.reserve(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    const char32_t c = in[i];
    if (c == 0x0130) {
      out.push_back(U'i');
      out.push_back(0x0307);
      continue;
    }
    if (c == 0x03A3) {
      bool before = false, after = false;
      for (std::size_t j = i; j-- > 0;) {
        if (is_case_ignorable(in[j])) continue;
        before = is_cased(in[j]);
        break;
      }
      for (std::size_t j = i + 1; j < in.size(); ++j) {
        if (is_case_ignorable(in[j])) continue;
        after = is_cased(in[j]);
        break;
      }
      out.push_back(before && !after ? char32_t{0x03C2} : char32_t{0x03C3});
      continue;
    }
    out.push_back(static_cast<char32_t>(utf8proc_tolower(static_cast<utf8proc_int32_t>(c))));
  }
  return out;
}

CodePoints strip_accents(const CodePoints& in) {
  CodePoints out;
  for (char32_t c : normalize(in, /*compose=*/false)) {
    if (category(c) != UTF8PROC_CATEGORY_MN) out.push_back(c);
  }
  return out;
}

}  // namespace

std::vector<std::string> BasicTokenizer::tokenize(std::string_view text) const {
  CodePoints cleaned;
  cleaned.reserve(text.size());
  for (char32_t c : decode(text)) {
    if (c == 0 || c == 0xFFFD || is_control(c)) continue;
    if (is_whitespace(c)) {
      cleaned.push_back(U' ');
    } else if (is_cjk(c)) {
      cleaned.push_back(U' ');
      cleaned.push_back(c);
      cleaned.push_back(U' ');
    } else {
      cleaned.push_back(c);
    }
  }
  const CodePoints normalized = normalize(cleaned, /*compose=*/true);

  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < normalized.size()) {
    while (i < normalized.size() && is_split_space(normalized[i])) ++i;
    std::size_t j = i;
    while (j < normalized.size() && !is_split_space(normalized[j])) ++j;
    if (j == i) break;
    const CodePoints word = normalized.substr(i, j - i);
    i = j;
    const std::string word_utf8 = encode(word);
    if (std::find(never_split_.begin(), never_split_.end(), word_utf8) != never_split_.end()) {
      out.push_back(word_utf8);
      continue;
    }
    // HF: lower-case (and strip accents unless strip_accents is false), or, for a cased
    // model, strip accents only when strip_accents is true.
    const CodePoints cased = options_.lower_case ? lower(word) : word;
    const bool strip = options_.strip_accents.value_or(options_.lower_case);
    const CodePoints folded = strip ? strip_accents(cased) : cased;
    CodePoints current;
    for (char32_t c : folded) {
      if (is_punctuation(c)) {
        if (!current.empty()) out.push_back(encode(current));
        current.clear();
        out.push_back(encode(CodePoints(1, c)));
      } else {
        current.push_back(c);
      }
    }
    if (!current.empty()) out.push_back(encode(current));
  }
  return out;
}

}  // namespace assay::lm
