#include "fairness/perturbator.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <set>
#include <unordered_set>

#include "core/error.h"
#include "core/utf8.h"
#include "fairness/coreference.h"
#include "fairness/group_words.h"
#include "fairness/person_context.h"
#include "text/sentence_splitter.h"
#include "text/text_edit.h"
#include "text/unicode_props.h"
#include "vectors/similarity_search.h"

namespace assay::fairness {
namespace {

// Whether tokens a and b lie in one sentence (`sentence_start[t]`: token t begins one).
bool same_sentence_tokens(const std::vector<bool>& sentence_start, std::size_t a, std::size_t b) {
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
bool is_pronoun_noun(std::string_view w) {
  static const char* const kWords[] = {"someone",   "somebody", "anyone", "anybody", "everyone",
                                       "everybody", "noone",    "nobody", "one",     "ones"};
  for (const char* p : kWords) {
    if (w == p) return true;
  }
  return false;
}

// The words of a gloss's first clause, lower case, without gender words.
std::vector<std::string> ungendered_clause(std::string_view gloss) {
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
bool mentions(std::string_view text, std::string_view word) {
  auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  for (std::size_t at = text.find(word); at != std::string_view::npos;
       at = text.find(word, at + 1)) {
    const std::size_t end = at + word.size();
    if ((at == 0 || !letter(text[at - 1])) && (end >= text.size() || !letter(text[end])))
      return true;
  }
  return false;
}

std::string fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4f", v);
  return buf;
}

// The words of a query, as one cache key.
std::string search_key(const vectors::SimilarityQuery& q) {
  std::string key;
  for (const auto& w : q.positive) key += "+" + w + "\t";
  for (const auto& w : q.negative) key += "-" + w + "\t";
  return key;
}

bool is_noun_word(std::string_view w) {
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

bool all_upper(std::string_view w) {
  bool letter = false;
  for (char c : w) {
    if (c >= 'a' && c <= 'z') return false;
    letter |= c >= 'A' && c <= 'Z';
  }
  return letter;
}

bool upper_first(std::string_view w) {
  return !w.empty() && w[0] >= 'A' && w[0] <= 'Z';
}

std::string to_upper_ascii(std::string s) {
  for (char& c : s) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return s;
}

std::vector<std::string> lower_words(std::string_view phrase) {
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

// An abbreviation's word without its final dot ("Mr." -> "Mr").
std::string_view without_dot(std::string_view w) {
  return w.size() > 1 && w.back() == '.' ? w.substr(0, w.size() - 1) : w;
}

std::string underscores_to_spaces(std::string w) {
  std::replace(w.begin(), w.end(), '_', ' ');
  return w;
}

}  // namespace

std::string_view to_string(MutationKind kind) {
  switch (kind) {
    case MutationKind::kAnalogy:
      return "analogy";
    case MutationKind::kActive:
      return "active";
    case MutationKind::kName:
      return "name";
    case MutationKind::kGroup:
      return "group";
  }
  return "analogy";
}

std::size_t PerturbationSet::count(MutationKind kind) const {
  return static_cast<std::size_t>(std::count_if(perturbations.begin(), perturbations.end(),
                                                [&](const auto& p) { return p.kind == kind; }));
}

std::string_view to_string(CounterpartChoice c) {
  switch (c) {
    case CounterpartChoice::kRank:
      return "rank";
    case CounterpartChoice::kFrequency:
      return "frequency";
    case CounterpartChoice::kMutual:
      return "mutual";
    case CounterpartChoice::kContext:
      return "context";
  }
  return "rank";
}

CounterpartChoice parse_counterpart_choice(std::string_view name) {
  if (name == "rank") return CounterpartChoice::kRank;
  if (name == "frequency") return CounterpartChoice::kFrequency;
  if (name == "mutual") return CounterpartChoice::kMutual;
  if (name == "context") return CounterpartChoice::kContext;
  throw core::UsageError("--choice must be rank, frequency, mutual or context; got '" +
                         std::string(name) + "'");
}

struct Perturbator::NounInfo {
  bool person = false;
  std::string lemma;
  bool neutral = false;
  knowledge::Gender gender = knowledge::Gender::kNone;        // gender only (noun_gender)
  std::vector<std::vector<CounterpartCandidate>> candidates;  // per group
  std::vector<std::size_t> chosen;                            // per group (context-free)
  std::vector<DroppedCandidate> dropped;
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
};

Perturbator::Perturbator(const PerturbatorResources& resources, SensitiveAttribute attribute,
                         PerturbatorOptions options)
    : r_(resources),
      attribute_(std::move(attribute)),
      options_(options),
      fluency_(*resources.lm),
      impl_(std::make_unique<Impl>()) {
  if (attribute_.groups.size() < 2)
    throw core::UsageError("attribute '" + attribute_.name + "' needs at least two groups");
  if (attribute_.uses_gender_finder && !r_.finder)
    throw core::UsageError("the gender attribute needs the knowledge graph's gender finder");
  const auto& tables = r_.tagger->tables();
  impl_->nn = tables.find_tag("nn").value_or(0);
  impl_->nns = tables.find_tag("nns").value_or(0);
  impl_->nnp = tables.find_tag("nnp").value_or(0);
  impl_->nnps = tables.find_tag("nnps").value_or(0);
  impl_->blocks_active.assign(tables.n_tags(), false);
  for (std::size_t t = 0; t < tables.n_tags(); ++t) {
    const auto name = tables.tag_name(static_cast<text::TagId>(t));
    impl_->blocks_active[t] = name.rfind("jj", 0) == 0 || name.rfind("nn", 0) == 0;
  }
  impl_->nominal.assign(tables.n_tags(), false);
  impl_->adjective_like.assign(tables.n_tags(), false);
  for (std::size_t t = 0; t < tables.n_tags(); ++t) {
    const auto name = tables.tag_name(static_cast<text::TagId>(t));
    impl_->adjective_like[t] = name.rfind("jj", 0) == 0 || name == "cd";
    impl_->nominal[t] = impl_->adjective_like[t] || name.rfind("nn", 0) == 0;
  }
  if (r_.vectors) {
    for (const auto& g : attribute_.groups) {
      std::optional<std::size_t> row;
      for (const auto& a : g.anchors) {
        if ((row = r_.vectors->find(a))) break;
      }
      impl_->anchor_rows.push_back(row);
    }
  }
  if (!attribute_.uses_gender_finder) {
    impl_->group_words = std::make_unique<GroupWords>(attribute_, *r_.inflector, tables);
    for (std::size_t row = 0; row < attribute_.associated.size(); ++row) {
      for (const auto& w : attribute_.associated[row]) {
        if (w.empty()) continue;
        impl_->associated_forms.try_emplace(w, row, false);
        impl_->associated_forms.try_emplace(r_.inflector->pluralize(w), row, true);
      }
    }
    const auto& graph = *r_.graph;
    for (std::size_t g = 0; g < attribute_.groups.size(); ++g) {
      std::vector<std::string> words = {attribute_.groups[g].name,
                                        text::to_lower(attribute_.groups[g].active)};
      for (const auto& row : attribute_.members) words.push_back(row[g]);
      for (const auto& w : words) {
        if (w.empty()) continue;
        for (const auto n : graph.noun_senses(w)) impl_->group_nodes.insert(n);
      }
    }
  }
}

Perturbator::~Perturbator() = default;

// IsPerson for perturbation: the classifier's answer, narrowed to nouns whose most frequent
// sense is a person or that have a gender (queen: sense 1 is the insect), and never a named
// individual (WordNet spells those capitalised: "Barrymore", lower-cased in rt-polarity).
// Without the narrowing "case", "hand", "life", "sun" and "subject" count as persons through
// rare person senses.
bool Perturbator::is_perturbable_person(const std::string& lemma) const {
  if (is_pronoun_noun(lemma)) return false;
  if (attribute_.uses_gender_finder && r_.gender_lexicon && r_.gender_lexicon->find(lemma))
    return true;
  const auto& persons = *r_.persons;
  if (!persons.is_person(lemma)) return false;
  if (!options_.narrow_persons) return true;
  const auto& graph = *r_.graph;
  const auto senses = graph.noun_senses(lemma);
  if (senses.empty()) return false;
  for (const auto s : persons.considered_senses(lemma)) {
    if (!persons.sense_is_person(s)) continue;
    bool common = false;
    for (const auto& w : graph.node_words(s)) common |= w == lemma;
    if (!common) return false;  // only a capitalised (proper) spelling names this sense
    break;
  }
  if (persons.sense_is_person(senses.front())) return true;
  // A noun whose most frequent sense is not a person is one only when it has a gender through
  // the lexicon (queen) — not through a rare sense ("bull": a heavyset man) — or is a member
  // noun of the attribute file.
  if (attribute_.uses_gender_finder) {
    return r_.gender_lexicon ? false : r_.finder->gender_of(lemma) != knowledge::Gender::kNone;
  }
  return attribute_.find_member(lemma).has_value();
}

std::optional<std::string> Perturbator::person_lemma(std::string_view word, bool plural) const {
  const std::string lower = text::to_lower(word);
  struct {
    const Perturbator* self;
    bool is_person(const std::string& w) const { return self->is_perturbable_person(w); }
  } persons{this};
  if (plural) {
    const auto forms = r_.lemmatizer->morphy(lower, text::PartOfSpeech::kNoun);
    for (const auto& f : forms) {
      if (f != lower && persons.is_person(f)) return f;
    }
    if (persons.is_person(lower)) return lower;
    return std::nullopt;
  }
  if (persons.is_person(lower)) return lower;
  return std::nullopt;
}

// A gloss-derived counterpart must be defined through the noun itself or define it: "actress:
// a female actor", "waitress: a woman waiter" — not "manageress: a woman manager" for
// director, whose synset merely contains "manager". Backends without glosses pass.
bool Perturbator::glosses_link(const std::string& lemma, const std::string& counterpart) const {
  const auto& graph = *r_.graph;
  if (graph.backend_name() != "wordnet") return true;
  const std::string a = knowledge::normalize_term(lemma),
                    b = knowledge::normalize_term(counterpart);
  std::string spaced_a = a, spaced_b = b;
  std::replace(spaced_a.begin(), spaced_a.end(), '_', ' ');
  std::replace(spaced_b.begin(), spaced_b.end(), '_', ' ');
  for (const auto s : graph.noun_senses(b)) {
    if (mentions(graph.gloss(s), spaced_a)) return true;
  }
  for (const auto s : graph.noun_senses(a)) {
    if (mentions(graph.gloss(s), spaced_b)) return true;
  }
  // Or the two are defined alike but for the gender word: "a female grandchild" and "a male
  // grandchild" (granddaughter / grandson).
  std::set<std::vector<std::string>> defined;
  for (const auto s : graph.noun_senses(a)) defined.insert(ungendered_clause(graph.gloss(s)));
  for (const auto s : graph.noun_senses(b)) {
    const auto clause = ungendered_clause(graph.gloss(s));
    if (clause.size() >= 2 && defined.count(clause)) return true;
  }
  return false;
}

// The gender of the noun's most frequent person sense (nurse: none, though its "nanny" sense
// is female), or of its -man / -woman form (chairman).
knowledge::Gender Perturbator::primary_gender(const std::string& lemma) const {
  const auto& finder = *r_.finder;
  for (const auto s : r_.persons->considered_senses(lemma)) {
    if (!r_.persons->sense_is_person(s)) continue;
    const auto g = finder.sense_gender(s);
    if (g != knowledge::Gender::kNone) return g;
    break;
  }
  const bool compound = (lemma.size() > 3 && lemma.compare(lemma.size() - 3, 3, "man") == 0);
  return compound ? finder.gender_of(lemma) : knowledge::Gender::kNone;
}

knowledge::Gender Perturbator::noun_gender(const std::string& lemma) const {
  if (r_.gender_lexicon) {
    if (const auto* e = r_.gender_lexicon->find(lemma)) return e->gender;
  }
  return primary_gender(lemma);
}

knowledge::Gender Perturbator::compound_gender(const std::string& lemma) const {
  // "jazzman", "frontman", "camerawoman": a word the tagger or WordNet knows, then man/woman
  // ("human", "shaman", "german" have no such word before "man").
  auto stem_known = [&](std::string_view stem) {
    if (stem.size() < 3) return false;
    const std::string w(stem);
    return r_.tagger->tables().find_word(w) != nullptr || !r_.graph->noun_senses(w).empty();
  };
  auto ends = [&](std::string_view suffix) {
    return lemma.size() > suffix.size() &&
           std::string_view(lemma).substr(lemma.size() - suffix.size()) == suffix;
  };
  if (ends("woman"))
    return stem_known(std::string_view(lemma).substr(0, lemma.size() - 5))
               ? knowledge::Gender::kFemale
               : knowledge::Gender::kNone;
  if (ends("man"))
    return stem_known(std::string_view(lemma).substr(0, lemma.size() - 3))
               ? knowledge::Gender::kMale
               : knowledge::Gender::kNone;
  return knowledge::Gender::kNone;
}

bool Perturbator::is_neutral(const std::string& lemma) const {
  if (attribute_.uses_gender_finder)
    return noun_gender(lemma) == knowledge::Gender::kNone &&
           compound_gender(lemma) == knowledge::Gender::kNone;
  if (attribute_.find_member(lemma) || attribute_.is_attribute_word(lemma)) return false;
  if (std::find(attribute_.exempt.begin(), attribute_.exempt.end(), lemma) !=
      attribute_.exempt.end())
    return false;
  const auto& graph = *r_.graph;
  std::unordered_set<knowledge::NodeId> seen;
  std::vector<knowledge::NodeId> frontier;
  for (const auto s : r_.persons->considered_senses(lemma)) {
    if (seen.insert(s).second) frontier.push_back(s);
  }
  for (std::size_t hop = 0; hop <= kGroupHops && !frontier.empty(); ++hop) {
    std::vector<knowledge::NodeId> next;
    for (const auto n : frontier) {
      if (impl_->group_nodes.count(n)) return false;
      for (const auto& h : graph.hypernyms(n)) {
        if (seen.insert(h.node).second) next.push_back(h.node);
      }
    }
    frontier = std::move(next);
  }
  return true;
}

std::optional<std::size_t> Perturbator::nearest_group(const std::string& lemma) const {
  const auto& m = *r_.vectors;
  const auto t_row = m.find(lemma);
  if (!t_row) return std::nullopt;
  std::optional<std::size_t> nearest;
  // pt: the group the knowledge graph gives the noun when it knows one (king: male), else
  // the nearest anchor (Algorithm 3; low-dimensional vectors put "king" nearer "woman").
  if (attribute_.uses_gender_finder) {
    const auto g = r_.finder->gender_of(lemma);
    if (g != knowledge::Gender::kNone) nearest = g == knowledge::Gender::kMale ? 0 : 1;
    if (nearest && !impl_->anchor_rows[*nearest]) nearest.reset();
  }
  double best = -std::numeric_limits<double>::infinity();
  for (std::size_t g = 0; !nearest.has_value() && g < attribute_.groups.size(); ++g) {
    const auto row = impl_->anchor_rows[g];
    if (!row) continue;
    double dot = 0;
    const auto a = m.row(*row), b = m.row(*t_row);
    for (std::size_t k = 0; k < m.dim(); ++k) dot += static_cast<double>(a[k]) * b[k];
    if (dot > best) {
      best = dot;  // unit rows: largest cosine = smallest Euclidean distance
      nearest = g;
    }
  }
  return nearest;
}

std::vector<vectors::SimilarityQuery> Perturbator::analogy_queries(const std::string& lemma) const {
  std::vector<vectors::SimilarityQuery> out;
  const auto nearest = nearest_group(lemma);
  if (!nearest) return out;
  const auto& m = *r_.vectors;
  const auto pt = m.word(*impl_->anchor_rows[*nearest]);
  for (std::size_t g = 0; g < attribute_.groups.size(); ++g) {
    if (g == *nearest || !impl_->anchor_rows[g]) continue;
    out.push_back(vectors::analogy_query(pt, m.word(*impl_->anchor_rows[g]), lemma));
  }
  return out;
}

vectors::SearchOptions Perturbator::search_options() const {
  vectors::SearchOptions search;
  search.top_k = options_.strict ? 10 : 1;
  search.restrict_to = options_.vectors_restrict;
  return search;
}

std::vector<vectors::Neighbor> Perturbator::analogy_neighbours(
    const vectors::SimilarityQuery& query) const {
  const std::string key = search_key(query);
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    const auto it = impl_->searches.find(key);
    if (it != impl_->searches.end()) return it->second;
  }
  auto found = vectors::most_similar_many(*r_.vectors, std::span(&query, 1), search_options());
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->searches.emplace(key, std::move(found[0])).first->second;
}

std::vector<std::pair<std::size_t, bool>> Perturbator::noun_tokens(
    std::string_view text, const text::TaggedText& tagged,
    const std::vector<bool>& sentence_start) const {
  std::vector<std::pair<std::size_t, bool>> out;
  const auto& tokens = tagged.tokens;
  const auto& tables = r_.tagger->tables();
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const auto tag = tagged.tags[i];
    const auto surface = tokens[i].surface(text);
    bool plural = tag == impl_->nns;
    if ((tag == impl_->nnp || tag == impl_->nnps) && is_title(surface)) {
      out.emplace_back(i, false);  // "Mr.", "Mrs", "Sir" before a name
      continue;
    }
    if (tag != impl_->nn && tag != impl_->nns) {
      // Lingua tags a capitalised word at the start of a sentence nnp / nnps ("Actresses
      // deserve ..."); it is a common noun when the lexicon knows its lower-case form as one.
      if (!sentence_start[i] || (tag != impl_->nnp && tag != impl_->nnps)) continue;
      const std::string lower = text::lower_first(surface);
      bool common = false;
      if (const auto* counts = r_.tagger->tables().find_word(lower)) {
        for (const auto& c : *counts) {
          common |= c.tag == impl_->nn || c.tag == impl_->nns;
          plural |= c.tag == impl_->nns;
        }
      } else {
        // Unknown to the lexicon: a regular plural of a WordNet noun ("Actresses"); names are
        // seldom plural, so "Mary" stays a name.
        for (const auto& f :
             r_.lemmatizer->morphy(text::to_lower(lower), text::PartOfSpeech::kNoun)) {
          if (f != text::to_lower(lower)) common = plural = true;
        }
      }
      if (!common) continue;
    }
    if (!is_noun_word(surface)) continue;
    // A verb the tagger read as a plural noun: after a noun, before a determiner ("the
    // actress hosts a show", "the city hosts a festival").
    if (tag == impl_->nns && i > 0 && i + 1 < tokens.size()) {
      const auto before = tables.tag_name(tagged.tags[i - 1]);
      const auto after = tables.tag_name(tagged.tags[i + 1]);
      if ((before == "nn" || before == "nnp") && (after == "det" || after == "prps")) continue;
    }
    // A quantity, not a person: "a host of problems".
    if (i + 1 < tokens.size() && text::to_lower(surface) == "host" &&
        text::to_lower(tokens[i + 1].text) == "of")
      continue;
    out.emplace_back(i, plural);
  }
  return out;
}

void Perturbator::prepare(std::span<const std::string_view> texts) const {
  if (!r_.vectors || !options_.analogy) return;
  std::set<std::string> lemmas;
  for (const auto text : texts) {
    // A text perturb() will reject is skipped here, so that perturb() reports it.
    if (core::find_invalid_utf8(text)) continue;
    text::TaggedText tagged;
    try {
      tagged = r_.tagger->tag_text(text);
    } catch (const core::Error&) {
      continue;
    }
    std::vector<bool> sentence_start(tagged.tokens.size(), false);
    for (const auto& sen : text::split_sentences(tagged.tokens))
      sentence_start[sen.first_token] = true;
    for (const auto& [i, plural] : noun_tokens(text, tagged, sentence_start)) {
      const auto surface = tagged.tokens[i].surface(text);
      std::string key = text::to_lower(surface);
      key += plural ? "\t2" : "\t1";
      {
        std::lock_guard<std::mutex> lock(impl_->mutex);
        if (impl_->nouns.count(key)) continue;
      }
      if (auto lemma = person_lemma(surface, plural)) lemmas.insert(std::move(*lemma));
    }
  }
  std::vector<vectors::SimilarityQuery> queries;
  std::set<std::string> keys;
  for (const auto& lemma : lemmas) {
    {
      std::lock_guard<std::mutex> lock(impl_->mutex);
      if (impl_->by_lemma.count(lemma)) continue;
    }
    for (auto& q : analogy_queries(lemma)) {
      std::string key = search_key(q);
      {
        std::lock_guard<std::mutex> lock(impl_->mutex);
        if (impl_->searches.count(key)) continue;
      }
      if (keys.insert(std::move(key)).second) queries.push_back(std::move(q));
    }
  }
  if (queries.empty()) return;
  auto found = vectors::most_similar_many(*r_.vectors, queries, search_options());
  std::lock_guard<std::mutex> lock(impl_->mutex);
  for (std::size_t i = 0; i < queries.size(); ++i)
    impl_->searches.emplace(search_key(queries[i]), std::move(found[i]));
}

std::vector<std::vector<CounterpartCandidate>> Perturbator::counterparts(
    const std::string& lemma, std::vector<DroppedCandidate>* dropped) const {
  const std::size_t n_groups = attribute_.groups.size();
  std::vector<std::vector<CounterpartCandidate>> out(n_groups);
  auto drop = [&](std::size_t group, const std::string& word, std::string reason) {
    if (dropped) {
      dropped->push_back(
          {MutationKind::kAnalogy, attribute_.groups[group].name, lemma, word, std::move(reason)});
    }
  };
  if (attribute_.uses_gender_finder && r_.gender_lexicon) {
    // The curated lexicon first; the graph and the vectors serve only the nouns it lacks, and
    // only nouns that have a gender: a neutral noun (singer, doctor) has no counterpart of
    // the other gender (singer -> baritone changes the role); ActiveMutate serves it.
    if (const auto* e = r_.gender_lexicon->find(lemma)) {
      const std::size_t g = e->gender == knowledge::Gender::kMale ? 1 : 0;
      out[g].push_back({e->counterpart, "lexicon:" + e->category, 1.0});
      return out;
    }
    if (primary_gender(lemma) == knowledge::Gender::kNone) return out;
  }
  // Gender: a graph or vector counterpart must be a person noun whose own most frequent person
  // sense has the target group's gender (not man -> girl by vectors, not bull -> amazon).
  auto gendered_person = [&](const std::string& word, std::size_t group) {
    if (!attribute_.uses_gender_finder || !r_.gender_lexicon) return true;
    if (!is_perturbable_person(word)) return false;
    const auto want = group == 0 ? knowledge::Gender::kMale : knowledge::Gender::kFemale;
    return noun_gender(word) == want;
  };
  if (r_.vectors) {
    // Algorithm 3: the nearest group anchor pt, then t + W(p) - W(pt) for every other group.
    const auto& m = *r_.vectors;
    if (!m.find(lemma)) {
      drop(0, "", "no vector for '" + lemma + "'");
      return out;
    }
    const auto nearest = nearest_group(lemma);
    if (!nearest) return out;
    const auto pt = m.word(*impl_->anchor_rows[*nearest]);
    for (std::size_t g = 0; g < n_groups; ++g) {
      if (g == *nearest || !impl_->anchor_rows[g]) continue;
      const auto p = m.word(*impl_->anchor_rows[g]);
      const auto found = analogy_neighbours(vectors::analogy_query(pt, p, lemma));
      // Strict: the first of the neighbours above the threshold that the graph confirms.
      for (const auto& f : found) {
        const std::string& word = m.word(f.index);
        if (f.similarity < options_.min_cosine) {
          drop(g, word, "cosine " + fmt(f.similarity) + " < " + fmt(options_.min_cosine));
          break;
        }
        const std::string w = text::to_lower(word);
        if (w != word || !is_noun_word(w)) {
          drop(g, word, "not a lower-case noun");
          continue;
        }
        if (options_.strict) {
          bool linked = false;
          if (attribute_.uses_gender_finder) {
            for (const auto& c : r_.finder->counterparts(lemma)) linked |= c.word == w;
            // Also the reverse link (empress -> emperor) and the counterpart's own gender.
            if (!linked) {
              for (const auto& c : r_.finder->counterparts(w)) linked |= c.word == lemma;
            }
          } else {
            linked = is_perturbable_person(w);
          }
          if (linked && !gendered_person(w, g)) {
            drop(g, w, "strict: not a person noun of the other gender");
            continue;
          }
          if (!linked) {
            drop(g, w,
                 attribute_.uses_gender_finder ? "strict: not a gendered counterpart of '" + lemma +
                                                     "' in the knowledge graph"
                                               : "strict: not a person in the knowledge graph");
            continue;
          }
        }
        out[g].push_back({w, "vectors", f.similarity});
        break;
      }
    }
    return out;
  }
  if (attribute_.uses_gender_finder) {
    const auto& finder = *r_.finder;
    const auto own = finder.gender_of(lemma);
    const auto primary = primary_gender(lemma);
    auto target_group = [&](const knowledge::Counterpart& c) -> std::optional<std::size_t> {
      auto target = c.gender;
      if (target == knowledge::Gender::kNone) {
        target = own == knowledge::Gender::kMale     ? knowledge::Gender::kFemale
                 : own == knowledge::Gender::kFemale ? knowledge::Gender::kMale
                                                     : knowledge::Gender::kNone;
      }
      if (target == knowledge::Gender::kNone || target == own) return std::nullopt;
      return target == knowledge::Gender::kMale ? 0 : 1;
    };
    for (const auto& c : finder.counterparts(lemma)) {
      if (c.evidence == knowledge::CounterpartEvidence::kGlossSwap && c.score < kMinGlossSwap) {
        if (const auto g = target_group(c))
          drop(*g, underscores_to_spaces(c.word), "weak gloss match (beauty -> old man)");
        continue;
      }
      if ((c.evidence == knowledge::CounterpartEvidence::kGloss ||
           c.evidence == knowledge::CounterpartEvidence::kHyponymGloss) &&
          !glosses_link(lemma, c.word)) {
        if (const auto g = target_group(c)) {
          drop(*g, underscores_to_spaces(c.word),
               "the gloss names a synonym, not the noun (director -> manageress)");
        }
        continue;
      }
      if (primary == knowledge::Gender::kNone &&
          c.evidence == knowledge::CounterpartEvidence::kGlossSwap) {
        if (const auto g = target_group(c)) {
          drop(*g, underscores_to_spaces(c.word),
               "from a gendered secondary sense; the most frequent sense has no gender");
        }
        continue;
      }
      auto target = c.gender;
      if (target == knowledge::Gender::kNone) {
        target = own == knowledge::Gender::kMale     ? knowledge::Gender::kFemale
                 : own == knowledge::Gender::kFemale ? knowledge::Gender::kMale
                                                     : knowledge::Gender::kNone;
      }
      if (target == knowledge::Gender::kNone || target == own) continue;
      const std::size_t g = target == knowledge::Gender::kMale ? 0 : 1;
      if (!gendered_person(underscores_to_spaces(c.word), g)) {
        drop(g, underscores_to_spaces(c.word), "not a person noun of the other gender");
        continue;
      }
      out[g].push_back(
          {underscores_to_spaces(c.word), std::string(knowledge::to_string(c.evidence)), c.score});
    }
    // Reverse evidence: a sibling of the opposite gender whose own counterparts name this noun
    // (emperor has none, but empress -> emperor).
    if (own != knowledge::Gender::kNone) {
      const std::size_t g = own == knowledge::Gender::kMale ? 1 : 0;
      // The only direct hyponym of the opposite gender (emperor -> empress, "a woman emperor
      // or the wife of an emperor").
      if (out[g].empty()) {
        const auto& graph = *r_.graph;
        const auto want =
            own == knowledge::Gender::kMale ? knowledge::Gender::kFemale : knowledge::Gender::kMale;
        std::vector<std::string> found;
        for (const auto s : r_.persons->considered_senses(lemma)) {
          if (!r_.persons->sense_is_person(s)) continue;
          for (const auto& h : graph.hyponyms(s)) {
            if (finder.sense_gender(h.node) != want) continue;
            const auto words = graph.node_words(h.node);
            if (!words.empty()) found.push_back(knowledge::normalize_term(words.front()));
          }
        }
        if (found.size() == 1 && gendered_person(underscores_to_spaces(found[0]), g))
          out[g].push_back({underscores_to_spaces(found[0]), "gendered_hyponym", 0.6});
      }
      const auto want =
          own == knowledge::Gender::kMale ? knowledge::Gender::kFemale : knowledge::Gender::kMale;
      if (out[g].empty()) {
        const auto& graph = *r_.graph;
        std::set<std::string> tried;
        for (const auto s : r_.persons->considered_senses(lemma)) {
          if (!r_.persons->sense_is_person(s)) continue;
          for (const auto& h : graph.hypernyms(s)) {
            for (const auto& sib : graph.hyponyms(h.node)) {
              if (sib.node == s || finder.sense_gender(sib.node) != want) continue;
              for (const auto& w : graph.node_words(sib.node)) {
                const std::string word = knowledge::normalize_term(w);
                if (word != w || !tried.insert(word).second) continue;
                for (const auto& back : finder.counterparts(word)) {
                  if (back.evidence == knowledge::CounterpartEvidence::kGlossSwap &&
                      back.score < kMinGlossSwap)
                    continue;
                  if (back.word == lemma && gendered_person(underscores_to_spaces(word), g)) {
                    out[g].push_back({underscores_to_spaces(word),
                                      "reverse_" + std::string(knowledge::to_string(back.evidence)),
                                      back.score - 0.1});
                    break;
                  }
                }
              }
            }
          }
        }
      }
    }
    return out;
  }
  if (const auto hit = attribute_.find_member(lemma)) {
    for (std::size_t g = 0; g < n_groups; ++g) {
      const auto& w = attribute_.members[hit->row][g];
      if (g != hit->group && !w.empty()) out[g].push_back({w, "member", 1.0});
    }
  }
  return out;
}

std::optional<std::string> Perturbator::choose_counterpart(const std::string& lemma,
                                                           std::size_t group) const {
  const auto cands = counterparts(lemma);
  if (group >= cands.size() || cands[group].empty()) return std::nullopt;
  const auto& list = cands[group];
  std::size_t pick = 0;
  const auto choice = options_.choice == CounterpartChoice::kContext ? CounterpartChoice::kFrequency
                                                                     : options_.choice;
  if (list.size() > 1 && choice == CounterpartChoice::kFrequency) {
    double best = -std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < list.size(); ++i) {
      double lp = 0;
      for (const auto& w : lower_words(list[i].word)) lp += fluency_.unigram_log_prob(w);
      if (lp > best) {
        best = lp;
        pick = i;
      }
    }
  } else if (list.size() > 1 && choice == CounterpartChoice::kMutual) {
    for (std::size_t i = 0; i < list.size(); ++i) {
      std::string top;
      {
        std::lock_guard<std::mutex> lock(impl_->mutex);
        const auto it = impl_->top_counterpart.find(list[i].word);
        if (it != impl_->top_counterpart.end()) top = it->second;
      }
      if (top.empty()) {
        const auto back = counterparts(list[i].word);
        double best = -1;
        for (const auto& g : back) {
          if (!g.empty() && g.front().score > best) {
            best = g.front().score;
            top = g.front().word;
          }
        }
        if (top.empty()) top = "\t";  // none
        std::lock_guard<std::mutex> lock(impl_->mutex);
        impl_->top_counterpart.emplace(list[i].word, top);
      }
      if (top == lemma) {
        pick = i;
        break;
      }
    }
  }
  return list[pick].word;
}

const Perturbator::NounInfo& Perturbator::noun_info(const std::string& key, std::string_view word,
                                                    bool plural) const {
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    const auto it = impl_->nouns.find(key);
    if (it != impl_->nouns.end()) return *it->second;
  }
  auto info = std::make_unique<NounInfo>();
  if (const auto lemma = person_lemma(word, plural)) {
    info->person = true;
    info->lemma = *lemma;
    info->neutral = is_neutral(*lemma);
    if (attribute_.uses_gender_finder) {
      info->gender = noun_gender(*lemma);
      if (info->gender == knowledge::Gender::kNone) info->gender = compound_gender(*lemma);
    }
    if (options_.analogy) {
      std::shared_ptr<const Impl::LemmaCounterparts> known;
      {
        std::lock_guard<std::mutex> lock(impl_->mutex);
        const auto it = impl_->by_lemma.find(*lemma);
        if (it != impl_->by_lemma.end()) known = it->second;
      }
      if (!known) {
        auto c = std::make_shared<Impl::LemmaCounterparts>();
        c->candidates = counterparts(*lemma, &c->dropped);
        c->chosen.assign(c->candidates.size(), 0);
        for (std::size_t g = 0; g < c->candidates.size(); ++g) {
          const auto& list = c->candidates[g];
          if (list.size() < 2) continue;
          const auto pick = choose_counterpart(*lemma, g);
          for (std::size_t i = 0; i < list.size(); ++i) {
            if (list[i].word == *pick) c->chosen[g] = i;
          }
        }
        std::lock_guard<std::mutex> lock(impl_->mutex);
        known = impl_->by_lemma.emplace(*lemma, std::move(c)).first->second;
      }
      info->candidates = known->candidates;
      info->chosen = known->chosen;
      info->dropped = known->dropped;
    } else {
      info->candidates.assign(attribute_.groups.size(), {});
      info->chosen.assign(attribute_.groups.size(), 0);
    }
  }
  std::lock_guard<std::mutex> lock(impl_->mutex);
  const auto [it, inserted] = impl_->nouns.emplace(key, std::move(info));
  return *it->second;
}

bool Perturbator::common_noun_sense(const std::string& word) const {
  const auto& graph = *r_.graph;
  for (const auto& lemma : r_.lemmatizer->morphy(word, text::PartOfSpeech::kNoun)) {
    for (const auto s : graph.noun_senses(lemma)) {
      for (const auto& w : graph.node_words(s)) {
        if (w == lemma) return true;
      }
    }
  }
  return false;
}

bool Perturbator::reads_as_name(const std::string& word) const {
  const auto& tables = r_.tagger->tables();
  if (tables.find_word(word)) return false;
  if (const auto* counts = tables.find_word(text::upper_first(word))) {
    for (const auto& c : *counts) {
      if (c.tag == impl_->nnp || c.tag == impl_->nnps) return true;
    }
  }
  return !common_noun_sense(word);
}

bool Perturbator::is_title(std::string_view word) const {
  if (!attribute_.uses_gender_finder || !r_.gender_lexicon) return false;
  const auto* e = r_.gender_lexicon->find(text::to_lower(without_dot(word)));
  return e && e->category == "address";
}

std::vector<std::pair<std::size_t, knowledge::Gender>> Perturbator::name_tokens(
    std::string_view text, const text::TaggedText& tagged, const std::vector<bool>& sentence_start,
    const PersonContext& context, std::vector<DroppedCandidate>& dropped) const {
  std::vector<std::pair<std::size_t, knowledge::Gender>> out;
  const auto& tables = r_.tagger->tables();
  const auto& tokens = tagged.tokens;
  // The names perturbed: the first-name lists for gender, the attribute's `names` rows else.
  const auto gender_of = [&](std::string_view w) {
    if (attribute_.uses_gender_finder)
      return r_.first_names ? r_.first_names->gender_of(w) : knowledge::Gender::kNone;
    const auto hit = attribute_.find_name(w);
    if (!hit) return knowledge::Gender::kNone;
    return hit->female ? knowledge::Gender::kFemale : knowledge::Gender::kMale;
  };
  // Any first name, for the places around a name ("John Wayne": a surname after a name).
  const auto any_first_name = [&](std::string_view w) {
    return gender_of(w) != knowledge::Gender::kNone ||
           (r_.first_names && r_.first_names->gender_of(w) != knowledge::Gender::kNone);
  };
  // Surnames of the text's full names ("Dr. Mark Powell"): the capitalised word that ends a
  // name after a first name. Alone elsewhere in the text it is that person's surname ("But
  // it's Powell's job"), even where the lists know it as a first name too.
  std::set<std::string> surnames;
  for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
    const auto first = tokens[i].surface(text);
    const auto next = tokens[i + 1].surface(text);
    if (!context.case_informative() || sentence_start[i + 1] || !upper_first(first) ||
        !upper_first(next) || all_upper(next) || !is_noun_word(next) || !any_first_name(first))
      continue;
    if (i + 2 < tokens.size() && !sentence_start[i + 2] &&
        upper_first(tokens[i + 2].surface(text)))
      continue;  // not the end of the name
    surnames.insert(std::string(next));
  }
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const auto surface = tokens[i].surface(text);
    if (!is_noun_word(surface) || all_upper(surface)) continue;
    const auto gender = gender_of(surface);
    if (gender == knowledge::Gender::kNone) continue;
    const bool in_full_name = (i + 1 < tokens.size() && !sentence_start[i + 1] &&
                               upper_first(tokens[i + 1].surface(text))) ||
                              (i > 0 && !sentence_start[i] && any_first_name(tokens[i - 1].surface(text)));
    if (surnames.count(std::string(surface)) && !in_full_name) {
      dropped.push_back({MutationKind::kName, "", std::string(surface), "",
                         "not a name here: the surname of a full name in the text"});
      continue;
    }
    // A first name the tagger's lexicon also knows in lower case, before a capitalised word
    // that is a common word there or in WordNet, begins a title or a name of a thing ("Star
    // Trek", "Red Delicious"; not "Nick Cage": "nick" is not in that lexicon).
    const auto common_word = [&](std::string_view w) {
      const std::string lower = text::to_lower(w);
      return tables.find_word(lower) != nullptr || common_noun_sense(lower);
    };
    if (upper_first(surface) && tables.find_word(text::to_lower(surface)) &&
        i + 1 < tokens.size() && !sentence_start[i + 1]) {
      const auto next = tokens[i + 1].surface(text);
      if (upper_first(next) && !all_upper(next) && is_noun_word(next) && !any_first_name(next) &&
          common_word(next) && !lexicon_word(text::to_lower(without_dot(next)))) {
        dropped.push_back({MutationKind::kName, "", std::string(surface), "",
                           "not a name here: part of a title, before the common word '" +
                               std::string(next) + "'"});
        continue;
      }
    }
    const auto tag = tagged.tags[i];
    const std::string lower = text::to_lower(surface);
    bool name = false;
    if (upper_first(surface)) {
      // Capitalised: the tagger must read it as a proper noun ("Will said" but not "Will you
      // come?"); at the start of a sentence, where everything is capitalised, a word the
      // lexicon also knows in lower case only before a verb ("Mark said", not "Sandy
      // beaches").
      const bool verb_next =
          i + 1 < tokens.size() && (tables.tag_name(tagged.tags[i + 1]).rfind("vb", 0) == 0 ||
                                    tables.tag_name(tagged.tags[i + 1]) == "md");
      name = (tag == impl_->nnp || tag == impl_->nnps) &&
             (!sentence_start[i] || !tables.find_word(lower) || verb_next);
    } else {
      // Lower-cased text (rt-polarity): a word the lexicon knows only capitalised, as a name,
      // and only as the first of a full name, where a surname follows ("peter sheridan"): a
      // lone "jackson", "parker" or "howard" is as often a surname, and a month ("april")
      // reads as a name too (judged sample: 38 right, 33 wrong without this rule).
      static const std::set<std::string> kMonths = {"january", "february", "april", "may",
                                                    "june",    "july",     "august"};
      name = !kMonths.count(lower) && reads_as_name(lower) && i + 1 < tokens.size() &&
             !upper_first(tokens[i + 1].surface(text)) &&
             is_noun_word(tokens[i + 1].surface(text)) &&
             reads_as_name(text::to_lower(tokens[i + 1].surface(text))) &&
             !any_first_name(tokens[i + 1].surface(text));
    }
    // A surname, not a first name, after a title or another proper noun ("Mr. Smith",
    // "Lady Grantham", "Dr. Kelly", "John Wayne").
    if (name && i > 0) {
      const auto before = tokens[i - 1].surface(text);
      const auto before_tag = tagged.tags[i - 1];
      const std::string b = text::to_lower(without_dot(before));
      const bool titled = upper_first(before) && r_.gender_lexicon && r_.gender_lexicon->find(b);
      if (titled || b == "dr" || b == "prof" || b == "st" ||
          ((before_tag == impl_->nnp || before_tag == impl_->nnps) && upper_first(before) &&
           (!sentence_start[i - 1] || any_first_name(before)))) {
        name = false;
      }
    }
    if (!name) continue;
    const std::string why = context.name_blocked(i, [&](std::string_view w) {
      return any_first_name(w) || lexicon_word(text::to_lower(without_dot(w)));
    });
    if (!why.empty()) {
      dropped.push_back(
          {MutationKind::kName, "", std::string(surface), "", "not a name here: " + why});
      continue;
    }
    out.emplace_back(i, gender);
  }
  // A role and its actor: a name after "as" ("Anne Heche is fine as a Vivian Crane", "as
  // Norman Bates, Vince Vaughn") is a character someone plays; swapping either alone makes an
  // actor play a character of the other gender. Neither is perturbed: the role, and the
  // nearest other name of its sentence.
  const auto role = [&](std::size_t t) {
    std::size_t k = t;
    if (k >= 1 && !sentence_start[k]) {
      const std::string b = text::to_lower(tokens[k - 1].surface(text));
      if (b == "a" || b == "an" || b == "the") --k;
    }
    return k >= 1 && !sentence_start[k] && text::to_lower(tokens[k - 1].surface(text)) == "as";
  };
  std::vector<bool> is_role(out.size()), drop(out.size());
  for (std::size_t n = 0; n < out.size(); ++n) is_role[n] = drop[n] = role(out[n].first);
  for (std::size_t n = 0; n < out.size(); ++n) {
    if (!is_role[n]) continue;
    std::size_t best = out.size(), distance = std::numeric_limits<std::size_t>::max();
    for (std::size_t m = 0; m < out.size(); ++m) {
      const std::size_t a = out[m].first, b = out[n].first;
      if (is_role[m] || !same_sentence_tokens(sentence_start, a, b)) continue;
      const std::size_t d = a > b ? a - b : b - a;
      if (d < distance) best = m, distance = d;
    }
    if (best < out.size()) drop[best] = true;
  }
  // Every mention of those names ("as Norman Bates … the influence of mother on Norman").
  std::set<std::string> dropped_names;
  for (std::size_t n = 0; n < out.size(); ++n) {
    if (drop[n]) dropped_names.insert(text::to_lower(tokens[out[n].first].surface(text)));
  }
  for (std::size_t n = 0; n < out.size(); ++n) {
    if (dropped_names.count(text::to_lower(tokens[out[n].first].surface(text)))) drop[n] = true;
  }
  std::vector<std::pair<std::size_t, knowledge::Gender>> kept;
  for (std::size_t n = 0; n < out.size(); ++n) {
    if (!drop[n]) {
      kept.push_back(out[n]);
      continue;
    }
    dropped.push_back({MutationKind::kName, "", std::string(tokens[out[n].first].surface(text)), "",
                       is_role[n] ? "a role: a name after 'as', played by someone"
                                  : "an actor or a role: a name after 'as' in its sentence"});
  }
  return kept;
}

bool Perturbator::lexicon_word(const std::string& lemma) const {
  return attribute_.uses_gender_finder && r_.gender_lexicon && r_.gender_lexicon->find(lemma);
}

bool Perturbator::may_stand_bare(const std::string& lemma) const {
  if (!attribute_.uses_gender_finder || !r_.gender_lexicon) return false;
  const auto* e = r_.gender_lexicon->find(lemma);
  return e && (e->category == "kinship" || e->category == "address" || e->category == "nobility");
}

bool Perturbator::known_capitalised_as_name(const std::string& word) const {
  if (const auto* upper = r_.tagger->tables().find_word(text::upper_first(word))) {
    for (const auto& c : *upper) {
      if (c.tag == impl_->nnp) return true;
    }
  }
  return false;
}

bool Perturbator::modifies_next_noun(const text::TaggedText& tagged,
                                     const std::vector<std::string>& words,
                                     const std::vector<std::size_t>& sentence_of, std::size_t i,
                                     bool plural) const {
  const std::size_t j = i + 1;
  if (j >= words.size() || sentence_of[j] != sentence_of[i]) return false;
  const auto tag = tagged.tags[j];
  if (tag != impl_->nn && tag != impl_->nns) return false;
  const std::string& next = words[j];
  // A plural is seldom a modifier: "the actors share", "viewers feeling" (a verb read as nn).
  if (plural && tag == impl_->nn) return false;
  const auto& tables = r_.tagger->tables();
  // A plural after a singular is its verb when an object, an adverb or "to" follows ("the
  // widow lives alone", "her son visits her").
  if (!plural && tag == impl_->nns && j + 1 < words.size() && sentence_of[j + 1] == sentence_of[i]) {
    const auto after = tables.tag_name(tagged.tags[j + 1]);
    if (after == "det" || after == "prp" || after == "prps" || after == "to" ||
        after.rfind("rb", 0) == 0)
      return false;
  }
  // The next word is the head when it is a person ("child actor", "twin brother").
  if (is_noun_word(next)) {
    std::string key = next;
    key += tag == impl_->nns ? "\t2" : "\t1";
    if (noun_info(key, next, tag == impl_->nns).person) return false;
  }
  // ... or a name: "director peter sheridan", "actor bill paxton" (a first name the lexicon
  // also knows as a common noun, followed by a name).
  if (reads_as_name(next)) return false;
  const auto* counts = tables.find_word(next);
  if (counts && j + 1 < words.size() && sentence_of[j + 1] == sentence_of[i] &&
      reads_as_name(words[j + 1]) && known_capitalised_as_name(next))
    return false;
  // ... or a verb the tagger read as a noun ("makes the viewer feel"): the lexicon sees it
  // more often as a verb than as a noun.
  if (counts) {
    double verb = 0, noun = 0;
    for (const auto& c : *counts) {
      const auto name = tables.tag_name(c.tag);
      if (name.rfind("vb", 0) == 0) verb += c.count;
      if (name.rfind("nn", 0) == 0) noun += c.count;
    }
    if (verb > noun) return false;
  }
  return true;
}

namespace {

// A change of the language model's words: words [from, end) of the text replaced by `words`.
struct LmChange {
  std::size_t from = 0, end = 0;
  std::vector<std::string> words;
};

// One proposed perturbation realised: the text edits and the word changes.
struct Realised {
  std::vector<text::TextEdit> edits;
  std::vector<LmChange> changes;  // in text order
  std::string new_word;           // as written at the first occurrence
};

struct Fluency {
  double value = 0;  // of the changed sentence (the least fluent one when several changed)
  double ratio = 0;  // to the same sentence of the original
};

}  // namespace

bool Perturbator::name_follows(std::string_view text, const text::TaggedText& tagged,
                               const std::vector<bool>& sentence_start,
                               const PersonContext& context, std::size_t t,
                               bool across_sentences) const {
  const auto& tokens = tagged.tokens;
  const std::size_t j = t + 1;
  if (j >= tokens.size() || (sentence_start[j] && !across_sentences)) return false;
  const auto next = tokens[j].surface(text);
  // A name is a noun or, lower-cased, an adjective to the tagger; not "on" ("the influence of
  // mother on Norman": "On" is a proper noun of the lexicon too).
  if (!is_noun_word(next) || !impl_->nominal[tagged.tags[j]]) return false;
  if (r_.first_names && r_.first_names->gender_of(next) != knowledge::Gender::kNone) return true;
  if (upper_first(next))
    return context.case_informative() &&
           (tagged.tags[j] == impl_->nnp || tagged.tags[j] == impl_->nnps);
  const auto lower = text::to_lower(next);
  if (reads_as_name(lower)) return true;
  return j + 1 < tokens.size() && !sentence_start[j + 1] && known_capitalised_as_name(lower) &&
         reads_as_name(text::to_lower(tokens[j + 1].surface(text)));
}

Perturbator::PersonNouns Perturbator::person_nouns(std::string_view text,
                                                   const text::TaggedText& tagged,
                                                   const std::vector<bool>& sentence_start,
                                                   const PersonContext& context,
                                                   std::vector<DroppedCandidate>& dropped) const {
  const auto& tokens = tagged.tokens;
  const auto before_name = [&](std::size_t t) {
    return name_follows(text, tagged, sentence_start, context, t, false);
  };
  PersonNouns out;
  for (const auto& [i, plural] : noun_tokens(text, tagged, sentence_start)) {
    const auto surface = without_dot(tokens[i].surface(text));
    std::string key = text::to_lower(surface);
    key += plural ? "\t2" : "\t1";
    const NounInfo& info = noun_info(key, surface, plural);
    if (!info.person) continue;
    if (options_.narrow_persons) {
      std::string why = context.noun_blocked(i, plural, may_stand_bare(info.lemma), before_name);
      // A capitalised first name is a name, unless the lexicon lists it ("Buck", not "Lady").
      if (why.empty() && r_.first_names && upper_first(surface) && !lexicon_word(info.lemma) &&
          r_.first_names->gender_of(surface) != knowledge::Gender::kNone)
        why = "a first name, not a common noun here";
      // A title of address before a common word is part of a work's title ("mr . deeds").
      if (why.empty() && is_title(surface)) {
        std::size_t t = i;
        if (t + 1 < tokens.size() && tokens[t + 1].text == ".") ++t;
        // (The sentence splitter ends a sentence at "mr ." in lower-cased text.)
        if (t + 1 < tokens.size() && is_noun_word(tokens[t + 1].surface(text)) &&
            !name_follows(text, tagged, sentence_start, context, t, true))
          why = "part of a title: a title of address before a common word";
      }
      if (!why.empty()) {
        dropped.push_back({info.neutral ? MutationKind::kActive : MutationKind::kAnalogy, "",
                           std::string(surface), "", "not a person here: " + why});
        continue;
      }
    }
    out.token.push_back(i);
    out.info.push_back(&info);
    out.plural.push_back(info.lemma != text::to_lower(surface));
  }
  return out;
}

PerturbationSet Perturbator::perturb(std::string_view text) const {
  return perturb(text, std::numeric_limits<std::size_t>::max());
}

PerturbationSet Perturbator::perturb(std::string_view text, std::size_t max_perturbations) const {
  PerturbationSet out;
  const auto tagged = r_.tagger->tag_text(text);
  const auto& tokens = tagged.tokens;
  std::vector<std::string> words;
  words.reserve(tokens.size());
  for (const auto& t : tokens) words.push_back(text::to_lower(t.text));
  // Fluency is judged per sentence (Ge et al. score sentences; over a whole review one changed
  // word would barely move it). The text's own fluency pools its sentences.
  const auto sentences = text::split_sentences(tokens);
  std::vector<ScoredWords> sentence_scores;
  std::vector<std::size_t> sentence_of(tokens.size(), 0);
  std::vector<bool> sentence_start(tokens.size(), false);
  {
    double log_prob = 0;
    std::size_t n = 0;
    for (std::size_t si = 0; si < sentences.size(); ++si) {
      const auto& sen = sentences[si];
      sentence_start[sen.first_token] = true;
      for (std::size_t i = sen.first_token; i < sen.end_token; ++i) sentence_of[i] = si;
      sentence_scores.push_back(fluency_.score(
          std::vector<std::string>(words.begin() + static_cast<long>(sen.first_token),
                                   words.begin() + static_cast<long>(sen.end_token))));
      log_prob += sentence_scores.back().log_prob;
      n += sentence_scores.back().n_tokens();
    }
    out.fluency = n ? 1.0 / (1.0 + (-log_prob / static_cast<double>(n)))
                    : std::numeric_limits<double>::quiet_NaN();
  }
  if (tokens.empty()) return out;

  // Person nouns, where they name a person.
  const PersonContext context(text, tagged, r_.tagger->tables(), sentence_start);
  auto persons_found = person_nouns(text, tagged, sentence_start, context, out.dropped);
  // Group words (file attributes), where they name people; a person noun inside one ("a
  // teenager" of the age file's nouns) is left to it.
  std::vector<GroupMention> group_mentions;
  if (impl_->group_words && !impl_->group_words->empty()) {
    GroupWordContext gc;
    gc.words = &words;
    gc.sentence_of = &sentence_of;
    gc.case_informative = context.case_informative();
    gc.known_noun = [&](std::size_t t) {
      const auto& graph = *r_.graph;
      const std::string word(without_dot(words[t]));  // "man." before a capital
      if (!graph.noun_senses(word).empty()) return true;
      for (const auto& f : r_.lemmatizer->morphy(word, text::PartOfSpeech::kNoun)) {
        if (!graph.noun_senses(f).empty()) return true;
      }
      return false;
    };
    // A word WordNet does not know may end in a person noun ("superhero", "physio" does not).
    gc.is_person = [&](std::size_t t, bool plural) {
      const std::string word = text::to_lower(without_dot(tokens[t].surface(text)));
      if (person_lemma(word, plural)) return true;
      if (!r_.graph->noun_senses(word).empty() || word.find('-') != std::string::npos) return false;
      for (std::size_t k = 3; k + 3 <= word.size(); ++k) {
        if (person_lemma(word.substr(k), plural)) return true;
      }
      return false;
    };
    std::vector<RefusedGroupWord> refused;
    group_mentions = impl_->group_words->find(text, tagged, gc, refused);
    for (const auto& r : refused) {
      out.dropped.push_back(
          {MutationKind::kGroup, "",
           std::string(
               text.substr(tokens[r.first].begin, tokens[r.end - 1].end - tokens[r.first].begin)),
           "", r.reason});
    }
    PersonNouns kept_nouns;
    for (std::size_t k = 0; k < persons_found.token.size(); ++k) {
      const std::size_t t = persons_found.token[k];
      const bool inside =
          std::any_of(group_mentions.begin(), group_mentions.end(),
                      [&](const GroupMention& m) { return t >= m.first && t < m.end; });
      if (inside) continue;
      kept_nouns.token.push_back(t);
      kept_nouns.info.push_back(persons_found.info[k]);
      kept_nouns.plural.push_back(persons_found.plural[k]);
    }
    persons_found = std::move(kept_nouns);
  }
  // A gendered noun that only modifies the noun after it names no one ("beach party pop
  // numbers", "the blair witch formula"): its counterpart would not make the same phrase about
  // another gender.
  // ("female characters" stays: the lexicon sees "female" more often as an adjective.)
  if (options_.narrow_persons && attribute_.uses_gender_finder) {
    const auto& tables = r_.tagger->tables();
    auto adjective_too = [&](const std::string& w) {
      double adjective = 0, noun = 0;
      if (const auto* counts = tables.find_word(w)) {
        for (const auto& c : *counts) {
          const auto tag = tables.tag_name(c.tag);
          if (tag.rfind("jj", 0) == 0) adjective += c.count;
          if (tag.rfind("nn", 0) == 0) noun += c.count;
        }
      }
      return adjective > 0 && adjective >= noun;
    };
    PersonNouns heads;
    for (std::size_t k = 0; k < persons_found.token.size(); ++k) {
      const std::size_t t = persons_found.token[k];
      // A plural modifies the noun after it only before a singular that is a noun alone (not
      // also a verb: "the actors share") and no person ("the stepford wives mentality").
      auto plural_modifier = [&] {
        const std::size_t j = t + 1;
        if (j >= tokens.size() || sentence_of[j] != sentence_of[t] || tagged.tags[j] != impl_->nn)
          return false;
        const auto* counts = tables.find_word(words[j]);
        if (!counts) return false;
        for (const auto& c : *counts) {
          if (tables.tag_name(c.tag).rfind("nn", 0) != 0) return false;
        }
        std::string key = words[j] + "\t1";
        return !noun_info(key, words[j], false).person;
      };
      if (!persons_found.info[k]->neutral && !adjective_too(words[t]) &&
          (persons_found.plural[k] ? plural_modifier()
                                   : modifies_next_noun(tagged, words, sentence_of, t, false))) {
        out.dropped.push_back({MutationKind::kAnalogy, "", std::string(tokens[t].surface(text)),
                               "", "not a person here: modifies the noun '" + words[t + 1] + "'"});
        continue;
      }
      heads.token.push_back(t);
      heads.info.push_back(persons_found.info[k]);
      heads.plural.push_back(persons_found.plural[k]);
    }
    persons_found = std::move(heads);
  }
  out.n_group_words = group_mentions.size();
  // A text that names a group is perturbed through its group words alone: an inserted
  // adjective or a member noun of another group would contradict it ("My Muslim neighbor is
  // Jewish", "a Hindu imam").
  out.n_person_nouns = persons_found.token.size();
  // Member nouns of a text that names a group move with it ("a Hindu priest" → "a Muslim
  // imam"): token, member row, number.
  // Associated words move too ("Hindus visited the temple" → "Christians visited the
  // church").
  struct MemberAt {
    std::size_t token, row;
    bool plural;
    const std::vector<std::vector<std::string>>* rows;  // members or associated
  };
  std::vector<MemberAt> members_at;
  if (!group_mentions.empty()) {
    for (std::size_t k = 0; k < persons_found.token.size(); ++k) {
      if (const auto hit = attribute_.find_member(persons_found.info[k]->lemma))
        members_at.push_back(
            {persons_found.token[k], hit->row, persons_found.plural[k], &attribute_.members});
    }
    for (std::size_t t = 0; t < tokens.size() && !impl_->associated_forms.empty(); ++t) {
      const auto it = impl_->associated_forms.find(words[t]);
      if (it != impl_->associated_forms.end())
        members_at.push_back({t, it->second.first, it->second.second, &attribute_.associated});
    }
    std::sort(members_at.begin(), members_at.end(),
              [](const MemberAt& a, const MemberAt& b) { return a.token < b.token; });
    for (std::size_t k = 0; k < persons_found.token.size(); ++k) {
      out.dropped.push_back(
          {persons_found.info[k]->neutral ? MutationKind::kActive : MutationKind::kAnalogy, "",
           std::string(tokens[persons_found.token[k]].surface(text)), "",
           "the text names a group: perturbed through its group words"});
    }
    persons_found = PersonNouns{};
  }
  const std::vector<std::size_t>& occ_token = persons_found.token;
  const std::vector<const NounInfo*>& occ_info = persons_found.info;
  const std::vector<bool>& occ_plural = persons_found.plural;
  const bool coref = attribute_.uses_gender_finder && options_.coreference;
  std::vector<std::pair<std::size_t, knowledge::Gender>> names;  // token, gender
  if ((attribute_.uses_gender_finder && r_.first_names) || attribute_.has_names()) {
    std::set<std::size_t> nouns(occ_token.begin(), occ_token.end());
    for (const auto& n : name_tokens(text, tagged, sentence_start, context, out.dropped)) {
      if (!nouns.count(n.first)) names.push_back(n);
    }
  }
  out.n_names = names.size();
  if (occ_token.empty() && names.empty() && group_mentions.empty()) return out;

  std::set<std::string> noted;  // lemmas whose noun-level drops are already listed
  for (const auto* info : occ_info) {
    if (noted.insert(info->lemma).second)
      out.dropped.insert(out.dropped.end(), info->dropped.begin(), info->dropped.end());
  }

  auto is_article = [&](std::size_t i) {
    return i < tokens.size() && (words[i] == "a" || words[i] == "an");
  };
  std::vector<bool> occ_modifier(occ_token.size(), false);
  if (options_.active && !options_.active_noun_modifiers) {
    for (std::size_t k = 0; k < occ_token.size(); ++k) {
      if (occ_info[k]->neutral)
        occ_modifier[k] =
            modifies_next_noun(tagged, words, sentence_of, occ_token[k], occ_plural[k]);
    }
  }
  // A possessive determiner does not block ("My" is tagged nnp at a sentence's start).
  auto possessive_determiner = [&](std::size_t i) {
    static constexpr std::string_view kPossessive[] = {"my",  "your",  "his", "her",
                                                       "our", "their", "its"};
    return std::find(std::begin(kPossessive), std::end(kPossessive), words[i]) !=
           std::end(kPossessive);
  };
  auto active_ok = [&](std::size_t k) {
    const std::size_t i = occ_token[k];
    return (i == 0 || !impl_->blocks_active[tagged.tags[i - 1]] || possessive_determiner(i - 1)) &&
           !occ_modifier[k];
  };

  // Builds the edits for putting `phrase` (kind analogy: a counterpart lemma; active: an
  // adjective) at the given occurrences.
  auto realise = [&](MutationKind kind, const std::vector<std::size_t>& occs,
                     const std::string& phrase) {
    Realised r;
    for (std::size_t k : occs) {
      const std::size_t i = occ_token[k];
      const auto& tok = tokens[i];
      const std::string surface(tok.surface(text));
      std::string written;
      std::string first_word;
      std::vector<std::string> lm_words;
      if (kind == MutationKind::kAnalogy) {
        std::string inflected = occ_plural[k] ? r_.inflector->pluralize(phrase) : phrase;
        written = text::transfer_case(surface, inflected);
        if (surface != without_dot(surface)) written += '.';  // "Mr." -> "Ms."
        first_word = written;
        lm_words = lower_words(written);
        if (r.new_word.empty()) r.new_word = written;
      } else {
        std::string adj = phrase;
        std::string noun = surface;
        if (all_upper(surface) && surface.size() > 1) {
          adj = to_upper_ascii(adj);
        } else if (upper_first(surface)) {
          adj = text::upper_first(adj);
          if (sentence_start[i]) noun = text::lower_first(noun);
        } else if (!context.case_informative()) {
          adj = text::to_lower(adj);  // lower-cased text: "the asian filmmakers"
        }
        written = adj + " " + noun;
        first_word = adj;
        lm_words = lower_words(adj);
        lm_words.push_back(text::to_lower(noun));
        if (r.new_word.empty()) r.new_word = adj;
      }
      std::size_t lm_from = i;
      if (i > 0 && is_article(i - 1)) {
        const std::string want(text::indefinite_article(first_word));
        if (want != words[i - 1]) {
          const auto& art = tokens[i - 1];
          r.edits.push_back(text::replace_token(art, text::transfer_case(art.surface(text), want)));
          lm_words.insert(lm_words.begin(), want);
          lm_from = i - 1;
        }
      }
      r.edits.push_back(text::replace_token(tok, written));
      r.changes.push_back({lm_from, i + 1, std::move(lm_words)});
    }
    return r;
  };
  auto fluency_of = [&](const Realised& r) {
    Fluency worst{0, std::numeric_limits<double>::infinity()};
    std::size_t c = 0;
    while (c < r.changes.size()) {
      const std::size_t si = sentence_of[r.changes[c].end - 1];
      std::size_t d = c + 1;
      while (d < r.changes.size() && sentence_of[r.changes[d].end - 1] == si) ++d;
      const auto& sen = sentences[si];
      const auto& base = sentence_scores[si];
      double f;
      if (d - c == 1) {
        const auto& ch = r.changes[c];
        f = fluency_.rescore(base, ch.from - sen.first_token, ch.end - sen.first_token, ch.words);
      } else {
        std::vector<std::string> w;
        std::size_t next = sen.first_token;
        for (std::size_t k = c; k < d; ++k) {
          const auto& ch = r.changes[k];
          w.insert(w.end(), words.begin() + static_cast<long>(next),
                   words.begin() + static_cast<long>(ch.from));
          w.insert(w.end(), ch.words.begin(), ch.words.end());
          next = ch.end;
        }
        w.insert(w.end(), words.begin() + static_cast<long>(next),
                 words.begin() + static_cast<long>(sen.end_token));
        f = fluency_.score(w).fluency();
      }
      const double ratio = f / base.fluency();
      if (ratio < worst.ratio) worst = {f, ratio};
      c = d;
    }
    return worst;
  };

  struct Kept {
    Perturbation p;
    std::size_t order = 0;
  };
  std::vector<Kept> kept;
  // With a limit and no fluency cap, building stops once the first `max_perturbations` are kept
  // (the cap ranks every perturbation, so with it all are built and the limit cuts after).
  const auto full = [&] { return options_.max_per_input == 0 && kept.size() >= max_perturbations; };
  std::set<std::string> texts;
  std::set<std::string> noted_choice;
  auto emit = [&](MutationKind kind, std::size_t group, std::string old_word, const Realised& r,
                  Fluency fluency, const std::string& evidence) {
    Perturbation p;
    p.kind = kind;
    p.group = attribute_.groups[group].name;
    p.old_word = std::move(old_word);
    p.new_word = r.new_word;
    p.evidence = evidence;
    p.fluency = fluency.value;
    p.fluency_ratio = fluency.ratio;
    auto edits = r.edits;
    std::sort(edits.begin(), edits.end(),
              [](const auto& a, const auto& b) { return a.begin < b.begin; });
    for (const auto& e : edits) {
      ChangedSpan s;
      s.begin = e.begin;
      s.end = e.end;
      s.char_begin = core::utf8_column(text, e.begin);
      s.char_end = core::utf8_column(text, e.end);
      s.old_text = std::string(text.substr(e.begin, e.end - e.begin));
      s.new_text = e.replacement;
      p.spans.push_back(std::move(s));
    }
    if (full()) return;
    p.text = text::apply_edits(text, std::move(edits));
    if (!texts.insert(p.text).second) return;
    if (options_.fluency_ratio > 0 && !(fluency.ratio >= options_.fluency_ratio)) {
      out.dropped.push_back({kind, p.group, p.old_word, p.new_word,
                             "fluency " + fmt(fluency.value) + " < " + fmt(options_.fluency_ratio) +
                                 " x " + fmt(fluency.value / fluency.ratio) +
                                 " of the original sentence"});
      return;
    }
    kept.push_back({std::move(p), kept.size()});
  };

  // Words that change with a perturbation (pronouns, names): token → word, lower case, the
  // token's case transferred.
  using Replacements = std::vector<std::pair<std::size_t, std::string>>;
  auto add_replacements = [&](Realised& r, const Replacements& extra) {
    if (extra.empty()) return;
    for (const auto& [i, word] : extra) {
      r.edits.push_back(
          text::replace_token(tokens[i], text::transfer_case(tokens[i].surface(text), word)));
      r.changes.push_back({i, i + 1, {word}});
    }
    std::sort(r.changes.begin(), r.changes.end(),
              [](const LmChange& a, const LmChange& b) { return a.from < b.from; });
  };
  // Two words a text contrasts ("and", "or", "not", "but", "than", over commas and an article)
  // that a perturbation would make the same ("the actor and the actress" → "the actress and
  // the actress", "gays and lesbians" → "bisexuals and bisexuals", "British, not American" →
  // "American, not American") lose the contrast: the word they would share, or "".
  auto contrast_conflict = [&](const Realised& r) -> std::string {
    static constexpr std::string_view kContrast[] = {"and", "or",   "&",  "not",    "nor",
                                                     "but", "than", "vs", "versus", "n't"};
    auto connective = [&](std::size_t u) {
      return std::find(std::begin(kContrast), std::end(kContrast), words[u]) != std::end(kContrast);
    };
    auto skippable = [&](std::size_t u) {
      return connective(u) || words[u] == "," || words[u] == "the" || is_article(u);
    };
    // The last word a token reads after the perturbation.
    auto word_after = [&](std::size_t u) -> std::string {
      for (const auto& c : r.changes) {
        if (u >= c.from && u < c.end) return c.words.empty() ? "" : c.words.back();
      }
      return words[u];
    };
    for (const auto& c : r.changes) {
      if (c.words.empty()) continue;
      const std::string& now = c.words.back();
      const std::size_t si = sentence_of[c.end - 1];
      // To the right.
      std::size_t u = c.end;
      bool contrast = false;
      while (u < tokens.size() && u < c.end + 4 && sentence_of[u] == si && skippable(u)) {
        contrast |= connective(u);
        ++u;
      }
      if (contrast && u < tokens.size() && sentence_of[u] == si && word_after(u) == now) return now;
      // To the left (from before a repaired article).
      std::size_t v = c.from;
      contrast = false;
      while (v > 0 && v + 4 > c.from && sentence_of[v - 1] == si && skippable(v - 1)) {
        contrast |= connective(v - 1);
        --v;
      }
      if (contrast && v > 0 && sentence_of[v - 1] == si && word_after(v - 1) == now) return now;
    }
    return "";
  };
  auto occ_word = [&](std::size_t k) { return std::string(tokens[occ_token[k]].surface(text)); };
  auto propose_analogy = [&](const NounInfo& info, std::size_t g,
                             const std::vector<std::size_t>& occs, const Replacements& extra = {}) {
    const auto& list = info.candidates[g];
    if (list.empty()) return;
    std::size_t pick = info.chosen[g];
    Realised best;
    Fluency best_fluency;
    if (options_.choice == CounterpartChoice::kContext && list.size() > 1) {
      std::vector<double> f(list.size());
      for (std::size_t c = 0; c < list.size(); ++c) {
        auto r = realise(MutationKind::kAnalogy, occs, list[c].word);
        add_replacements(r, extra);
        const Fluency fc = fluency_of(r);
        f[c] = fc.ratio;
        if (c == 0 || f[c] > f[pick]) {
          pick = c;
          best = std::move(r);
          best_fluency = fc;
        }
      }
    } else {
      best = realise(MutationKind::kAnalogy, occs, list[pick].word);
      add_replacements(best, extra);
      best_fluency = fluency_of(best);
    }
    if (list.size() > 1 && noted_choice.insert(info.lemma + "\t" + std::to_string(g)).second) {
      for (std::size_t c = 0; c < list.size(); ++c) {
        if (c == pick) continue;
        out.dropped.push_back({MutationKind::kAnalogy, attribute_.groups[g].name, info.lemma,
                               list[c].word,
                               "not chosen: '" + list[pick].word + "' preferred by " +
                                   std::string(to_string(options_.choice))});
      }
    }
    if (const auto same = contrast_conflict(best); !same.empty()) {
      out.dropped.push_back({MutationKind::kAnalogy, attribute_.groups[g].name, occ_word(occs[0]),
                             best.new_word,
                             "two words in contrast would both read '" + same + "'"});
      return;
    }
    emit(MutationKind::kAnalogy, g, occ_word(occs[0]), best, best_fluency, list[pick].evidence);
  };
  auto propose_active = [&](std::size_t g, const std::vector<std::size_t>& occs,
                            const Replacements& extra = {}) {
    auto r = realise(MutationKind::kActive, occs, attribute_.groups[g].active);
    add_replacements(r, extra);
    emit(MutationKind::kActive, g, occ_word(occs[0]), r, fluency_of(r), "insert");
  };

  const std::size_t n_groups = attribute_.groups.size();
  // File attributes with `names` rows: the name of group `to` and the same gender that replaces
  // the name at token t ("" when the group has none), picked by hash(name, seed) as gender's
  // names are.
  const std::set<std::string> text_words(words.begin(), words.end());
  auto group_name = [&](std::size_t t, std::size_t to) -> std::string {
    const auto hit = attribute_.find_name(tokens[t].surface(text));
    if (!hit) return "";
    const auto& pool =
        hit->female ? attribute_.groups[to].female_names : attribute_.groups[to].male_names;
    if (pool.empty()) return "";
    return pick_name(pool, tokens[t].surface(text), options_.seed, text_words);
  };
  // Group words: every mention of a group in the text moves to each other group at once
  // ("Muslims … a Muslim family" → "Jews … a Jewish family"), a/an repaired; the mentions of
  // the other group, if the text has any, move the other way ("the black nurse and the white
  // doctor" → "the white nurse and the black doctor").
  for (std::size_t s = 0; s < n_groups && !full(); ++s) {
    const GroupMention* first_of_s = nullptr;
    for (const auto& m : group_mentions) {
      if (m.group == s && !first_of_s) first_of_s = &m;
    }
    if (!first_of_s) continue;
    for (std::size_t g = 0; g < n_groups; ++g) {
      if (g == s) continue;
      Realised r;
      for (const GroupMention& mention : group_mentions) {
        if (mention.group != s && mention.group != g) continue;
        const GroupMention* m = &mention;
        const std::size_t to = m->group == s ? g : s;
        const std::size_t i = m->first;
        const std::size_t begin = tokens[i].begin, end = tokens[m->end - 1].end;
        const std::string_view surface = text.substr(begin, end - begin);
        std::string written = impl_->group_words->replacement(*m, to);
        // The spelling the file gives, the case of the text kept: all capitals, a capital
        // that the file's word lacks ("Black" → "White"; "Asian" → "white"), a sentence's
        // first word, lower-cased text ("the asian filmmakers").
        const std::string own = impl_->group_words->replacement(*m, m->group);
        if (all_upper(surface) && surface.size() > 1) {
          written = to_upper_ascii(written);
        } else if (upper_first(surface) && (sentence_start[i] || !upper_first(own))) {
          written = text::upper_first(written);
        } else if (!upper_first(surface) && !context.case_informative()) {
          written = text::to_lower(written);
        }
        if (m == first_of_s) r.new_word = written;
        std::vector<std::string> lm_words = lower_words(written);
        std::size_t lm_from = i;
        if (i > 0 && is_article(i - 1)) {
          const std::string want(text::indefinite_article(written));
          if (want != words[i - 1]) {
            const auto& art = tokens[i - 1];
            r.edits.push_back(
                text::replace_token(art, text::transfer_case(art.surface(text), want)));
            lm_words.insert(lm_words.begin(), want);
            lm_from = i - 1;
          }
        }
        r.edits.push_back(text::TextEdit{begin, end, written});
        r.changes.push_back({lm_from, m->end, std::move(lm_words)});
      }
      // First names of either group move with it ("Jamal, a black teacher" → "Greg, a white
      // teacher"); a group without names of that gender keeps the name.
      for (const auto& [t, gender] : names) {
        const auto hit = attribute_.find_name(tokens[t].surface(text));
        if (!hit || (hit->group != s && hit->group != g)) continue;
        const std::string name = group_name(t, hit->group == s ? g : s);
        if (name.empty()) continue;
        r.edits.push_back(text::replace_token(
            tokens[t], text::transfer_case(tokens[t].surface(text), text::to_lower(name))));
        r.changes.push_back({t, t + 1, {text::to_lower(name)}});
      }
      for (const MemberAt& at : members_at) {
        const auto& row = (*at.rows)[at.row];
        const std::string& word = row[g];
        const std::size_t t = at.token;
        if (word.empty() || text::to_lower(tokens[t].surface(text)) ==
                                (at.plural ? r_.inflector->pluralize(word) : word))
          continue;
        const std::string written = text::transfer_case(
            tokens[t].surface(text), at.plural ? r_.inflector->pluralize(word) : word);
        std::size_t lm_from = t;
        std::vector<std::string> lm_words = lower_words(written);
        const bool article_done =
            t > 0 && std::any_of(r.edits.begin(), r.edits.end(), [&](const text::TextEdit& e) {
              return e.begin == tokens[t - 1].begin;
            });
        if (t > 0 && is_article(t - 1) && !article_done) {
          const std::string want(text::indefinite_article(written));
          if (want != words[t - 1]) {
            r.edits.push_back(text::replace_token(
                tokens[t - 1], text::transfer_case(tokens[t - 1].surface(text), want)));
            lm_words.insert(lm_words.begin(), want);
            lm_from = t - 1;
          }
        }
        r.edits.push_back(text::replace_token(tokens[t], written));
        r.changes.push_back({lm_from, t + 1, std::move(lm_words)});
      }
      std::sort(r.changes.begin(), r.changes.end(),
                [](const LmChange& a, const LmChange& b) { return a.from < b.from; });
      if (const auto same = contrast_conflict(r); !same.empty()) {
        out.dropped.push_back({MutationKind::kGroup, attribute_.groups[g].name,
                               std::string(text.substr(tokens[first_of_s->first].begin,
                                                       tokens[first_of_s->end - 1].end -
                                                           tokens[first_of_s->first].begin)),
                               r.new_word, "two words in contrast would both read '" + same + "'"});
        continue;
      }
      const GroupMention& m0 = *first_of_s;
      emit(MutationKind::kGroup, g,
           std::string(text.substr(tokens[m0.first].begin,
                                   tokens[m0.end - 1].end - tokens[m0.first].begin)),
           r, fluency_of(r), "group");
    }
  }
  // File attributes: a first name of a group in a text that names no group becomes a name of
  // each other group that has names of the same gender, in every mention.
  if (!attribute_.uses_gender_finder && group_mentions.empty() && !names.empty()) {
    std::map<std::string, std::vector<std::size_t>> mentions_of;  // lower-case name → tokens
    std::vector<std::string> order;
    for (const auto& [t, gender] : names) {
      auto& v = mentions_of[words[t]];
      if (v.empty()) order.push_back(words[t]);
      v.push_back(t);
    }
    for (const auto& key : order) {
      const auto& at = mentions_of[key];
      const auto hit = attribute_.find_name(tokens[at[0]].surface(text));
      for (std::size_t g = 0; g < n_groups && !full(); ++g) {
        if (g == hit->group) continue;
        const std::string name = group_name(at[0], g);
        if (name.empty()) continue;
        Replacements change;
        for (const std::size_t t : at) change.emplace_back(t, text::to_lower(name));
        Realised r;
        r.new_word = text::transfer_case(tokens[at[0]].surface(text), text::to_lower(name));
        add_replacements(r, change);
        emit(MutationKind::kName, g, std::string(tokens[at[0]].surface(text)), r, fluency_of(r),
             "names");
      }
    }
  }
  if (coref) {
    // Persons: every mention of the same noun (and number) is one, so is every mention of
    // the same first name.
    struct Person {
      std::vector<std::size_t> occs;         // person-noun occurrences (indices of occ_*)
      std::vector<std::size_t> name_tokens;  // or the tokens of a first name
      std::string written;                   // the first mention as written
      std::set<std::string> surnames;        // a first name's, lower case
      knowledge::Gender gender = knowledge::Gender::kNone;
    };
    std::vector<Person> persons;
    std::map<std::string, std::size_t> person_of;
    std::vector<PersonMention> mentions;
    // Nouns that describe a person another word names (coreference.h: "she was a … woman",
    // "John Chrichton, an astronaut", "actor oliver martinez"); described[a]: the token of the
    // word occurrence a describes.
    std::map<std::size_t, std::size_t> name_at;  // a first name's token, or its surname's → name
    for (const auto& [t, gender] : names) {
      name_at[t] = t;
      if (name_follows(text, tagged, sentence_start, context, t, false)) name_at[t + 1] = t;
    }
    std::vector<std::optional<std::size_t>> described;
    {
      const auto& tables = r_.tagger->tables();
      DescriptionContext dc{words, sentence_of, name_at, {}, {}, {}};
      dc.tag = [&](std::size_t t) { return tables.tag_name(tagged.tags[t]); };
      dc.capitalised = [&](std::size_t t) { return upper_first(tokens[t].surface(text)); };
      // A first name the rules do not take for a person's name here ("evil uncle ralph", a
      // character).
      dc.unnamed_first_name = [&](std::size_t t) {
        return r_.first_names && impl_->nominal[tagged.tags[t]] &&
               r_.first_names->gender_of(tokens[t].surface(text)) != knowledge::Gender::kNone;
      };
      std::vector<DescribingNoun> nouns;
      for (std::size_t a = 0; a < occ_token.size(); ++a)
        nouns.push_back({occ_token[a], static_cast<bool>(occ_plural[a]), !occ_info[a]->neutral});
      described = described_words(nouns, dc);
    }
    auto person = [&](const std::string& key, std::size_t token) {
      const auto [it, fresh] = person_of.emplace(key, persons.size());
      if (fresh) {
        persons.emplace_back();
        persons.back().written = std::string(tokens[token].surface(text));
      }
      return it->second;
    };
    for (std::size_t a = 0, b = 0; a < occ_token.size() || b < names.size();) {
      if (b == names.size() || (a < occ_token.size() && occ_token[a] < names[b].first)) {
        const auto& info = *occ_info[a];
        const auto e = person(info.lemma + (occ_plural[a] ? "\t2" : "\t1"), occ_token[a]);
        persons[e].occs.push_back(a);
        persons[e].gender = info.gender;
        // A noun that only modifies the common noun after it ("female characters", "male
        // bonding"; the rule of ActiveMutate) is no antecedent of a pronoun.
        const std::size_t t = occ_token[a];
        if (!modifies_next_noun(tagged, words, sentence_of, t, occ_plural[a]) && !described[a])
          mentions.push_back({t, e, info.gender, static_cast<bool>(occ_plural[a])});
        ++a;
      } else {
        const auto [t, gender] = names[b];
        const auto e = person("\tname\t" + words[t], t);
        persons[e].name_tokens.push_back(t);
        if (name_follows(text, tagged, sentence_start, context, t, false))
          persons[e].surnames.insert(words[t + 1]);
        persons[e].gender = gender;
        mentions.push_back({t, e, gender, false});
        ++b;
      }
    }
    // A surname alone is a mention of the one person of the text with that surname ("Dr. Mark
    // Powell ... But it's Powell's job, as well as his nature"): an antecedent that does not
    // change.
    {
      std::map<std::string, std::size_t> owner;  // surname → person, npos when shared
      for (std::size_t e = 0; e < persons.size(); ++e) {
        for (const auto& surname : persons[e].surnames) {
          const auto [it, fresh] = owner.emplace(surname, e);
          if (!fresh) it->second = std::numeric_limits<std::size_t>::max();
        }
      }
      std::set<std::size_t> taken;  // name tokens and the surnames right after them
      for (const auto& [t, gender] : names) {
        taken.insert(t);
        taken.insert(t + 1);
      }
      const std::size_t before = mentions.size();
      for (std::size_t t = 0; t < tokens.size() && !owner.empty(); ++t) {
        const auto it = owner.find(words[t]);
        if (it == owner.end() || it->second == std::numeric_limits<std::size_t>::max() ||
            taken.count(t) || (context.case_informative() && !upper_first(tokens[t].surface(text))))
          continue;
        mentions.push_back({t, it->second, persons[it->second].gender, false});
      }
      // Someone the lists do not name but a relative "who" / "whose" makes a person ("access
      // to massoud , whose charm … his people"): a mention of either gender that never changes.
      std::set<std::size_t> mentioned;
      for (const auto& m : mentions) mentioned.insert(m.token);
      for (std::size_t t = 0; t + 2 < tokens.size(); ++t) {
        const std::size_t w = words[t + 1] == "," ? t + 2 : t + 1;
        if ((words[w] != "who" && words[w] != "whose") || sentence_of[w] != sentence_of[t] ||
            mentioned.count(t) || taken.count(t) || !impl_->nominal[tagged.tags[t]] ||
            !is_noun_word(tokens[t].surface(text)))
          continue;
        const bool name_like = context.case_informative()
                                   ? upper_first(tokens[t].surface(text)) && !sentence_start[t]
                                   : reads_as_name(words[t]);
        if (!name_like) continue;
        persons.emplace_back();
        persons.back().written = std::string(tokens[t].surface(text));
        mentions.push_back({t, persons.size() - 1, knowledge::Gender::kNone, false});
      }
      if (mentions.size() != before) {
        std::sort(mentions.begin(), mentions.end(),
                  [](const PersonMention& a, const PersonMention& b) { return a.token < b.token; });
      }
    }
    std::vector<GenderedPronoun> pronouns;
    auto in_sentence = [&](std::size_t i, std::size_t j) {
      return j < tokens.size() && sentence_of[j] == sentence_of[i];
    };
    auto is_noun_tag = [&](std::size_t j) {
      return impl_->nominal[tagged.tags[j]] && !impl_->adjective_like[tagged.tags[j]];
    };
    for (std::size_t i = 0; i < tokens.size(); ++i) {
      // "her"/"his" determine what follows when a noun follows, or an adjective or number
      // before a noun or another adjective ("her own car", "her first film"), not "visits
      // her weekly", "saw her again", "gave her a toy" (the tagger's prps is not enough).
      bool nominal = false;
      const bool article_next =  // Lingua tags "a" jj after "her" ("gave her a toy")
          i + 1 < tokens.size() &&
          (words[i + 1] == "a" || words[i + 1] == "an" || words[i + 1] == "the");
      if (in_sentence(i, i + 1) && !article_next && impl_->nominal[tagged.tags[i + 1]]) {
        nominal =
            is_noun_tag(i + 1) || (in_sentence(i, i + 2) && impl_->nominal[tagged.tags[i + 2]]);
      }
      auto p = classify_pronoun(words[i], i, nominal);
      if (!p) continue;
      if (p->form == PronounForm::kIndependent && i >= 2 && words[i - 1] == "of")
        p->not_token = i - 2;  // "a friend of his" is not the friend
      pronouns.push_back(*p);
    }
    const auto refs = resolve_pronouns(mentions, pronouns, sentence_of);
    auto gender_of_group = [](std::size_t g) {
      return g == 0 ? knowledge::Gender::kMale : knowledge::Gender::kFemale;
    };
    constexpr std::size_t kNobody = std::numeric_limits<std::size_t>::max();
    std::map<std::size_t, std::size_t> pronoun_at;  // token → index in pronouns
    for (std::size_t k = 0; k < pronouns.size(); ++k) pronoun_at[pronouns[k].token] = k;
    // The person whom the word a described noun describes refers to (kNobody: undecided).
    auto described_person = [&](std::size_t a) {
      const std::size_t subject = *described[a];
      if (const auto it = pronoun_at.find(subject); it != pronoun_at.end())
        return refs[it->second].size() == 1 ? refs[it->second][0] : kNobody;
      const auto at = name_at.find(subject);
      if (at == name_at.end()) return kNobody;
      const auto it = person_of.find("\tname\t" + words[at->second]);
      return it == person_of.end() ? kNobody : it->second;
    };
    // The described nouns of person e that must change with it to gender `to` (group g), added
    // to `change`; or why they cannot (empty: they can).
    auto descriptions_to = [&](std::size_t e, std::size_t g, knowledge::Gender to,
                               Replacements& change) -> std::string {
      for (std::size_t a = 0; a < occ_token.size(); ++a) {
        if (!described[a] || described_person(a) != e) continue;
        const NounInfo& info = *occ_info[a];
        if (info.gender == knowledge::Gender::kNone || info.gender == to) continue;
        const std::size_t t = occ_token[a];
        if (info.candidates[g].empty())
          return "'" + occ_word(a) + "' describes '" + persons[e].written +
                 "' and has no counterpart";
        const std::string& word = info.candidates[g][info.chosen[g]].word;
        change.emplace_back(t, word);
        if (t > 0 && is_article(t - 1)) {
          const std::string want(text::indefinite_article(word));
          if (want != words[t - 1]) change.emplace_back(t - 1, want);
        }
      }
      return "";
    };
    for (std::size_t e = 0; e < persons.size() && !full(); ++e) {
      const Person& who = persons[e];
      if (who.occs.empty() && who.name_tokens.empty()) continue;  // someone unnamed
      std::vector<std::size_t> resolved, ambiguous;
      for (std::size_t k = 0; k < pronouns.size(); ++k) {
        if (refs[k].size() == 1 && refs[k][0] == e) resolved.push_back(k);
        if (refs[k].size() > 1 && std::binary_search(refs[k].begin(), refs[k].end(), e))
          ambiguous.push_back(k);
      }
      auto pronouns_to = [&](knowledge::Gender to) {
        Replacements out_words;
        for (const std::size_t k : resolved) {
          const auto w = swap_pronoun(pronouns[k], to);
          if (w != words[pronouns[k].token]) out_words.emplace_back(pronouns[k].token, w);
        }
        return out_words;
      };
      // Why the perturbation towards `to` cannot be made (kNone: any change of gender): a
      // pronoun that may refer to this person or another and would have to change.
      auto ambiguity = [&](knowledge::Gender to) -> std::string {
        for (const std::size_t k : ambiguous) {
          if (to != knowledge::Gender::kNone && pronouns[k].gender == to) continue;
          std::string others;
          for (const auto c : refs[k]) {
            others += (others.empty() ? "'" : " or '") + persons[c].written + "'";
          }
          return "ambiguous co-reference: '" +
                 std::string(tokens[pronouns[k].token].surface(text)) + "' may refer to " + others;
        }
        return "";
      };
      if (!who.name_tokens.empty()) {
        const auto to = who.gender == knowledge::Gender::kMale ? knowledge::Gender::kFemale
                                                               : knowledge::Gender::kMale;
        const std::size_t g = to == knowledge::Gender::kMale ? 0 : 1;
        const std::string name = text::to_lower(
            r_.first_names->replacement(who.written, who.gender, options_.seed, text_words));
        std::string why = ambiguity(knowledge::Gender::kNone);
        // The same first name with two surnames is two people ("david fincher and writer
        // david koepp"): which mentions are whose cannot be told.
        if (why.empty() && who.surnames.size() > 1) {
          why = "two people named '" + who.written + "':";
          for (const auto& surname : who.surnames) why += " " + surname;
        }
        if (!why.empty()) {
          out.dropped.push_back({MutationKind::kName, attribute_.groups[g].name, who.written,
                                 text::upper_first(name), why});
          continue;
        }
        Replacements change;
        if (const auto no = descriptions_to(e, g, to, change); !no.empty()) {
          out.dropped.push_back({MutationKind::kName, attribute_.groups[g].name, who.written,
                                 text::upper_first(name), no});
          continue;
        }
        for (const std::size_t t : who.name_tokens) change.emplace_back(t, name);
        for (auto& p : pronouns_to(to)) change.push_back(std::move(p));
        Realised r;
        r.new_word = text::transfer_case(who.written, name);
        add_replacements(r, change);
        emit(MutationKind::kName, g, who.written, r, fluency_of(r), "names");
        continue;
      }
      const NounInfo& info = *occ_info[who.occs[0]];
      // A noun that describes a person named otherwise changes with that person.
      if (const auto d = std::find_if(who.occs.begin(), who.occs.end(),
                                      [&](std::size_t a) { return described[a].has_value(); });
          d != who.occs.end()) {
        out.dropped.push_back(
            {info.neutral ? MutationKind::kActive : MutationKind::kAnalogy, "", who.written, "",
             "describes '" + std::string(tokens[*described[*d]].surface(text)) +
                 "': it takes that person's gender"});
        continue;
      }
      if (options_.analogy) {
        for (std::size_t g = 0; g < n_groups; ++g) {
          if (info.candidates[g].empty()) continue;
          auto why = ambiguity(knowledge::Gender::kNone);
          Replacements extra = pronouns_to(gender_of_group(g));
          if (why.empty()) why = descriptions_to(e, g, gender_of_group(g), extra);
          if (!why.empty()) {
            out.dropped.push_back({MutationKind::kAnalogy, attribute_.groups[g].name, who.written,
                                   info.candidates[g][info.chosen[g]].word, why});
            continue;
          }
          propose_analogy(info, g, who.occs, extra);
        }
      }
      if (options_.active && info.neutral) {
        // The adjective goes before the first mention that takes one (every such mention with
        // all_occurrences); the pronouns follow the inserted gender.
        std::vector<std::size_t> at;
        for (const std::size_t k : who.occs) {
          if (!active_ok(k)) continue;
          at.push_back(k);
          if (!options_.all_occurrences) break;
        }
        if (at.empty()) continue;
        // Before a first name, only the name's own gender ("newcomer ellen pompeo"), also
        // over nouns joined by a conjunction ("the writer and director John Sayles"), whose
        // second noun takes no adjective of its own (it is the same person).
        const std::size_t first = occ_token[at.front()];
        // A conjunction at t joins the person nouns at t ± 1 (not a surname before it:
        // "director david fincher and writer david koepp" are two people).
        auto joined = [&](std::size_t t) {
          if (t == 0 || t + 1 >= tokens.size() || sentence_start[t] || sentence_start[t + 1])
            return false;
          const auto w = tokens[t].surface(text);
          const auto person_at = [&](std::size_t k) {
            return std::binary_search(occ_token.begin(), occ_token.end(), k);
          };
          return (w == "and" || w == "or" || w == "&" || w == "/") && person_at(t - 1) &&
                 person_at(t + 1);
        };
        std::size_t last = first;
        while (joined(last + 1)) last += 2;
        knowledge::Gender name_after = knowledge::Gender::kNone;
        for (const auto& [t, gender] : names) {
          if (t == last + 1) name_after = gender;
        }
        if (name_after != knowledge::Gender::kNone && first >= 2 && joined(first - 1)) {
          out.dropped.push_back({MutationKind::kActive, "", who.written, "",
                                 "joined to the noun before it, which takes the adjective"});
          continue;
        }
        for (std::size_t g = 0; g < n_groups; ++g) {
          if (name_after != knowledge::Gender::kNone && gender_of_group(g) != name_after) {
            out.dropped.push_back({MutationKind::kActive, attribute_.groups[g].name, who.written,
                                   attribute_.groups[g].active,
                                   "contradicts the first name after it"});
            continue;
          }
          auto why = ambiguity(gender_of_group(g));
          Replacements extra = pronouns_to(gender_of_group(g));
          if (why.empty()) why = descriptions_to(e, g, gender_of_group(g), extra);
          if (!why.empty()) {
            out.dropped.push_back({MutationKind::kActive, attribute_.groups[g].name, who.written,
                                   attribute_.groups[g].active, why});
            continue;
          }
          propose_active(g, at, extra);
        }
      }
    }
  } else if (!options_.all_occurrences) {
    for (std::size_t k = 0; k < occ_token.size() && !full(); ++k) {
      const NounInfo& info = *occ_info[k];
      if (options_.analogy) {
        for (std::size_t g = 0; g < n_groups; ++g) propose_analogy(info, g, {k});
      }
      if (options_.active && info.neutral && active_ok(k)) {
        for (std::size_t g = 0; g < n_groups; ++g) propose_active(g, {k});
      }
    }
  } else {
    std::vector<std::string> order;
    std::unordered_map<std::string, std::vector<std::size_t>> by_lemma;
    for (std::size_t k = 0; k < occ_token.size(); ++k) {
      auto& v = by_lemma[occ_info[k]->lemma];
      if (v.empty()) order.push_back(occ_info[k]->lemma);
      v.push_back(k);
    }
    for (const auto& lemma : order) {
      if (full()) break;
      const auto& occs = by_lemma[lemma];
      const NounInfo& info = *occ_info[occs[0]];
      if (options_.analogy) {
        for (std::size_t g = 0; g < n_groups; ++g) propose_analogy(info, g, occs);
      }
      if (options_.active && info.neutral) {
        std::vector<std::size_t> applicable;
        for (std::size_t k : occs) {
          if (active_ok(k)) applicable.push_back(k);
        }
        if (!applicable.empty()) {
          for (std::size_t g = 0; g < n_groups; ++g) propose_active(g, applicable);
        }
      }
    }
  }

  if (options_.max_per_input > 0 && kept.size() > options_.max_per_input) {
    std::stable_sort(kept.begin(), kept.end(), [](const Kept& a, const Kept& b) {
      return a.p.fluency_ratio > b.p.fluency_ratio;
    });
    for (std::size_t i = options_.max_per_input; i < kept.size(); ++i) {
      const auto& p = kept[i].p;
      out.dropped.push_back({p.kind, p.group, p.old_word, p.new_word,
                             "over the cap of " + std::to_string(options_.max_per_input) +
                                 " most fluent perturbations"});
    }
    kept.resize(options_.max_per_input);
    std::sort(kept.begin(), kept.end(),
              [](const Kept& a, const Kept& b) { return a.order < b.order; });
  }
  if (kept.size() > max_perturbations) kept.resize(max_perturbations);
  for (auto& k : kept) out.perturbations.push_back(std::move(k.p));
  return out;
}

}  // namespace assay::fairness
