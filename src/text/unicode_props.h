// Unicode character classes with the meaning Perl gives them on a decoded string (\w, \s,
// \p{IsUpper}, ...). The Lingua::EN::Tagger tokeniser is a sequence of Perl regexes; matching
// its classes code point by code point is what makes our tokens agree with the Perl tagger on
// non-ASCII text. The classes come from utf8proc's general categories (Debian libutf8proc).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace assay::text {

// Perl \w: letters, marks, decimal digits, letter numbers, connector punctuation.
bool is_word_char(char32_t c);
// Perl \s: Unicode White_Space.
bool is_space_char(char32_t c);
// Perl \p{IsDigit} (= \d): decimal digits (Nd).
bool is_digit_char(char32_t c);
// Perl \p{IsUpper} / \p{IsLower}: uppercase (Lu) / lowercase (Ll) letters.
bool is_upper_char(char32_t c);
bool is_lower_char(char32_t c);
// Perl \p{IsAlpha}: letters and letter numbers.
bool is_alpha_char(char32_t c);
// A letter that has case (what \p{IsLower} matches under /i).
bool is_cased_char(char32_t c);
// True when Perl's ucfirst leaves the code point unchanged (titlecase maps it to itself and it
// is not a lowercase letter whose full titlecase expands, like U+00DF).
bool titlecase_is_identity(char32_t c);

char32_t to_lower_char(char32_t c);
char32_t to_upper_char(char32_t c);

// Decodes one code point of valid UTF-8 at `text[i]`, advancing `i`. Precondition: `text` is
// valid UTF-8 (see core::find_invalid_utf8).
char32_t decode_utf8(std::string_view text, std::size_t& i);
// Appends the UTF-8 encoding of `c`.
void append_utf8(std::string& out, char32_t c);

// Perl lc / lcfirst / ucfirst on valid UTF-8 (simple case mappings).
std::string to_lower(std::string_view text);
std::string lower_first(std::string_view text);
std::string upper_first(std::string_view text);

}  // namespace assay::text
