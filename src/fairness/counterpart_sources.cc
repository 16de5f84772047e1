// A person noun's counterparts of every group (the gender lexicon, the knowledge graph, word
// vectors by Algorithm 3), its gender and whether it is neutral, cached per noun.
#include "fairness/perturbator_internal.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "core/error.h"
#include "core/utf8.h"
#include "fairness/person_context.h"
#include "text/sentence_splitter.h"

namespace assay::fairness {

using namespace perturbator_detail;

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

}  // namespace assay::fairness
