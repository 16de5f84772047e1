#include "text/pos_tagger.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.h"
#include "text/unicode_props.h"

namespace assay::text {

// What a token resolves to: the lexicon entry of the word or of its unknown-word class
// (nullptr: known to the module but without tags), or the forced symbol tag.
struct PosTagger::Lookup {
  const std::vector<TagCount>* counts = nullptr;
  bool symbol = false;
};

namespace {

TagId require_tag(const LinguaTables& t, const std::string& dir, std::string_view name) {
  const auto id = t.find_tag(name);
  if (!id) {
    throw core::ParseError(core::SourceLocation{dir + "/tags.yml"},
                           "the tables define no '" + std::string(name) + "' tag");
  }
  return *id;
}

bool contains(const std::vector<std::string>& v, std::string_view s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

std::u32string code_points(std::string_view s) {
  std::u32string out;
  for (std::size_t i = 0; i < s.size();) out.push_back(decode_utf8(s, i));
  return out;
}

bool all_of(const std::u32string& s, std::size_t from, std::size_t to, bool (*f)(char32_t)) {
  for (std::size_t i = from; i < to; ++i) {
    if (!f(s[i])) return false;
  }
  return true;
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool is_num_class_char(char32_t c) {
  return is_digit_char(c) || c == '/' || c == ':' || c == '-';
}
bool is_upper_dot_dash(char32_t c) {
  return is_upper_char(c) || c == '.' || c == '-';
}
bool is_nonword(char32_t c) {
  return !is_word_char(c);
}

// ^-?(?:\d+(?:\.\d*)?|\.\d+)$
bool is_float(const std::u32string& s) {
  std::size_t i = (!s.empty() && s[0] == '-') ? 1 : 0;
  const std::size_t d0 = i;
  while (i < s.size() && is_digit_char(s[i])) ++i;
  if (i > d0) {
    if (i == s.size()) return true;
    if (s[i] != '.') return false;
    return all_of(s, i + 1, s.size(), is_digit_char);
  }
  return i < s.size() && s[i] == '.' && i + 1 < s.size() &&
         all_of(s, i + 1, s.size(), is_digit_char);
}

}  // namespace

PosTagger::PosTagger(const PosTaggerOptions& options)
    : tables_(LinguaTables::load(options.tables_dir)),
      tokenizer_(tables_.abbreviations()),
      decoder_(options.decoder) {
  nn_ = require_tag(tables_, options.tables_dir, "nn");
  pp_ = require_tag(tables_, options.tables_dir, "pp");
  sym_ = require_tag(tables_, options.tables_dir, "sym");
}

// Tagger.pm's _classify_unknown_word, test for test. `vivified` records the hyphen suffixes
// the module's lookup `$_LEXICON{$h_suffix}{'jj'}` autovivifies: from then on (within the
// same add_tags call of a fresh tagger) the module treats such a word as known without tags.
const char* PosTagger::classify_unknown(const std::string& word,
                                        std::vector<std::string>& vivified) const {
  const std::u32string s = code_points(word);
  auto has = [&](auto pred) { return std::any_of(s.begin(), s.end(), pred); };
  if (has([](char32_t c) { return c == '(' || c == '{' || c == '['; })) return "*LRB*";
  if (has([](char32_t c) { return c == ')' || c == ']' || c == '}'; })) return "*RRB*";
  if (is_float(s)) return "*NUM*";
  // ^\d+[\d\/:-]+\d$
  if (s.size() >= 3 && is_digit_char(s[0]) && is_digit_char(s.back()) &&
      all_of(s, 1, s.size() - 1, is_num_class_char)) {
    return "*NUM*";
  }
  {  // ^-?\d+\w+$
    std::size_t i = (!s.empty() && s[0] == '-') ? 1 : 0;
    const std::size_t d0 = i;
    while (i < s.size() && is_digit_char(s[i])) ++i;
    // \d+ backtracks so that \w+ gets at least one character; digits are word characters.
    if (i > d0 && s.size() - d0 >= 2 && all_of(s, i, s.size(), is_word_char)) return "*ORD*";
  }
  if (!s.empty() && is_upper_char(s[0]) && all_of(s, 1, s.size(), is_upper_dot_dash))
    return "-abr-";
  for (std::size_t i = 1; i + 1 < s.size(); ++i) {  // \w-\w
    if (s[i] == '-' && is_word_char(s[i - 1]) && is_word_char(s[i + 1])) {
      const std::size_t dash = word.rfind('-');
      const std::string suffix = word.substr(dash + 1);
      if (suffix.empty() || suffix == "0") return "-hyp-";  // Perl: false, no lookup
      if (const auto* counts = tables_.find_word(suffix)) {
        const auto jj = tables_.find_tag("jj");
        for (const TagCount& tc : *counts) {
          if (jj && tc.tag == *jj) return "-hyp-adj-";
        }
        return "-hyp-";
      }
      if (!contains(vivified, suffix)) vivified.push_back(suffix);
      return "-hyp-";
    }
  }
  if (!s.empty() && all_of(s, 0, s.size(), is_nonword)) return "-sym-";
  if (s.empty() || titlecase_is_identity(s[0])) return "-cap-";  // $_ eq ucfirst
  if (ends_with(word, "ing")) return "-ing-";
  if (ends_with(word, "s")) return "-s-";
  if (ends_with(word, "tion")) return "-tion-";
  if (ends_with(word, "ly")) return "-ly-";
  if (ends_with(word, "ed")) return "-ed-";
  return "-unknown-";
}

// Tagger.pm's _clean_word: the word as written, else with its first letter lower-cased, else
// its unknown-word class.
PosTagger::Lookup PosTagger::look_up(const std::string& word,
                                     std::vector<std::string>& vivified) const {
  if (const auto* c = tables_.find_word(word)) return Lookup{c, false};
  if (!vivified.empty() && contains(vivified, word)) return Lookup{nullptr, false};
  const std::string lower = lower_first(word);
  if (lower != word) {
    if (const auto* c = tables_.find_word(lower)) return Lookup{c, false};
    if (!vivified.empty() && contains(vivified, lower)) return Lookup{nullptr, false};
  }
  const char* cls = classify_unknown(word, vivified);
  if (cls[0] == '-' && std::string_view(cls) == "-sym-") return Lookup{nullptr, true};
  return Lookup{tables_.find_word(cls), false};
}

std::vector<TagId> PosTagger::decode_greedy(const std::vector<Lookup>& words) const {
  std::vector<TagId> tags;
  tags.reserve(words.size());
  TagId prev = pp_;
  for (const Lookup& w : words) {
    TagId tag = nn_;
    if (w.symbol) {
      tag = sym_;
    } else if (w.counts != nullptr && tables_.has_row(prev)) {
      double best = 0;
      for (const TagCount& tc : *w.counts) {
        if (!tables_.has_transition(prev, tc.tag)) continue;
        const double p = tables_.transition(prev, tc.tag) * (tc.count + 1);
        if (p > best) {
          best = p;
          tag = tc.tag;
        }
      }
    }
    tags.push_back(tag);
    prev = tag;
  }
  return tags;
}

std::vector<TagId> PosTagger::decode_viterbi(const std::vector<Lookup>& words) const {
  constexpr double kNegInf = -std::numeric_limits<double>::infinity();
  struct State {
    TagId tag;
    double score;
    std::uint32_t back;  // index into the previous column
  };
  std::vector<std::vector<State>> columns;
  columns.reserve(words.size());
  std::vector<State> prev{State{pp_, 0.0, 0}};
  for (const Lookup& w : words) {
    std::vector<State> col;
    if (!w.symbol && w.counts != nullptr) {
      for (const TagCount& tc : *w.counts) {
        State best{tc.tag, kNegInf, 0};
        for (std::uint32_t i = 0; i < prev.size(); ++i) {
          if (!tables_.has_transition(prev[i].tag, tc.tag)) continue;
          const double t = tables_.transition(prev[i].tag, tc.tag);
          if (!(t > 0)) continue;
          const double s = prev[i].score + std::log(t) + std::log(tc.count + 1);
          if (s > best.score) {
            best.score = s;
            best.back = i;
          }
        }
        if (best.score > kNegInf) col.push_back(best);
      }
    }
    if (col.empty()) {
      // No tag reachable (or a symbol): the position resets the chain as the greedy decoder
      // does, continuing from the best state so far.
      std::uint32_t arg = 0;
      for (std::uint32_t i = 1; i < prev.size(); ++i) {
        if (prev[i].score > prev[arg].score) arg = i;
      }
      col.push_back(State{w.symbol ? sym_ : nn_, prev[arg].score, arg});
    }
    columns.push_back(col);
    prev = std::move(col);
  }
  std::vector<TagId> tags(words.size());
  if (words.empty()) return tags;
  std::uint32_t arg = 0;
  for (std::uint32_t i = 1; i < prev.size(); ++i) {
    if (prev[i].score > prev[arg].score) arg = i;
  }
  for (std::size_t k = words.size(); k > 0; --k) {
    const State& s = columns[k - 1][arg];
    tags[k - 1] = s.tag;
    arg = s.back;
  }
  return tags;
}

std::vector<TagId> PosTagger::tag(const std::vector<Token>& tokens) const {
  std::vector<Lookup> words;
  words.reserve(tokens.size());
  std::vector<std::string> vivified;
  for (const Token& t : tokens) words.push_back(look_up(t.text, vivified));
  return decoder_ == Decoder::kViterbi ? decode_viterbi(words) : decode_greedy(words);
}

TaggedText PosTagger::tag_text(std::string_view text) const {
  TaggedText out;
  out.tokens = tokenizer_.tokenize(text);
  out.tags = tag(out.tokens);
  return out;
}

}  // namespace assay::text
