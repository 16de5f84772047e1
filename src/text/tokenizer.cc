#include "text/tokenizer.h"

#include <cstdint>
#include <string>
#include <utility>

#include "core/error.h"
#include "core/utf8.h"
#include "text/unicode_props.h"

namespace assay::text {
namespace {

constexpr std::size_t kNoSource = SIZE_MAX;

// One code point of the working string of a chunk, with the source bytes it stands for.
// Spaces inserted by a rule have no source; a replacement ("``" for '"') keeps the span of
// the character it replaces, so every token maps back to the original bytes.
struct Piece {
  char32_t c;
  std::size_t begin;
  std::size_t end;
};
using Pieces = std::vector<Piece>;

constexpr Piece kSpace{U' ', kNoSource, kNoSource};

bool word(const Pieces& v, std::size_t i) {
  return is_word_char(v[i].c);
}

// Index + 1 of the last word character (0 when none): the lookahead (?=.*\w) holds at i
// exactly when i + 1 < last_word_end.
std::size_t last_word_end(const Pieces& v) {
  for (std::size_t i = v.size(); i > 0; --i) {
    if (word(v, i - 1)) return i;
  }
  return 0;
}

void surround(Pieces& out, Piece p) {
  out.push_back(kSpace);
  out.push_back(p);
  out.push_back(kSpace);
}

Piece with_char(Piece p, char32_t c) {
  p.c = c;
  return p;
}

bool is_bracket(char32_t c) {
  return c == '(' || c == '[' || c == '{' || c == '}' || c == ']' || c == ')';
}

bool is_standard_punct(char32_t c) {
  return c == '!' || c == '?' || c == '#' || c == '$' || c == '%' || c == ';' || c == '~' ||
         c == '|';
}

// The regex passes of Tagger.pm's _split_punct, one function each, in the module's order.
// Every pass reads `in` (so lookbehinds see the string before the pass, as in Perl's s///g)
// and writes `out`.
void drop_symbol_runs(const Pieces& in, Pieces& out) {  // s/\W{10,}/ /g
  for (std::size_t i = 0; i < in.size();) {
    std::size_t j = i;
    while (j < in.size() && !word(in, j)) ++j;
    if (j - i >= 10) {
      out.push_back(kSpace);
      i = j;
    } else if (j > i) {
      out.insert(out.end(), in.begin() + static_cast<std::ptrdiff_t>(i),
                 in.begin() + static_cast<std::ptrdiff_t>(j));
      i = j;
    } else {
      out.push_back(in[i++]);
    }
  }
}

void normalise_quotes(Pieces& v, Pieces& tmp) {
  const std::size_t n = v.size();
  // s/`(?!`)(?=.*\w)/` /g
  std::size_t lw = last_word_end(v);
  tmp.clear();
  for (std::size_t i = 0; i < n; ++i) {
    tmp.push_back(v[i]);
    if (v[i].c == '`' && !(i + 1 < n && v[i + 1].c == '`') && i + 1 < lw) tmp.push_back(kSpace);
  }
  v.swap(tmp);
  // s/"(?=.*\w)/ `` /g
  lw = last_word_end(v);
  tmp.clear();
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i].c == '"' && i + 1 < lw) {
      tmp.push_back(kSpace);
      tmp.push_back(with_char(v[i], '`'));
      tmp.push_back(with_char(v[i], '`'));
      tmp.push_back(kSpace);
    } else {
      tmp.push_back(v[i]);
    }
  }
  v.swap(tmp);
  // s/(?<![\w\s'])'(?=.*\w)/ ` /g
  lw = last_word_end(v);
  tmp.clear();
  for (std::size_t i = 0; i < v.size(); ++i) {
    const bool blocked =
        i > 0 && (word(v, i - 1) || is_space_char(v[i - 1].c) || v[i - 1].c == '\'');
    if (v[i].c == '\'' && !blocked && i + 1 < lw) {
      surround(tmp, with_char(v[i], '`'));
    } else {
      tmp.push_back(v[i]);
    }
  }
  v.swap(tmp);
  // s/"/ '' /g
  tmp.clear();
  for (const Piece& p : v) {
    if (p.c == '"') {
      tmp.push_back(kSpace);
      tmp.push_back(with_char(p, '\''));
      tmp.push_back(with_char(p, '\''));
      tmp.push_back(kSpace);
    } else {
      tmp.push_back(p);
    }
  }
  v.swap(tmp);
  // s/(?<=\w)'(?!')(?=\W|$)/ ' /g
  tmp.clear();
  for (std::size_t i = 0; i < v.size(); ++i) {
    const std::size_t m = v.size();
    if (v[i].c == '\'' && i > 0 && word(v, i - 1) && !(i + 1 < m && v[i + 1].c == '\'') &&
        (i + 1 == m || !word(v, i + 1))) {
      surround(tmp, v[i]);
    } else {
      tmp.push_back(v[i]);
    }
  }
  v.swap(tmp);
}

void split_punctuation(Pieces& v, Pieces& tmp) {
  // s/--+/ - /g
  tmp.clear();
  for (std::size_t i = 0; i < v.size();) {
    std::size_t j = i;
    while (j < v.size() && v[j].c == '-') ++j;
    if (j - i >= 2) {
      surround(tmp, Piece{U'-', v[i].begin, v[j - 1].end});
      i = j;
    } else {
      tmp.push_back(v[i++]);
    }
  }
  v.swap(tmp);
  // s/,(?!\p{IsDigit})/ , /g
  tmp.clear();
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i].c == ',' && !(i + 1 < v.size() && is_digit_char(v[i + 1].c))) {
      surround(tmp, v[i]);
    } else {
      tmp.push_back(v[i]);
    }
  }
  v.swap(tmp);
  // s/:$/ :/
  if (!v.empty() && v.back().c == ':') v.insert(v.end() - 1, kSpace);
  // s/(\.\.\.+)/ $1 /  (first occurrence only: the module has no /g here)
  for (std::size_t i = 0; i < v.size(); ++i) {
    std::size_t j = i;
    while (j < v.size() && v[j].c == '.') ++j;
    if (j - i >= 3) {
      v.insert(v.begin() + static_cast<std::ptrdiff_t>(j), kSpace);
      v.insert(v.begin() + static_cast<std::ptrdiff_t>(i), kSpace);
      break;
    }
    i = j > i ? j - 1 : i;
  }
  // s/([\(\[\{\}\]\)])/ $1 /g and s/([\!\?#\$%;~|])/ $1 /g
  tmp.clear();
  for (const Piece& p : v) {
    if (is_bracket(p.c) || is_standard_punct(p.c)) {
      surround(tmp, p);
    } else {
      tmp.push_back(p);
    }
  }
  v.swap(tmp);
}

bool boundary_after(const Pieces& v, std::size_t i) {
  return i >= v.size() || !word(v, i);
}

void split_contractions(Pieces& v, Pieces& tmp) {
  // s/(?<=\p{IsAlpha})'([dms])\b/ '$1/g
  tmp.clear();
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i].c == '\'' && i > 0 && is_alpha_char(v[i - 1].c) && i + 1 < v.size() &&
        (v[i + 1].c == 'd' || v[i + 1].c == 'm' || v[i + 1].c == 's') && boundary_after(v, i + 2)) {
      tmp.push_back(kSpace);
      tmp.push_back(v[i]);
      tmp.push_back(v[++i]);
    } else {
      tmp.push_back(v[i]);
    }
  }
  v.swap(tmp);
  // s/n't\b/ n't/g
  tmp.clear();
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i].c == 'n' && i + 2 < v.size() && v[i + 1].c == '\'' && v[i + 2].c == 't' &&
        boundary_after(v, i + 3)) {
      tmp.push_back(kSpace);
      tmp.push_back(v[i]);
      tmp.push_back(v[i + 1]);
      tmp.push_back(v[i + 2]);
      i += 2;
    } else {
      tmp.push_back(v[i]);
    }
  }
  v.swap(tmp);
  // s/'(ve|ll|re)\b/ '$1/g
  tmp.clear();
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i].c == '\'' && i + 2 < v.size() && boundary_after(v, i + 3)) {
      const char32_t a = v[i + 1].c, b = v[i + 2].c;
      if ((a == 'v' && b == 'e') || (a == 'l' && b == 'l') || (a == 'r' && b == 'e')) {
        tmp.push_back(kSpace);
        tmp.push_back(v[i]);
        tmp.push_back(v[i + 1]);
        tmp.push_back(v[i + 2]);
        i += 2;
        continue;
      }
    }
    tmp.push_back(v[i]);
  }
  v.swap(tmp);
}

void emit_tokens(const Pieces& v, std::vector<Token>& tokens) {
  for (std::size_t i = 0; i < v.size();) {
    if (is_space_char(v[i].c)) {
      ++i;
      continue;
    }
    Token t;
    t.begin = v[i].begin;
    while (i < v.size() && !is_space_char(v[i].c)) {
      append_utf8(t.text, v[i].c);
      t.end = v[i].end;
      ++i;
    }
    tokens.push_back(std::move(t));
  }
}

bool all_word_chars(std::string_view chunk) {
  std::size_t i = 0;
  while (i < chunk.size()) {
    if (!is_word_char(decode_utf8(chunk, i))) return false;
  }
  return true;
}

// _split_punct on one white-space-free chunk starting at byte `offset`.
void split_chunk(std::string_view chunk, std::size_t offset, std::vector<Token>& tokens, Pieces& v,
                 Pieces& tmp) {
  if (all_word_chars(chunk)) {
    tokens.push_back(Token{std::string(chunk), offset, offset + chunk.size()});
    return;
  }
  tmp.clear();
  for (std::size_t i = 0; i < chunk.size();) {
    const std::size_t start = i;
    const char32_t c = decode_utf8(chunk, i);
    tmp.push_back(Piece{c, offset + start, offset + i});
  }
  v.clear();
  drop_symbol_runs(tmp, v);
  normalise_quotes(v, tmp);
  split_punctuation(v, tmp);
  split_contractions(v, tmp);
  emit_tokens(v, tokens);
}

// Code points of a token's text (tokens are short).
std::u32string code_points(std::string_view s) {
  std::u32string out;
  for (std::size_t i = 0; i < s.size();) out.push_back(decode_utf8(s, i));
  return out;
}

bool has_upper_or_nonword(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const char32_t c = decode_utf8(s, i);
    if (is_upper_char(c) || !is_word_char(c)) return true;
  }
  return false;
}

// /^\p{IsLower}$/i or /^\p{IsLower}(?:\.\p{IsLower})+$/i: "A", "U.S", "j.c".
bool is_initials(const std::u32string& s) {
  if (s.empty() || s.size() % 2 == 0) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (i % 2 == 0 ? !is_cased_char(s[i]) : s[i] != '.') return false;
  }
  return true;
}

}  // namespace

void Tokenizer::split_periods(std::vector<Token>& tokens) const {
  std::vector<Token> out;
  out.reserve(tokens.size() + 4);
  for (std::size_t k = 0; k < tokens.size(); ++k) {
    Token& t = tokens[k];
    const std::string& s = t.text;
    // /^(.+)\.$/ on a token followed by one holding an uppercase or non-word character.
    if (k + 1 < tokens.size() && s.size() >= 2 && s.back() == '.' &&
        has_upper_or_nonword(tokens[k + 1].text)) {
      const std::string_view stem(s.data(), s.size() - 1);
      if (!abbreviations_.contains(to_lower(stem)) && !is_initials(code_points(stem))) {
        out.push_back(Token{std::string(stem), t.begin, t.end - 1});
        out.push_back(Token{".", t.end - 1, t.end});
        continue;
      }
    }
    out.push_back(std::move(t));
  }
  // The final word loses its period when a word character precedes it: /^(.*\w)\.$/.
  if (!out.empty()) {
    Token& last = out.back();
    if (last.text.size() >= 2 && last.text.back() == '.') {
      const std::u32string cps = code_points(last.text);
      if (cps.size() >= 2 && is_word_char(cps[cps.size() - 2])) {
        last.text.pop_back();
        const std::size_t end = last.end;
        last.end = end - 1;
        out.push_back(Token{".", end - 1, end});
      }
    }
  }
  tokens.swap(out);
}

std::vector<Token> Tokenizer::tokenize(std::string_view text) const {
  if (const auto bad = core::find_invalid_utf8(text)) {
    throw core::ParseError("invalid UTF-8 at byte " + std::to_string(*bad) +
                           " of the text to tokenise");
  }
  std::vector<Token> tokens;
  Pieces v, tmp;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t start = i;
    const char32_t c = decode_utf8(text, i);
    if (is_space_char(c)) continue;
    // Extend the chunk to the next white space.
    std::size_t end = i;
    while (end < text.size()) {
      std::size_t next = end;
      if (is_space_char(decode_utf8(text, next))) break;
      end = next;
    }
    split_chunk(text.substr(start, end - start), start, tokens, v, tmp);
    i = end;
  }
  split_periods(tokens);
  return tokens;
}

}  // namespace assay::text
