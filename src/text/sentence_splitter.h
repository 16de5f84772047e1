// Sentence splitting on top of the tokeniser: a sentence ends after a run of ".", "!" or "?"
// tokens (the tokens Lingua::EN::Tagger tags `pp`, where its get_sentences splits) together
// with the closing quotes and brackets that follow them.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "text/token.h"

namespace assay::text {

struct Sentence {
  std::size_t first_token = 0;  // token range [first_token, end_token)
  std::size_t end_token = 0;
  std::size_t begin = 0;  // byte span [begin, end) from the first to the last token
  std::size_t end = 0;
};

// Groups `tokens` (from Tokenizer::tokenize) into sentences; every token belongs to exactly
// one sentence, in order. No tokens, no sentences.
std::vector<Sentence> split_sentences(const std::vector<Token>& tokens);

}  // namespace assay::text
