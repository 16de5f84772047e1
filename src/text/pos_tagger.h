// Part-of-speech tagger: the bigram HMM of Lingua::EN::Tagger 0.31 over its installed tables
// (see lingua_tables.h), with the module's tokenisation, unknown-word classes and smoothing.
//
// Score of tag t for word w after tag p: P(t | p) * (count(w, t) + 1), over the tags t the
// lexicon lists for w (the "+ 1" is the module's smoothing; tags the lexicon does not list for
// w are not considered). Words missing from the lexicon, as written and with the first letter
// lower-cased, fall into the module's classes (*NUM*, *ORD*, *LRB*, -abr-, -hyp-adj-, -hyp-,
// -sym-, -cap-, -ing-, -s-, -tion-, -ly-, -ed-, -unknown-); symbols get "sym"; when no tag
// scores above zero the tag is "nn". The chain starts after "pp" (sentence end).
//
// Two decoders over these scores:
//  - kLingua (default): the module's decoding, which keeps only the best tag at each step
//    (Viterbi with a beam of one). This is what agrees with the Perl tagger.
//  - kViterbi: exact Viterbi, the maximum-product tag sequence over the same scores.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "text/lingua_tables.h"
#include "text/token.h"
#include "text/tokenizer.h"

namespace assay::text {

enum class Decoder { kLingua, kViterbi };

struct PosTaggerOptions {
  std::string tables_dir = LinguaTables::kDefaultDir;
  Decoder decoder = Decoder::kLingua;
};

struct TaggedText {
  std::vector<Token> tokens;
  std::vector<TagId> tags;  // one per token
};

class PosTagger {
 public:
  // Loads the tables (see LinguaTables::load for what it throws).
  explicit PosTagger(const PosTaggerOptions& options = {});

  // Tags a token sequence as one text (the Perl module's add_tags on the joined tokens).
  // Thread-safe.
  std::vector<TagId> tag(const std::vector<Token>& tokens) const;
  // Tokenises and tags UTF-8 `text` (ParseError on invalid UTF-8).
  TaggedText tag_text(std::string_view text) const;

  std::string_view tag_name(TagId tag) const { return tables_.tag_name(tag); }
  const Tokenizer& tokenizer() const { return tokenizer_; }
  const LinguaTables& tables() const { return tables_; }

 private:
  struct Lookup;
  Lookup look_up(const std::string& word, std::vector<std::string>& vivified) const;
  const char* classify_unknown(const std::string& word, std::vector<std::string>& vivified) const;
  std::vector<TagId> decode_greedy(const std::vector<Lookup>& words) const;
  std::vector<TagId> decode_viterbi(const std::vector<Lookup>& words) const;

  LinguaTables tables_;
  Tokenizer tokenizer_;
  Decoder decoder_;
  TagId nn_ = 0, pp_ = 0, sym_ = 0;
};

}  // namespace assay::text
