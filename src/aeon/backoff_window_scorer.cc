#include "aeon/backoff_window_scorer.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "core/check.h"

namespace assay::aeon {
namespace {

using lm::kNoWord;
using lm::WordId;

// Which explicit n-grams a candidate w has with the window's neighbours.
enum : std::uint8_t {
  kAfterV = 1,    // bigram (v, w)
  kTriUVW = 2,    // trigram (u, v, w)
  kBeforeX = 4,   // bigram (w, x)
  kTriVWX = 8,    // trigram (v, w, x)
  kTriWXY = 16,   // trigram (w, x, y)
};

constexpr int kLoBits = 10;
constexpr int kHiRange = 1024;  // table covers |d| < kHiRange << kLoBits

// Per-thread scratch, sized to the vocabulary; `mark` is all zero between calls.
struct Scratch {
  std::vector<int> total;
  std::vector<std::uint8_t> mark;
  std::vector<WordId> touched;
  std::vector<float> p_vw, bo_vw, p_uvw, p_wx, bo_wx, p_vwx, p_wxy;
  void fit(std::size_t n) {
    if (total.size() >= n) return;
    total.resize(n);
    mark.assign(n, 0);
    for (auto* v : {&p_vw, &bo_vw, &p_uvw, &p_wx, &bo_wx, &p_vwx, &p_wxy}) v->resize(n);
  }
};

thread_local Scratch tls_scratch;
thread_local std::vector<std::pair<std::size_t, int>> tls_explicit;

// The generic score of every word (no explicit n-gram with the neighbours): sphinxbase's
// single-precision sums, truncated like its (int32) cast. N1 = history length of the first
// factor; F2 = whether the second factor exists. Branch-free so that it vectorises.
template <int N1, bool F2>
void generic_scores(const float* __restrict p, const float* __restrict q, int* __restrict out, std::size_t n,
                    float b0, float b1, float px, int k3) {
#pragma omp simd
  for (std::size_t i = 0; i < n; ++i) {
    float a = p[i];
    if constexpr (N1 >= 1) a = a + b0;
    if constexpr (N1 == 2) a = a + b1;
    int s = static_cast<int>(a) + k3;
    if constexpr (F2) {
      const float b = px + q[i];
      s += static_cast<int>(b);
    }
    out[i] = s;
  }
}

}  // namespace

BackoffWindowScorer::BackoffWindowScorer(const lm::SphinxTrie& trie) : trie_(trie) {
  ASSAY_CHECK(trie.order() == 3);
  const double c = lm::SphinxTrie::log_base();
  exp_lo_.resize(std::size_t{1} << kLoBits);
  for (std::size_t j = 0; j < exp_lo_.size(); ++j) exp_lo_[j] = std::exp(-c * static_cast<double>(j));
  exp_hi_.resize(2 * kHiRange + 1);
  for (int k = -kHiRange; k <= kHiRange; ++k) {
    exp_hi_[static_cast<std::size_t>(k + kHiRange)] = std::exp(-c * static_cast<double>(k) * (1 << kLoBits));
  }
  // Σ 1.0001^P(w) and Σ 1.0001^(P(w) + Q(w)) over V ∖ {<s>, </s>} (separable_probability).
  const std::vector<float>& P = trie.unigram_probs();
  const std::vector<float>& Q = trie.unigram_backoffs();
  exp_p_.resize(P.size());
  exp_pq_.resize(P.size());
  for (WordId w = 0; w < trie.vocabulary_size(); ++w) {
    const auto i = static_cast<std::size_t>(w);
    exp_p_[i] = std::exp(c * static_cast<double>(P[i]));
    exp_pq_[i] = std::exp(c * (static_cast<double>(P[i]) + static_cast<double>(Q[i])));
    if (w == trie.begin_sentence() || w == trie.end_sentence()) continue;
    sum_p_ += exp_p_[i];
    sum_pq_ += exp_pq_[i];
  }
}

double BackoffWindowScorer::exp_units(int d) const {
  const int hi = d >> kLoBits;  // floor division
  if (hi < -kHiRange || hi > kHiRange) return std::exp(-lm::SphinxTrie::log_base() * d);
  return exp_hi_[static_cast<std::size_t>(hi + kHiRange)] * exp_lo_[static_cast<std::size_t>(d & ((1 << kLoBits) - 1))];
}

std::vector<int> BackoffWindowScorer::candidate_scores(const std::array<WordId, 5>& win) const {
  const int* T = scores(win);
  return std::vector<int>(T, T + trie_.vocabulary_size());
}

double BackoffWindowScorer::probability(const std::array<WordId, 5>& win) const {
  const WordId t = win[2];
  const auto V = static_cast<std::size_t>(trie_.vocabulary_size());
  ASSAY_CHECK(t >= 0 && t < trie_.vocabulary_size() && t != trie_.begin_sentence() && t != trie_.end_sentence());
  const int* T = scores(win);
  // Normaliser relative to the target: Σ 1.0001^(S(w) − S(t)), <s> and </s> excluded.
  const int st = T[static_cast<std::size_t>(t)];
  auto sum_range = [&](std::size_t b, std::size_t e) {
    // Four partial sums: the additions' latency, not the look-ups, bounds a single chain.
    double a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    std::size_t i = b;
    for (; i + 4 <= e; i += 4) {
      a0 += exp_units(st - T[i]);
      a1 += exp_units(st - T[i + 1]);
      a2 += exp_units(st - T[i + 2]);
      a3 += exp_units(st - T[i + 3]);
    }
    for (; i < e; ++i) a0 += exp_units(st - T[i]);
    return (a0 + a1) + (a2 + a3);
  };
  std::size_t lo = static_cast<std::size_t>(trie_.begin_sentence());
  std::size_t hi = static_cast<std::size_t>(trie_.end_sentence());
  if (lo > hi) std::swap(lo, hi);
  const double z = sum_range(0, lo) + sum_range(lo + 1, hi) + sum_range(hi + 1, V);
  return 1.0 / z;
}

// The window's context constants (sphinxbase's factors that do not depend on the candidate).
struct BackoffWindowScorer::Context {
  WordId u = kNoWord, v = kNoWord, x = kNoWord, y = kNoWord;
  int n1 = 0;  // history length of the first factor
  bool f2 = false, f3 = false;
  float b0 = 0, b1 = 0, px = 0, base3 = 0;
  int k3 = 0;
  const lm::SphinxTrie::Entry* xy = nullptr;
};

BackoffWindowScorer::Context BackoffWindowScorer::context(const std::array<WordId, 5>& win) const {
  Context c;
  c.u = win[0];
  c.v = win[1];
  c.x = win[3];
  c.y = win[4];
  c.n1 = c.v == kNoWord ? 0 : (c.u == kNoWord ? 1 : 2);
  c.f2 = c.x != kNoWord;
  c.f3 = c.f2 && c.y != kNoWord;
  const std::vector<float>& P = trie_.unigram_probs();
  const std::vector<float>& Q = trie_.unigram_backoffs();
  if (c.n1 >= 1) c.b0 = Q[static_cast<std::size_t>(c.v)];
  if (c.n1 == 2) {
    if (const auto* uv = trie_.bigram(c.u, c.v)) c.b1 = uv->backoff;
  }
  if (c.f2) c.px = P[static_cast<std::size_t>(c.x)];
  c.xy = c.f3 ? trie_.bigram(c.x, c.y) : nullptr;
  if (c.f3) {
    if (c.xy) {
      c.k3 = static_cast<int>(c.xy->prob + 0.0f);
    } else {
      c.base3 = P[static_cast<std::size_t>(c.y)] + Q[static_cast<std::size_t>(c.x)];
      c.k3 = static_cast<int>(c.base3 + 0.0f);
    }
  }
  return c;
}

int BackoffWindowScorer::generic_score(const Context& c, WordId w) const {
  const auto i = static_cast<std::size_t>(w);
  const std::vector<float>& P = trie_.unigram_probs();
  const std::vector<float>& Q = trie_.unigram_backoffs();
  float a = P[i];
  if (c.n1 >= 1) a = a + c.b0;
  if (c.n1 == 2) a = a + c.b1;
  int s = static_cast<int>(a) + c.k3;
  if (c.f2) {
    const float b = c.px + Q[i];
    s += static_cast<int>(b);
  }
  return s;
}

template <typename Fn>
void BackoffWindowScorer::explicit_scores(const Context& c, Fn&& emit) const {
  const std::vector<float>& P = trie_.unigram_probs();
  const std::vector<float>& Q = trie_.unigram_backoffs();
  Scratch& s = tls_scratch;
  s.fit(static_cast<std::size_t>(trie_.vocabulary_size()));
  const WordId u = c.u, v = c.v, x = c.x, y = c.y;
  const int n1 = c.n1;
  const bool f2 = c.f2, f3 = c.f3;
  const float b0 = c.b0, b1 = c.b1, px = c.px, base3 = c.base3;
  const lm::SphinxTrie::Entry* xy = c.xy;
  s.touched.clear();
  auto touch = [&](WordId w, std::uint8_t bit) {
    const auto i = static_cast<std::size_t>(w);
    if (s.mark[i] == 0) s.touched.push_back(w);
    s.mark[i] |= bit;
    return i;
  };
  if (n1 >= 1) {
    for (const auto& e : trie_.bigrams_after(v)) {
      const auto i = touch(e.word, kAfterV);
      s.p_vw[i] = e.prob;
      s.bo_vw[i] = e.backoff;
    }
  }
  if (n1 == 2) {
    for (const auto& e : trie_.trigrams_after(u, v)) s.p_uvw[touch(e.word, kTriUVW)] = e.prob;
  }
  if (f2) {
    for (const auto& e : trie_.bigrams_before(x)) {
      const auto i = touch(e.word, kBeforeX);
      s.p_wx[i] = e.prob;
      s.bo_wx[i] = e.backoff;
    }
    if (n1 >= 1) {
      for (const auto& e : trie_.trigrams_around(v, x)) s.p_vwx[touch(e.word, kTriVWX)] = e.prob;
    }
  }
  if (xy) {
    for (const auto& e : trie_.trigrams_before(x, y)) s.p_wxy[touch(e.word, kTriWXY)] = e.prob;
  }
  // Their exact scores, following sphinxbase's look-up for each factor.
  for (const WordId w : s.touched) {
    const auto i = static_cast<std::size_t>(w);
    const std::uint8_t m = s.mark[i];
    s.mark[i] = 0;
    int score = 0;
    if (n1 == 0) {
      score += static_cast<int>(P[i]);
    } else if (m & kAfterV) {
      if (n1 == 1)
        score += static_cast<int>(s.p_vw[i]);
      else if (m & kTriUVW)
        score += static_cast<int>(s.p_uvw[i]);
      else
        score += static_cast<int>(s.p_vw[i] + b1);
    } else {
      float a = P[i] + b0;
      if (n1 == 2) a = a + b1;
      score += static_cast<int>(a);
    }
    if (f2) {
      const float bc1 = (m & kAfterV) ? s.bo_vw[i] : 0.0f;  // bo(v w); v valid whenever set
      if (m & kBeforeX) {
        if (n1 == 0)
          score += static_cast<int>(s.p_wx[i]);
        else if (m & kTriVWX)
          score += static_cast<int>(s.p_vwx[i]);
        else
          score += static_cast<int>(s.p_wx[i] + bc1);
      } else {
        float b = px + Q[i];
        b = b + bc1;
        score += static_cast<int>(b);
      }
    }
    if (f3) {
      const float bc1 = (m & kBeforeX) ? s.bo_wx[i] : 0.0f;  // bo(w x)
      if (!xy)
        score += static_cast<int>(base3 + bc1);
      else if (m & kTriWXY)
        score += static_cast<int>(s.p_wxy[i]);
      else
        score += static_cast<int>(xy->prob + bc1);
    }
    emit(i, score);
  }
}

const int* BackoffWindowScorer::scores(const std::array<WordId, 5>& win) const {
  const Context c = context(win);
  const auto V = static_cast<std::size_t>(trie_.vocabulary_size());
  const std::vector<float>& P = trie_.unigram_probs();
  const std::vector<float>& Q = trie_.unigram_backoffs();
  Scratch& s = tls_scratch;
  s.fit(V);
  int* T = s.total.data();
  const float b0 = c.b0, b1 = c.b1, px = c.px;
  const int k3 = c.k3;
  // 1. Generic scores for the whole vocabulary.
  switch (c.n1 * 2 + (c.f2 ? 1 : 0)) {
    case 0: generic_scores<0, false>(P.data(), Q.data(), T, V, b0, b1, px, k3); break;
    case 1: generic_scores<0, true>(P.data(), Q.data(), T, V, b0, b1, px, k3); break;
    case 2: generic_scores<1, false>(P.data(), Q.data(), T, V, b0, b1, px, k3); break;
    case 3: generic_scores<1, true>(P.data(), Q.data(), T, V, b0, b1, px, k3); break;
    case 4: generic_scores<2, false>(P.data(), Q.data(), T, V, b0, b1, px, k3); break;
    default: generic_scores<2, true>(P.data(), Q.data(), T, V, b0, b1, px, k3); break;
  }
  // 2. Candidates with explicit n-grams with the neighbours, enumerated from the model.
  explicit_scores(c, [&](std::size_t i, int score) { T[i] = score; });
  return T;
}

double BackoffWindowScorer::separable_probability(const std::array<WordId, 5>& win) const {
  const WordId t = win[2];
  ASSAY_CHECK(t >= 0 && t < trie_.vocabulary_size() && t != trie_.begin_sentence() && t != trie_.end_sentence());
  const Context c = context(win);
  const double lb = lm::SphinxTrie::log_base();
  // Everything relative to the target's exact integer score, so no term overflows.
  int st = generic_score(c, t);
  bool target_explicit = false;
  std::vector<std::pair<std::size_t, int>>& ex = tls_explicit;
  ex.clear();
  explicit_scores(c, [&](std::size_t i, int score) {
    ex.emplace_back(i, score);
    if (i == static_cast<std::size_t>(t)) {
      st = score;
      target_explicit = true;
    }
  });
  // The generic score without the truncations, each truncation (toward zero, of a negative
  // sum) taken as +0.5 on average: G(w) = P(w) + f2·Q(w) + C.
  double cst = static_cast<double>(c.k3) + 0.5;
  if (c.n1 >= 1) cst += static_cast<double>(c.b0);
  if (c.n1 == 2) cst += static_cast<double>(c.b1);
  if (c.f2) cst += static_cast<double>(c.px) + 0.5;
  const double shift = cst - static_cast<double>(st);
  const double scale = std::exp(lb * shift);
  const double* e = c.f2 ? exp_pq_.data() : exp_p_.data();
  auto approx = [&](std::size_t i) { return scale * e[i]; };
  double z = scale * (c.f2 ? sum_pq_ : sum_p_);
  const auto bs = static_cast<std::size_t>(trie_.begin_sentence());
  const auto es = static_cast<std::size_t>(trie_.end_sentence());
  for (const auto& [i, score] : ex) {
    if (i == bs || i == es) continue;
    z += exp_units(st - score) - approx(i);
  }
  if (!target_explicit) z += 1.0 - approx(static_cast<std::size_t>(t));
  return 1.0 / z;
}

}  // namespace assay::aeon
