// Counterpart source: word vectors, by Algorithm 3 (3CosAdd from the nearest group anchor, the
// first neighbour above the cosine threshold; with `strict`, the first the knowledge graph
// confirms), with the searches it runs: one at a time, or many at once in prepare().
#include <limits>
#include <set>

#include "core/error.h"
#include "core/utf8.h"
#include "fairness/perturbator_internal.h"
#include "text/sentence_splitter.h"

namespace assay::fairness {

using namespace perturbator_detail;

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

// Algorithm 3: the nearest group anchor pt, then t + W(p) - W(pt) for every other group p.
// Answers for every noun once vectors are loaded (a noun without a vector gets none).
Perturbator::SourceAnswer Perturbator::vector_counterparts(CounterpartSearch& search) const {
  if (!r_.vectors) return SourceAnswer::kPass;
  const std::string& lemma = search.lemma;
  const auto& m = *r_.vectors;
  if (!m.find(lemma)) {
    search.drop(0, "", "no vector for '" + lemma + "'");
    return SourceAnswer::kAnswered;
  }
  const auto nearest = nearest_group(lemma);
  if (!nearest) return SourceAnswer::kAnswered;
  const auto pt = m.word(*impl_->anchor_rows[*nearest]);
  for (std::size_t g = 0; g < attribute_.groups.size(); ++g) {
    if (g == *nearest || !impl_->anchor_rows[g]) continue;
    const auto p = m.word(*impl_->anchor_rows[g]);
    const auto found = analogy_neighbours(vectors::analogy_query(pt, p, lemma));
    // Strict: the first of the neighbours above the threshold that the graph confirms.
    for (const auto& f : found) {
      const std::string& word = m.word(f.index);
      if (f.similarity < options_.min_cosine) {
        search.drop(g, word, "cosine " + fmt(f.similarity) + " < " + fmt(options_.min_cosine));
        break;
      }
      const std::string w = text::to_lower(word);
      if (w != word || !is_noun_word(w)) {
        search.drop(g, word, "not a lower-case noun");
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
          search.drop(g, w, "strict: not a person noun of the other gender");
          continue;
        }
        if (!linked) {
          search.drop(
              g, w,
              attribute_.uses_gender_finder
                  ? "strict: not a gendered counterpart of '" + lemma + "' in the knowledge graph"
                  : "strict: not a person in the knowledge graph");
          continue;
        }
      }
      search.add(g, w, "vectors", f.similarity);
      break;
    }
  }
  return SourceAnswer::kAnswered;
}

}  // namespace assay::fairness
