// Word tokeniser that reproduces Lingua::EN::Tagger 0.31's tokenisation (_split_punct and
// _split_sentences in Tagger.pm) while keeping the byte span of every token, so a mutated
// sentence can be rebuilt around the untouched characters (see text_edit.h).
//
// What it does, in Perl's order: split on Unicode white space; in each chunk drop runs of ten
// or more non-word characters, normalise quotes ('"' -> `` and '', opening ' -> `), turn
// dashes into "-", split off commas (not in numbers), a final colon, the first ellipsis,
// brackets, ! ? # $ % ; ~ |, and the contractions 'd 'm 's n't 've 'll 're; then split a period
// off a word when the next token holds an uppercase or non-word character unless the word is
// an abbreviation (Mr, Jan, etc, single letters, U.S), and off the last word of the text.
//
// Differences from the Perl module: it does not strip HTML markup or decode entities (the
// module runs HTML::TokeParser first), because that would break the byte offsets.
#pragma once

#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "text/token.h"

namespace assay::text {

class Tokenizer {
 public:
  // `abbreviations` (lower case, without the final period) keep their period when a sentence
  // seems to continue. The Lingua lists live in Tagger.pm (GPL) and are read at run time by
  // LinguaResources; a default-constructed tokeniser knows none.
  explicit Tokenizer(std::unordered_set<std::string> abbreviations = {})
      : abbreviations_(std::move(abbreviations)) {}

  // Tokenises UTF-8 `text`. Throws core::ParseError naming the byte offset when `text` is not
  // valid UTF-8. Thread-safe (no state).
  std::vector<Token> tokenize(std::string_view text) const;

  const std::unordered_set<std::string>& abbreviations() const { return abbreviations_; }

 private:
  void split_periods(std::vector<Token>& tokens) const;

  std::unordered_set<std::string> abbreviations_;
};

}  // namespace assay::text
