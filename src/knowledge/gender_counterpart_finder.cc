#include "knowledge/gender_counterpart_finder.h"

#include <algorithm>
#include <array>
#include <unordered_map>
#include <unordered_set>

namespace assay::knowledge {
namespace {

constexpr std::size_t kAnchorHops = 4;

// Gender words of glosses, as (male, female) pairs; the swap table for gloss comparison.
constexpr std::array<std::pair<const char*, const char*>, 30> kGenderWordPairs = {{
    {"male", "female"},       {"males", "females"},     {"man", "woman"},
    {"men", "women"},         {"boy", "girl"},          {"boys", "girls"},
    {"gentleman", "lady"},    {"gentlemen", "ladies"},  {"father", "mother"},
    {"fathers", "mothers"},   {"son", "daughter"},      {"sons", "daughters"},
    {"husband", "wife"},      {"husbands", "wives"},    {"brother", "sister"},
    {"brothers", "sisters"},  {"king", "queen"},        {"widower", "widow"},
    {"uncle", "aunt"},        {"nephew", "niece"},      {"bridegroom", "bride"},
    {"he", "she"},            {"his", "her"},           {"him", "her"},
    {"prince", "princess"},   {"masculine", "feminine"}, {"patriarch", "matriarch"},
    {"hero", "heroine"},      {"grandfather", "grandmother"}, {"monk", "nun"},
}};

const std::unordered_map<std::string, Gender>& gender_words() {
  static const auto* table = [] {
    auto* t = new std::unordered_map<std::string, Gender>();
    for (const auto& [m, f] : kGenderWordPairs) {
      t->emplace(m, Gender::kMale);
      t->emplace(f, Gender::kFemale);
    }
    return t;
  }();
  return *table;
}

const std::unordered_map<std::string, std::string>& swap_table() {
  static const auto* table = [] {
    auto* t = new std::unordered_map<std::string, std::string>();
    for (const auto& [m, f] : kGenderWordPairs) {
      t->emplace(m, f);
      t->emplace(f, m);
    }
    return t;
  }();
  return *table;
}

Gender opposite(Gender g) {
  return g == Gender::kMale ? Gender::kFemale : g == Gender::kFemale ? Gender::kMale : Gender::kNone;
}

// Lower-case letter runs of the gloss's first clause (the definition before any ';').
std::vector<std::string> clause_tokens(const std::string& gloss) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : gloss) {
    if (c == ';') break;
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-') {
      cur.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c);
    } else if (!cur.empty()) {
      out.push_back(std::move(cur));
      cur.clear();
    }
  }
  if (!cur.empty()) out.push_back(std::move(cur));
  return out;
}

bool is_stopword(const std::string& t) {
  static const std::unordered_set<std::string> kStop = {
      "a", "an", "the", "of", "or", "and", "to", "in", "for", "who", "which", "that", "is",
      "as", "by", "with", "on", "your", "one", "than", "be", "has", "from", "at", "s"};
  return kStop.count(t) > 0;
}

// Content words with a crude plural fold, so "terms" matches "term".
std::unordered_set<std::string> content_words(const std::vector<std::string>& tokens) {
  std::unordered_set<std::string> out;
  for (std::string t : tokens) {
    if (is_stopword(t)) continue;
    if (t.size() > 3 && t.back() == 's' && !gender_words().count(t)) t.pop_back();
    out.insert(std::move(t));
  }
  return out;
}

double dice(const std::unordered_set<std::string>& a, const std::unordered_set<std::string>& b) {
  if (a.empty() || b.empty()) return 0.0;
  std::size_t common = 0;
  for (const auto& t : a) common += b.count(t);
  return 2.0 * static_cast<double>(common) / static_cast<double>(a.size() + b.size());
}

// "a female actor", "a woman waiter", "a male ...": the marker's gender and the words after it.
bool marked_gloss(const std::vector<std::string>& tokens, Gender* marker,
                  std::vector<std::string>* rest) {
  std::size_t i = 0;
  if (i < tokens.size() && (tokens[i] == "a" || tokens[i] == "an" || tokens[i] == "the")) ++i;
  if (i + 1 >= tokens.size()) return false;
  const std::string& m = tokens[i];
  if (m == "female" || m == "woman" || m == "girl" || m == "lady") {
    *marker = Gender::kFemale;
  } else if (m == "male" || m == "man" || m == "boy") {
    *marker = Gender::kMale;
  } else {
    return false;
  }
  rest->assign(tokens.begin() + static_cast<std::ptrdiff_t>(i + 1), tokens.end());
  return true;
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Small tie-break towards words shaped like the query (grandma -> grandpa before grandad,
// policeman -> policewoman before police_matron); far below the gaps between evidence kinds.
double shape_bonus(std::string_view query, std::string_view word) {
  std::size_t prefix = 0;
  while (prefix < query.size() && prefix < word.size() && query[prefix] == word[prefix]) ++prefix;
  std::size_t suffix = 0;
  while (suffix < query.size() - prefix && suffix < word.size() - prefix &&
         query[query.size() - 1 - suffix] == word[word.size() - 1 - suffix]) {
    ++suffix;
  }
  const std::size_t longest = std::max(query.size(), word.size());
  return longest ? 0.02 * static_cast<double>(prefix + suffix) / static_cast<double>(longest) : 0.0;
}

}  // namespace

std::string_view to_string(Gender g) {
  switch (g) {
    case Gender::kMale: return "male";
    case Gender::kFemale: return "female";
    case Gender::kNone: break;
  }
  return "none";
}

std::string_view to_string(CounterpartEvidence e) {
  switch (e) {
    case CounterpartEvidence::kAntonym: return "antonym";
    case CounterpartEvidence::kGloss: return "gloss";
    case CounterpartEvidence::kHyponymGloss: return "hyponym_gloss";
    case CounterpartEvidence::kGlossSwap: return "gloss_swap";
    case CounterpartEvidence::kMorphology: return "morphology";
  }
  return "unknown";
}

GenderCounterpartFinder::GenderCounterpartFinder(const KnowledgeGraph& graph,
                                                 const PersonClassifier& persons)
    : graph_(graph), persons_(persons) {
  const bool wordnet = graph.backend_name() == "wordnet";
  use_glosses_ = wordnet;
  const std::vector<std::string> male = wordnet ? std::vector<std::string>{"male.n.02", "man.n.01"}
                                                : std::vector<std::string>{"male", "man", "boy"};
  const std::vector<std::string> female =
      wordnet ? std::vector<std::string>{"female.n.02", "woman.n.01"}
              : std::vector<std::string>{"female", "woman", "girl"};
  for (const auto& n : male) {
    if (auto id = graph.find_node(n)) male_anchors_.push_back(*id);
  }
  for (const auto& n : female) {
    if (auto id = graph.find_node(n)) female_anchors_.push_back(*id);
  }
}

Gender GenderCounterpartFinder::sense_gender(NodeId sense) const {
  // Structure first: IsA reachability to the anchors.
  bool male = false, female = false;
  std::unordered_set<NodeId> seen{sense};
  std::vector<NodeId> frontier{sense};
  const float min_weight = persons_.options().min_weight;
  for (std::size_t hop = 0; hop <= kAnchorHops && !frontier.empty(); ++hop) {
    std::vector<NodeId> next;
    for (NodeId n : frontier) {
      male |= std::find(male_anchors_.begin(), male_anchors_.end(), n) != male_anchors_.end();
      female |= std::find(female_anchors_.begin(), female_anchors_.end(), n) != female_anchors_.end();
      for (const WeightedNode& h : graph_.hypernyms(n)) {
        if (h.weight > min_weight && seen.insert(h.node).second) next.push_back(h.node);
      }
    }
    frontier = std::move(next);
  }
  if (male != female) return male ? Gender::kMale : Gender::kFemale;
  if (male || !use_glosses_) return Gender::kNone;
  // Then the first gender word of the definition, unless it reads "father or mother".
  const auto tokens = clause_tokens(graph_.gloss(sense));
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const auto it = gender_words().find(tokens[i]);
    if (it == gender_words().end()) continue;
    if (i + 2 < tokens.size() && tokens[i + 1] == "or") {
      const auto other = gender_words().find(tokens[i + 2]);
      if (other != gender_words().end() && other->second != it->second) return Gender::kNone;
    }
    return it->second;
  }
  return Gender::kNone;
}

std::vector<NodeId> GenderCounterpartFinder::person_senses(std::string_view noun) const {
  std::vector<NodeId> out;
  for (NodeId s : graph_.noun_senses(noun)) {
    if (persons_.sense_is_person(s)) out.push_back(s);
  }
  return out;
}

Gender GenderCounterpartFinder::gender_of(std::string_view noun) const {
  for (NodeId s : person_senses(noun)) {
    const Gender g = sense_gender(s);
    if (g != Gender::kNone) return g;
  }
  // -woman / -man compounds whose synset covers both forms (chairman: {chairman, chairwoman}).
  const std::string w = normalize_term(noun);
  if (ends_with(w, "woman") && !person_senses(w).empty()) return Gender::kFemale;
  if (ends_with(w, "man") && !person_senses(w).empty() &&
      !graph_.noun_senses(w.substr(0, w.size() - 3) + "woman").empty()) {
    return Gender::kMale;
  }
  return Gender::kNone;
}

void GenderCounterpartFinder::add(std::vector<Counterpart>& out, std::string word, Gender gender,
                                  CounterpartEvidence evidence, double score) const {
  word = normalize_term(word);
  for (auto& c : out) {
    if (c.word == word) {
      if (score > c.score) {
        c.score = score;
        c.evidence = evidence;
      }
      return;
    }
  }
  out.push_back({std::move(word), gender, evidence, score});
}

void GenderCounterpartFinder::from_glosses(std::string_view noun, NodeId sense, Gender gender,
                                           std::vector<Counterpart>& out) const {
  Gender marker = Gender::kNone;
  std::vector<std::string> rest;
  // This sense defined as "a female X" (the whole first clause): X is the counterpart.
  if (marked_gloss(clause_tokens(graph_.gloss(sense)), &marker, &rest) && rest.size() <= 3) {
    std::string phrase = rest[0];
    for (std::size_t i = 1; i < rest.size(); ++i) phrase += "_" + rest[i];
    if (phrase != noun && !graph_.noun_senses(phrase).empty()) {
      const Gender g = gender_of(phrase);
      if (g != marker) add(out, phrase, g, CounterpartEvidence::kGloss, 0.9);
      // A sibling "a male X" beats the unmarked X (granddaughter -> grandson, not grandchild).
      for (NodeId xs : graph_.noun_senses(phrase)) {
        for (const WeightedNode& h : graph_.hyponyms(xs)) {
          Gender m = Gender::kNone;
          std::vector<std::string> r;
          if (h.node == sense || !marked_gloss(clause_tokens(graph_.gloss(h.node)), &m, &r)) continue;
          if (m == marker || m == Gender::kNone || r.size() > 3) continue;
          std::string p = r[0];
          for (std::size_t i = 1; i < r.size(); ++i) p += "_" + r[i];
          if (p != phrase) continue;
          for (const auto& w : graph_.node_words(h.node)) add(out, w, m, CounterpartEvidence::kHyponymGloss, 0.92);
        }
      }
    }
  }
  // A hyponym defined as "a female <this word>".
  std::vector<std::string> own;
  for (const auto& w : graph_.node_words(sense)) own.push_back(normalize_term(w));
  for (const WeightedNode& h : graph_.hyponyms(sense)) {
    if (!marked_gloss(clause_tokens(graph_.gloss(h.node)), &marker, &rest) || marker == gender) continue;
    if (rest.size() > 3) continue;
    std::string phrase = rest[0];
    for (std::size_t i = 1; i < rest.size(); ++i) phrase += "_" + rest[i];
    if (std::find(own.begin(), own.end(), phrase) == own.end()) continue;
    for (const auto& w : graph_.node_words(h.node)) add(out, w, marker, CounterpartEvidence::kHyponymGloss, 0.9);
  }
}

void GenderCounterpartFinder::from_gloss_swap(std::string_view noun, NodeId sense, Gender gender,
                                              std::vector<Counterpart>& out) const {
  if (gender == Gender::kNone) return;
  std::vector<std::string> swapped = clause_tokens(graph_.gloss(sense));
  for (auto& t : swapped) {
    if (const auto it = swap_table().find(t); it != swap_table().end()) t = it->second;
  }
  const auto target = content_words(swapped);
  // Siblings, and hyponyms of the hypernyms' own counterparts (dad: father -> mother -> mum).
  std::vector<NodeId> candidates;
  for (const WeightedNode& h : graph_.hypernyms(sense)) {
    for (const WeightedNode& s : graph_.hyponyms(h.node)) candidates.push_back(s.node);
    for (const auto& w : graph_.node_words(h.node)) {
      for (const auto& a : graph_.antonyms(w)) {
        for (NodeId as : graph_.noun_senses(a)) {
          for (const WeightedNode& s : graph_.hyponyms(as)) candidates.push_back(s.node);
        }
      }
    }
  }
  const Gender want = opposite(gender);
  for (NodeId c : candidates) {
    if (c == sense || sense_gender(c) != want) continue;
    const double sim = dice(target, content_words(clause_tokens(graph_.gloss(c))));
    if (sim < 0.5) continue;
    // Prefer, inside the synset, words shaped like the query (daddy -> mummy before ma).
    auto words = graph_.node_words(c);
    std::stable_sort(words.begin(), words.end(), [&](const std::string& a, const std::string& b) {
      auto diff = [&](const std::string& w) {
        return w.size() > noun.size() ? w.size() - noun.size() : noun.size() - w.size();
      };
      return diff(a) < diff(b);
    });
    for (std::size_t i = 0; i < words.size(); ++i) {
      add(out, words[i], want, CounterpartEvidence::kGlossSwap, 0.5 + 0.35 * sim - 0.001 * static_cast<double>(i));
    }
  }
}

void GenderCounterpartFinder::from_morphology(std::string_view noun, Gender gender,
                                              std::vector<Counterpart>& out) const {
  const std::string w(noun);
  std::vector<std::string> forms;
  if (ends_with(w, "woman")) {
    forms.push_back(w.substr(0, w.size() - 5) + "man");
  } else if (ends_with(w, "man")) {
    forms.push_back(w.substr(0, w.size() - 3) + "woman");
  } else if (ends_with(w, "ess") && w.size() > 4) {
    const std::string stem = w.substr(0, w.size() - 3);
    forms.push_back(stem);
    forms.push_back(stem + "e");
    if (ends_with(w, "ress")) {
      const std::string base = w.substr(0, w.size() - 4);
      forms.push_back(base + "er");
      forms.push_back(base + "or");
    }
    if (stem.size() >= 2 && stem[stem.size() - 1] == stem[stem.size() - 2]) forms.push_back(stem.substr(0, stem.size() - 1));
  } else if (!w.empty()) {
    forms.push_back(w + "ess");
    if (ends_with(w, "er") || ends_with(w, "or")) forms.push_back(w.substr(0, w.size() - 2) + "ress");
    if (w.back() == 'e') forms.push_back(w.substr(0, w.size() - 1) + "ess");
    forms.push_back(w + w.back() + "ess");
  }
  // -man/-woman pairs are the strongest morphological signal; -ess forms need opposite genders.
  const bool compound = ends_with(w, "man");
  for (const auto& f : forms) {
    if (f == w || person_senses(f).empty()) continue;
    const Gender g = gender_of(f);
    if (g == gender || (g == Gender::kNone && gender == Gender::kNone)) continue;
    add(out, f, g, CounterpartEvidence::kMorphology, compound ? 0.95 : 0.85);
  }
}

std::vector<Counterpart> GenderCounterpartFinder::counterparts(std::string_view word) const {
  const std::string noun = normalize_term(word);
  std::vector<Counterpart> out;
  const std::vector<NodeId> senses = person_senses(noun);
  if (senses.empty()) return out;
  const Gender gender = gender_of(noun);
  if (gender != Gender::kNone) {
    for (const auto& a : graph_.antonyms(noun)) {
      const Gender g = gender_of(a);
      if (g != Gender::kNone && g != gender) add(out, a, g, CounterpartEvidence::kAntonym, 1.0);
    }
  }
  for (NodeId s : senses) {
    const Gender g = sense_gender(s);
    from_glosses(noun, s, g == Gender::kNone ? gender : g, out);
    from_gloss_swap(noun, s, g, out);
  }
  from_morphology(noun, gender, out);
  for (auto& c : out) c.score += shape_bonus(noun, c.word);
  out.erase(std::remove_if(out.begin(), out.end(), [&](const Counterpart& c) { return c.word == noun; }),
            out.end());
  std::stable_sort(out.begin(), out.end(),
                   [](const Counterpart& a, const Counterpart& b) { return a.score > b.score; });
  return out;
}

}  // namespace assay::knowledge
