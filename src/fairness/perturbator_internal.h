// The perturbator's internals shared by its source files. Not part of the library's interface.
//   perturbator.cc             the constructor and perturb(), which runs the steps of
//                              perturbation_builder.h;
//   person_detection.cc        where a person noun or a first name names a person;
//   noun_gender.cc             a person noun's gender, and whether it is neutral;
//   counterpart_sources.cc     a person noun's counterparts: the sources asked in order, the
//                              choice among several, the per-noun cache;
//   counterparts_lexicon.cc    the sources, one each, behind one signature (perturbator.h)
//   counterparts_vectors.cc    sharing one CounterpartSearch (below): the curated gender
//   counterparts_graph.cc      lexicon, word vectors (Algorithm 3), the knowledge graph's
//   counterparts_members.cc    gender counterparts, an attribute file's aligned member nouns.
#pragma once

#include <algorithm>
#include <cstdio>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "fairness/group_words.h"
#include "fairness/perturbator.h"
#include "knowledge/person_classifier.h"
#include "text/unicode_props.h"
#include "vectors/similarity_search.h"

namespace assay::fairness {
namespace perturbator_detail {

// Whether tokens a and b lie in one sentence (`sentence_start[t]`: token t begins one).
inline bool same_sentence_tokens(const std::vector<bool>& sentence_start, std::size_t a,
                                 std::size_t b) {
  if (a > b) std::swap(a, b);
  for (std::size_t t = a + 1; t <= b; ++t) {
    if (sentence_start[t]) return false;
  }
  return true;
}

constexpr std::size_t kGroupHops = 8;
// Gender-swapped gloss matches below this score (Dice < 0.71) pair unrelated nouns.
constexpr double kMinGlossSwap = 0.75;

// Indefinite pronouns Lingua tags as nouns ("someone"): persons, but no "female someone".
inline bool is_pronoun_noun(std::string_view w) {
  static const char* const kWords[] = {"someone",   "somebody", "anyone", "anybody", "everyone",
                                       "everybody", "noone",    "nobody", "one",     "ones"};
  for (const char* p : kWords) {
    if (w == p) return true;
  }
  return false;
}

// The words of a gloss's first clause, lower case, without gender words.
inline std::vector<std::string> ungendered_clause(std::string_view gloss) {
  static const std::set<std::string> kGender = {"male", "female", "man",       "woman", "boy",
                                                "girl", "lady",   "gentleman", "men",   "women"};
  std::vector<std::string> out;
  std::string cur;
  auto flush = [&] {
    if (!cur.empty() && !kGender.count(cur)) out.push_back(cur);
    cur.clear();
  };
  for (char c : gloss) {
    if (c == ';') break;
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if ((c >= 'a' && c <= 'z') || c == '-') {
      cur.push_back(c);
    } else {
      flush();
    }
  }
  flush();
  return out;
}

// Whether `text` holds `word` as a whole word (ASCII letters delimit).
inline bool mentions(std::string_view text, std::string_view word) {
  auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  for (std::size_t at = text.find(word); at != std::string_view::npos;
       at = text.find(word, at + 1)) {
    const std::size_t end = at + word.size();
    if ((at == 0 || !letter(text[at - 1])) && (end >= text.size() || !letter(text[end])))
      return true;
  }
  return false;
}

inline std::string fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4f", v);
  return buf;
}

// The words of a query, as one cache key.
inline std::string search_key(const vectors::SimilarityQuery& q) {
  std::string key;
  for (const auto& w : q.positive) key += "+" + w + "\t";
  for (const auto& w : q.negative) key += "-" + w + "\t";
  return key;
}

inline bool is_noun_word(std::string_view w) {
  if (w.size() < 2) return false;
  bool letter = false;
  for (char c : w) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
      letter = true;
    } else if (c != '-') {
      return false;
    }
  }
  return letter && w.front() != '-' && w.back() != '-';
}

inline bool all_upper(std::string_view w) {
  bool letter = false;
  for (char c : w) {
    if (c >= 'a' && c <= 'z') return false;
    letter |= c >= 'A' && c <= 'Z';
  }
  return letter;
}

inline bool upper_first(std::string_view w) {
  return !w.empty() && w[0] >= 'A' && w[0] <= 'Z';
}

inline std::string to_upper_ascii(std::string s) {
  for (char& c : s) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return s;
}

inline std::vector<std::string> lower_words(std::string_view phrase) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < phrase.size()) {
    while (i < phrase.size() && phrase[i] == ' ') ++i;
    const std::size_t start = i;
    while (i < phrase.size() && phrase[i] != ' ') ++i;
    if (i > start) out.push_back(text::to_lower(phrase.substr(start, i - start)));
  }
  return out;
}

// Whether a word is an adjective made from a name ("waters-like", "tarantino-esque",
// "hitchcock-style"): the name before it names a manner, not a person.
inline bool adjective_from_name(std::string_view w) {
  for (const std::string_view end : {"-like", "-esque", "-style"}) {
    if (w.size() > end.size() && w.substr(w.size() - end.size()) == end) return true;
  }
  return false;
}

// An abbreviation's word without its final dot ("Mr." -> "Mr").
inline std::string_view without_dot(std::string_view w) {
  return w.size() > 1 && w.back() == '.' ? w.substr(0, w.size() - 1) : w;
}

inline std::string underscores_to_spaces(std::string w) {
  std::replace(w.begin(), w.end(), '_', ' ');
  return w;
}

}  // namespace perturbator_detail

struct Perturbator::NounInfo {
  bool person = false;
  std::string lemma;
  bool neutral = false;
  knowledge::Gender gender = knowledge::Gender::kNone;        // gender only (noun_gender)
  std::vector<std::vector<CounterpartCandidate>> candidates;  // per group
  std::vector<std::size_t> chosen;                            // per group (context-free)
  std::vector<DroppedCandidate> dropped;
};

// One search for a person lemma's counterparts, shared by the counterpart sources
// (counterparts_*.cc): the lemma, the counterparts found for each group (index as in
// attribute().groups) with their evidence, in the order found, and the candidates refused with
// the reason.
struct Perturbator::CounterpartSearch {
  CounterpartSearch(const std::string& of, const SensitiveAttribute& attribute,
                    std::vector<DroppedCandidate>* dropped)
      : lemma(of), found(attribute.groups.size()), attribute_(attribute), dropped_(dropped) {}

  void add(std::size_t group, std::string word, std::string evidence, double score) {
    found[group].push_back({std::move(word), std::move(evidence), score});
  }
  // A candidate for `group` refused (listed when the caller asked for the dropped ones).
  void drop(std::size_t group, const std::string& word, std::string reason) const {
    if (dropped_) {
      dropped_->push_back(
          {MutationKind::kAnalogy, attribute_.groups[group].name, lemma, word, std::move(reason)});
    }
  }

  const std::string& lemma;
  std::vector<std::vector<CounterpartCandidate>> found;  // per group

 private:
  const SensitiveAttribute& attribute_;
  std::vector<DroppedCandidate>* dropped_;  // null: not wanted
};

struct Perturbator::Impl {
  std::mutex mutex;
  std::unordered_map<std::string, std::unique_ptr<NounInfo>> nouns;
  std::unordered_map<std::string, std::string> top_counterpart;  // for kMutual
  // Counterparts per lemma ("Actors", "actor" and "actors" share one vector search).
  struct LemmaCounterparts {
    std::vector<std::vector<CounterpartCandidate>> candidates;
    std::vector<std::size_t> chosen;
    std::vector<DroppedCandidate> dropped;
  };
  std::unordered_map<std::string, std::shared_ptr<const LemmaCounterparts>> by_lemma;
  // Analogy searches by search_key (prepare() runs many at once; see most_similar_many).
  std::unordered_map<std::string, std::vector<vectors::Neighbor>> searches;
  text::TagId nn = 0, nns = 0, nnp = 0, nnps = 0;
  std::vector<bool> blocks_active;  // per tag: jj* and nn* before a noun block ActiveMutate
  // Per tag, for pronouns: a word "her"/"his" may determine (nn*, jj*, cd), and of those the
  // adjectives and numbers, which need a noun after them.
  std::vector<bool> nominal, adjective_like;
  std::vector<std::optional<std::size_t>> anchor_rows;  // per group, in the vector matrix
  std::unique_ptr<GroupWords> group_words;              // file attributes
  // The associated words of a file attribute and their plurals → (row, plural).
  std::unordered_map<std::string, std::pair<std::size_t, bool>> associated_forms;
  std::unordered_set<knowledge::NodeId> group_nodes;
  // Gender: nouns whose most frequent sense is an animal ("the dog"), for co-reference.
  std::unique_ptr<knowledge::PersonClassifier> animals;
};

}  // namespace assay::fairness
