#include "aeon/vector_semeval.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <unordered_map>

#include "aeon/levenshtein_alignment.h"
#include "aeon/sentence_splitter.h"
#include "aeon/word_splitter.h"

namespace assay::aeon {
namespace {

enum class Slot : std::uint8_t { kMatch, kSubstitute, kIndel };

}  // namespace

// One aligned pair of word sequences: what every position of each side became.
struct VectorSemEval::Aligned {
  std::vector<std::string> a, b;
  std::vector<Slot> a_slot, b_slot;
  std::vector<double> a_pair_sim;                // substituted a positions: word-pair similarity
  std::vector<std::vector<float>> a_vec, b_vec;  // empty when the word has no vector
  std::vector<Edit> edits;
};

VectorSemEval::VectorSemEval(const vectors::EmbeddingMatrix* vectors,
                             const WordNetRelations& wordnet, VectorSemEvalOptions options)
    : vectors_(vectors), wordnet_(wordnet), options_(options) {}

double VectorSemEval::word_similarity(const std::string& a, const std::string& b) const {
  if (a == b) return 1.0;
  std::string key;
  key.reserve(a.size() + 1 + b.size());
  key.append(a).push_back('\0');
  key.append(b);
  {
    const std::lock_guard lock(pairs_mutex_);
    if (const auto it = pair_similarity_.find(key); it != pair_similarity_.end()) return it->second;
  }
  const double s = wordnet_.antonyms(a, b)   ? -1.0
                   : wordnet_.synonyms(a, b) ? 1.0
                                             : wordnet_.path_similarity(a, b);
  const std::lock_guard lock(pairs_mutex_);
  pair_similarity_.emplace(std::move(key), s);
  return s;
}

double VectorSemEval::span_similarity(const Aligned& al, std::size_t a0, std::size_t a1,
                                      std::size_t b0, std::size_t b1) const {
  if (vectors_) {
    const std::size_t dim = vectors_->dim();
    std::vector<double> va(dim, 0.0), vb(dim, 0.0);
    std::size_t na = 0, nb = 0;
    for (std::size_t i = a0; i < a1; ++i) {
      if (al.a_vec[i].empty()) continue;
      for (std::size_t k = 0; k < dim; ++k) va[k] += al.a_vec[i][k];
      ++na;
    }
    for (std::size_t j = b0; j < b1; ++j) {
      if (al.b_vec[j].empty()) continue;
      for (std::size_t k = 0; k < dim; ++k) vb[k] += al.b_vec[j][k];
      ++nb;
    }
    if (na > 0 && nb > 0) {
      double dot = 0, aa = 0, bb = 0;
      for (std::size_t k = 0; k < dim; ++k) {
        dot += va[k] * vb[k];
        aa += va[k] * va[k];
        bb += vb[k] * vb[k];
      }
      if (aa > 0 && bb > 0) return dot / std::sqrt(aa * bb);
      return (aa == 0 && bb == 0) ? 1.0 : 0.0;
    }
  }
  const std::size_t la = a1 - a0, lb = b1 - b0;
  if (la == 0 && lb == 0) return 1.0;
  double sum = 0;
  for (std::size_t i = a0; i < a1; ++i) {
    if (al.a_slot[i] == Slot::kMatch)
      sum += 1.0;
    else if (al.a_slot[i] == Slot::kSubstitute)
      sum += al.a_pair_sim[i];
  }
  return sum / static_cast<double>(std::max(la, lb));
}

SemEvalResult VectorSemEval::score(std::string_view original, std::string_view generated) const {
  auto align = [&](std::string_view x, std::string_view y) {
    Aligned al;
    al.a = split_words(x, true);
    al.b = split_words(y, true);
    std::unordered_map<std::string, std::int32_t> ids;
    auto intern = [&](const std::vector<std::string>& ws) {
      std::vector<std::int32_t> out;
      for (const auto& w : ws)
        out.push_back(ids.emplace(w, static_cast<std::int32_t>(ids.size())).first->second);
      return out;
    };
    const auto ia = intern(al.a), ib = intern(al.b);
    al.edits = levenshtein_edits(ia, ib);
    al.a_slot.assign(al.a.size(), Slot::kMatch);
    al.b_slot.assign(al.b.size(), Slot::kMatch);
    al.a_pair_sim.assign(al.a.size(), 0.0);
    auto vec = [&](const std::string& w) {
      std::vector<float> v;
      if (vectors_) {
        if (const auto r = vectors_->find(w))
          v.assign(vectors_->row(*r).begin(), vectors_->row(*r).end());
      }
      return v;
    };
    for (const auto& w : al.a) al.a_vec.push_back(vec(w));
    for (const auto& w : al.b) al.b_vec.push_back(vec(w));
    for (const Edit& e : al.edits) {
      if (e.kind == EditKind::kDelete) {
        al.a_slot[e.a_pos] = Slot::kIndel;
      } else if (e.kind == EditKind::kInsert) {
        al.b_slot[e.b_pos] = Slot::kIndel;
      } else {
        al.a_slot[e.a_pos] = al.b_slot[e.b_pos] = Slot::kSubstitute;
        const double s = word_similarity(al.a[e.a_pos], al.b[e.b_pos]);
        al.a_pair_sim[e.a_pos] = s;
        // Knowledge overrides distribution: a synonym means the same, an antonym the opposite.
        if (!al.a_vec[e.a_pos].empty() && (s == 1.0 || s == -1.0)) {
          al.b_vec[e.b_pos] = al.a_vec[e.a_pos];
          if (s < 0)
            for (float& f : al.b_vec[e.b_pos]) f = -f;
        }
      }
    }
    return al;
  };

  SemEvalResult r;
  if (original == generated) return r;
  const Aligned whole = align(original, generated);
  r.cos_whole = span_similarity(whole, 0, whole.a.size(), 0, whole.b.size());

  auto sa = split_sentences(original), sb = split_sentences(generated);
  if (sa.size() != sb.size()) {
    sa = {std::string(original)};
    sb = {std::string(generated)};
  }
  std::vector<double> patch;
  for (std::size_t s = 0; s < sa.size(); ++s) {
    if (sa[s] == sb[s]) continue;
    const Aligned al = align(sa[s], sb[s]);
    for (const Patch& p : edit_patches(al.edits, al.a.size(), al.b.size(), options_.patch_radius)) {
      patch.push_back(span_similarity(al, p.a_begin, p.a_end, p.b_begin, p.b_end));
    }
  }
  r.n_patches = patch.size();
  double sim = r.cos_whole;
  if (!patch.empty()) {
    r.min_patch_cos = *std::min_element(patch.begin(), patch.end());
    double sum = 0;
    for (double v : patch) sum += v;
    r.mean_patch_cos = sum / static_cast<double>(patch.size());
    sim = options_.lambda1 * r.min_patch_cos + options_.lambda2 * r.mean_patch_cos +
          (1 - options_.lambda1 - options_.lambda2) * r.cos_whole;
  }
  r.sim = std::clamp(sim, 0.0, 1.0);
  return r;
}

}  // namespace assay::aeon
