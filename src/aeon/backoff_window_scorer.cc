#include "aeon/backoff_window_scorer.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <utility>

#include "core/check.h"

namespace assay::aeon {
namespace {

using lm::kNoWord;
using lm::WordId;

// Which explicit n-grams a candidate w has with the window's neighbours.
enum : std::uint8_t {
  kAfterV = 1,   // bigram (v, w)
  kTriUVW = 2,   // trigram (u, v, w)
  kBeforeX = 4,  // bigram (w, x)
  kTriVWX = 8,   // trigram (v, w, x)
  kTriWXY = 16,  // trigram (w, x, y)
};

constexpr int kLoBits = 10;
constexpr int kHiRange = 1024;  // table covers |d| < kHiRange << kLoBits

// One candidate's explicit n-grams with the window (`m`, kAfterV | …) and their values.
struct Cand {
  WordId w = kNoWord;
  std::uint8_t m = 0;
  float p_vw = 0, bo_vw = 0, p_uvw = 0, p_wx = 0, bo_wx = 0, p_vwx = 0, p_wxy = 0;
};

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

// The window's context constants (sphinxbase's factors that do not depend on the candidate).
struct BackoffContext {
  WordId u = kNoWord, v = kNoWord, x = kNoWord, y = kNoWord;
  int n1 = 0;  // history length of the first factor
  bool f2 = false, f3 = false;
  float b0 = 0, b1 = 0, px = 0, base3 = 0;
  int k3 = 0;
  const lm::SphinxTrie::Entry* xy = nullptr;
};

// The exact integer score of a candidate with unigram values Pi, Qi, following sphinxbase's
// look-up for each factor.
inline int exact_score(const BackoffContext& c, const Cand& k, float Pi, float Qi) {
  const std::uint8_t m = k.m;
  const int n1 = c.n1;
  int score = 0;
  if (n1 == 0) {
    score += static_cast<int>(Pi);
  } else if (m & kAfterV) {
    if (n1 == 1)
      score += static_cast<int>(k.p_vw);
    else if (m & kTriUVW)
      score += static_cast<int>(k.p_uvw);
    else
      score += static_cast<int>(k.p_vw + c.b1);
  } else {
    float a = Pi + c.b0;
    if (n1 == 2) a = a + c.b1;
    score += static_cast<int>(a);
  }
  if (c.f2) {
    const float bc1 = (m & kAfterV) ? k.bo_vw : 0.0f;  // bo(v w); v valid whenever set
    if (m & kBeforeX) {
      if (n1 == 0)
        score += static_cast<int>(k.p_wx);
      else if (m & kTriVWX)
        score += static_cast<int>(k.p_vwx);
      else
        score += static_cast<int>(k.p_wx + bc1);
    } else {
      float b = c.px + Qi;
      b = b + bc1;
      score += static_cast<int>(b);
    }
  }
  if (c.f3) {
    const float bc1 = (m & kBeforeX) ? k.bo_wx : 0.0f;  // bo(w x)
    if (!c.xy)
      score += static_cast<int>(c.base3 + bc1);
    else if (m & kTriWXY)
      score += static_cast<int>(k.p_wxy);
    else
      score += static_cast<int>(c.xy->prob + bc1);
  }
  return score;
}

// The generic score of every word (no explicit n-gram with the neighbours): sphinxbase's
// single-precision sums, truncated like its (int32) cast. N1 = history length of the first
// factor; F2 = whether the second factor exists. Branch-free so that it vectorises.
template <int N1, bool F2>
void generic_scores(const float* __restrict p, const float* __restrict q, int* __restrict out,
                    std::size_t n, float b0, float b1, float px, int k3) {
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

BackoffWindowScorer::BackoffWindowScorer(const lm::SphinxTrie& trie, std::size_t list_terms)
    : trie_(trie), list_terms_cap_(list_terms) {
  ASSAY_CHECK(trie.order() == 3);
  const double c = lm::SphinxTrie::log_base();
  exp_lo_.resize(std::size_t{1} << kLoBits);
  for (std::size_t j = 0; j < exp_lo_.size(); ++j)
    exp_lo_[j] = std::exp(-c * static_cast<double>(j));
  exp_hi_.resize(2 * kHiRange + 1);
  for (int k = -kHiRange; k <= kHiRange; ++k) {
    exp_hi_[static_cast<std::size_t>(k + kHiRange)] =
        std::exp(-c * static_cast<double>(k) * (1 << kLoBits));
  }
  // Σ 1.0001^P(w) and Σ 1.0001^(P(w) + Q(w)) over V ∖ {<s>, </s>} (separable_probability).
  const std::vector<float>& P = trie.unigram_probs();
  const std::vector<float>& Q = trie.unigram_backoffs();
  uni_.resize(P.size());
  after_sums_ = std::vector<std::atomic<const AfterSums*>>(P.size());
  before_sums_ = std::vector<std::atomic<const BeforeSums*>>(P.size());
  for (WordId w = 0; w < trie.vocabulary_size(); ++w) {
    const auto i = static_cast<std::size_t>(w);
    uni_[i] = UnigramTerms{P[i], Q[i], std::exp(c * static_cast<double>(P[i])),
                           std::exp(c * static_cast<double>(Q[i])),
                           std::exp(c * (static_cast<double>(P[i]) + static_cast<double>(Q[i])))};
    if (w == trie.begin_sentence() || w == trie.end_sentence()) continue;
    sum_p_ += uni_[i].exp_p;
    sum_pq_ += uni_[i].exp_pq;
  }
}

double BackoffWindowScorer::exp_units(int d) const {
  const int hi = d >> kLoBits;  // floor division
  if (hi < -kHiRange || hi > kHiRange) return std::exp(-lm::SphinxTrie::log_base() * d);
  return exp_hi_[static_cast<std::size_t>(hi + kHiRange)] *
         exp_lo_[static_cast<std::size_t>(d & ((1 << kLoBits) - 1))];
}

std::vector<int> BackoffWindowScorer::candidate_scores(const std::array<WordId, 5>& win) const {
  const int* T = scores(win);
  return std::vector<int>(T, T + trie_.vocabulary_size());
}

double BackoffWindowScorer::probability(const std::array<WordId, 5>& win) const {
  const WordId t = win[2];
  const auto V = static_cast<std::size_t>(trie_.vocabulary_size());
  ASSAY_CHECK(t >= 0 && t < trie_.vocabulary_size() && t != trie_.begin_sentence() &&
              t != trie_.end_sentence());
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
struct BackoffWindowScorer::Context : BackoffContext {};

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

template <typename Fn>
void BackoffWindowScorer::explicit_scores(const Context& c, Fn&& emit) const {
  const std::vector<float>& P = trie_.unigram_probs();
  const std::vector<float>& Q = trie_.unigram_backoffs();
  Scratch& s = tls_scratch;
  s.fit(static_cast<std::size_t>(trie_.vocabulary_size()));
  const WordId u = c.u, v = c.v, x = c.x, y = c.y;
  const int n1 = c.n1;
  const bool f2 = c.f2;
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
    Cand k;
    k.m = m;
    k.p_vw = s.p_vw[i];
    k.bo_vw = s.bo_vw[i];
    k.p_uvw = s.p_uvw[i];
    k.p_wx = s.p_wx[i];
    k.bo_wx = s.bo_wx[i];
    k.p_vwx = s.p_vwx[i];
    k.p_wxy = s.p_wxy[i];
    emit(i, exact_score(c, k, P[i], Q[i]));
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
    case 0:
      generic_scores<0, false>(P.data(), Q.data(), T, V, b0, b1, px, k3);
      break;
    case 1:
      generic_scores<0, true>(P.data(), Q.data(), T, V, b0, b1, px, k3);
      break;
    case 2:
      generic_scores<1, false>(P.data(), Q.data(), T, V, b0, b1, px, k3);
      break;
    case 3:
      generic_scores<1, true>(P.data(), Q.data(), T, V, b0, b1, px, k3);
      break;
    case 4:
      generic_scores<2, false>(P.data(), Q.data(), T, V, b0, b1, px, k3);
      break;
    default:
      generic_scores<2, true>(P.data(), Q.data(), T, V, b0, b1, px, k3);
      break;
  }
  // 2. Candidates with explicit n-grams with the neighbours, enumerated from the model.
  explicit_scores(c, [&](std::size_t i, int score) { T[i] = score; });
  return T;
}

namespace {

using Entry = lm::SphinxTrie::Entry;

constexpr std::size_t kIndexFrom = 256;  // lists at least this long get a WordIndex

// `list` itself when it is strictly sorted by word, else a sorted copy kept in `copy`.
std::span<const Entry> sorted_list(std::span<const Entry> list, std::vector<Entry>& copy) {
  for (std::size_t i = 1; i < list.size(); ++i) {
    if (!(list[i - 1].word < list[i].word)) {
      copy.assign(list.begin(), list.end());
      std::stable_sort(copy.begin(), copy.end(),
                       [](const Entry& a, const Entry& b) { return a.word < b.word; });
      copy.erase(std::unique(copy.begin(), copy.end(),
                             [](const Entry& a, const Entry& b) { return a.word == b.word; }),
                 copy.end());
      return copy;
    }
  }
  return list;
}

void build_index(std::span<const Entry> list, std::size_t V,
                 BackoffWindowScorer::WordIndex& index) {
  if (list.size() < kIndexFrom) return;
  const std::size_t blocks = (V + 63) / 64;
  index.bits.assign(blocks, 0);
  index.rank.assign(blocks, 0);
  for (const Entry& e : list) {
    const auto w = static_cast<std::size_t>(e.word);
    index.bits[w / 64] |= std::uint64_t{1} << (w % 64);
  }
  std::uint32_t before = 0;
  for (std::size_t b = 0; b < blocks; ++b) {
    index.rank[b] = before;
    before += static_cast<std::uint32_t>(std::popcount(index.bits[b]));
  }
}

// The first index ≥ lo of `list` (sorted by word) whose word is not below w.
std::size_t gallop(std::span<const Entry> list, std::size_t lo, WordId w) {
  const std::size_t n = list.size();
  if (lo >= n || !(list[lo].word < w)) return lo;
  std::size_t step = 1;
  while (lo + step < n && list[lo + step].word < w) step *= 2;
  const auto first = list.begin() + static_cast<std::ptrdiff_t>(lo + step / 2);
  const auto last = list.begin() + static_cast<std::ptrdiff_t>(std::min(lo + step + 1, n));
  return static_cast<std::size_t>(
      std::lower_bound(first, last, w, [](const Entry& e, WordId key) { return e.word < key; }) -
      list.begin());
}

// How many matches ahead a walk asks for the values it will read (they are scattered over
// lists too long to stay in cache: the walks wait on memory, not on arithmetic).
constexpr std::size_t kPrefetchAhead = 8;

// The (i, j) of every word of a sorted sequence (word(i) for i < n, ascending) that is entry j
// of a list with a WordIndex, in ascending order, collected without a branch per word into the
// calling thread's buffer (valid until the next call on this thread).
template <typename WordAt>
std::span<const std::pair<std::uint32_t, std::uint32_t>> index_matches(
    std::size_t n, WordAt&& word, const BackoffWindowScorer::WordIndex& index) {
  thread_local std::vector<std::pair<std::uint32_t, std::uint32_t>> found;
  found.resize(n + 1);
  std::size_t m = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t j = index.find_or_rank(word(i));
    found[m] = {static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(j >> 1)};
    m += static_cast<std::size_t>(j & 1);
  }
  return {found.data(), m};
}

// Calls fn(i, j) for every word of a sorted sequence (word(i) for i < n, ascending) that is
// list[j], in ascending order: by the list's WordIndex when it has one (calling prefetch(i, j)
// kPrefetchAhead matches before fn(i, j)), else by galloping forward.
template <typename WordAt, typename Fn, typename Prefetch>
void match(std::size_t n, WordAt&& word, std::span<const Entry> list,
           const BackoffWindowScorer::WordIndex& index, Fn&& fn, Prefetch&& prefetch) {
  if (!index.empty()) {
    const auto found = index_matches(n, word, index);
    const std::size_t m = found.size();
    for (std::size_t k = 0; k < std::min(m, kPrefetchAhead); ++k)
      prefetch(found[k].first, found[k].second);
    for (std::size_t k = 0; k < m; ++k) {
      if (k + kPrefetchAhead < m)
        prefetch(found[k + kPrefetchAhead].first, found[k + kPrefetchAhead].second);
      fn(found[k].first, found[k].second);
    }
    return;
  }
  std::size_t lo = 0;
  const std::size_t m = list.size();
  for (std::size_t i = 0; i < n; ++i) {
    const WordId w = word(i);
    lo = gallop(list, lo, w);
    if (lo == m) break;
    if (list[lo].word == w) fn(i, lo);
  }
}

}  // namespace

template <typename T>
std::size_t BackoffWindowScorer::PairTable<T>::slot(std::uint64_t key) const {
  const std::size_t mask = keys_.size() - 1;
  std::uint64_t h = key * 0x9e3779b97f4a7c15ull;
  std::size_t i = static_cast<std::size_t>(h ^ (h >> 32)) & mask;
  while (keys_[i] != key && keys_[i] != kFree) i = (i + 1) & mask;
  return i;
}

template <typename T>
const T* BackoffWindowScorer::PairTable<T>::find(std::uint64_t key) const {
  if (keys_.empty()) return nullptr;
  const std::size_t i = slot(key);
  return keys_[i] == key ? &values_[i] : nullptr;
}

template <typename T>
void BackoffWindowScorer::PairTable<T>::insert(std::uint64_t key, const T& value) {
  ASSAY_CHECK(key != kFree);
  if (2 * (size_ + 1) > keys_.size()) {  // at most half full
    std::pmr::vector<std::uint64_t> old_keys(std::max<std::size_t>(1024, 2 * keys_.size()), kFree,
                                             keys_.get_allocator());
    std::pmr::vector<T> old_values(old_keys.size(), values_.get_allocator());
    old_keys.swap(keys_);  // keys_ and values_ are now the larger, empty table
    old_values.swap(values_);
    for (std::size_t k = 0; k < old_keys.size(); ++k) {
      if (old_keys[k] == kFree) continue;
      const std::size_t i = slot(old_keys[k]);
      keys_[i] = old_keys[k];
      values_[i] = old_values[k];
    }
  }
  const std::size_t i = slot(key);
  keys_[i] = key;
  values_[i] = value;
  ++size_;
}

std::int64_t BackoffWindowScorer::WordIndex::find(WordId w) const {
  const auto i = static_cast<std::size_t>(w);
  const std::uint64_t block = bits[i / 64], bit = std::uint64_t{1} << (i % 64);
  if (!(block & bit)) return -1;
  // Bit count by halves (std::popcount is a library call without -mpopcnt).
  std::uint64_t m = block & (bit - 1);
  m = m - ((m >> 1) & 0x5555555555555555ull);
  m = (m & 0x3333333333333333ull) + ((m >> 2) & 0x3333333333333333ull);
  m = (m + (m >> 4)) & 0x0f0f0f0f0f0f0f0full;
  return static_cast<std::int64_t>(rank[i / 64]) +
         static_cast<std::int64_t>((m * 0x0101010101010101ull) >> 56);
}

std::int64_t BackoffWindowScorer::WordIndex::find_or_rank(WordId w) const {
  const auto i = static_cast<std::size_t>(w);
  const std::uint64_t block = bits[i / 64];
  std::uint64_t m = block & ((std::uint64_t{1} << (i % 64)) - 1);
  m = m - ((m >> 1) & 0x5555555555555555ull);
  m = (m & 0x3333333333333333ull) + ((m >> 2) & 0x3333333333333333ull);
  m = (m + (m >> 4)) & 0x0f0f0f0f0f0f0f0full;
  const auto r = static_cast<std::int64_t>(rank[i / 64]) +
                 static_cast<std::int64_t>((m * 0x0101010101010101ull) >> 56);
  return r * 2 + static_cast<std::int64_t>((block >> (i % 64)) & 1);
}

const BackoffWindowScorer::AfterSums& BackoffWindowScorer::after_sums(WordId v) const {
  ASSAY_CHECK(v >= 0 && v < trie_.vocabulary_size());
  std::atomic<const AfterSums*>& slot = after_sums_[static_cast<std::size_t>(v)];
  if (const AfterSums* done = slot.load(std::memory_order_acquire)) return *done;
  const std::lock_guard lock(sums_mutex_);
  if (const AfterSums* done = slot.load(std::memory_order_acquire)) return *done;
  const double lb = lm::SphinxTrie::log_base();
  auto sums = std::make_unique<AfterSums>(&sums_arena_);
  sums->list = sorted_list(trie_.bigrams_after(v), sums->sorted);
  const auto list = sums->list;
  sums->terms.resize(list.size());
  for (std::size_t k = 0; k < list.size(); ++k) {
    const Entry& e = list[k];
    const auto i = static_cast<std::size_t>(e.word);
    AfterTerm& t = sums->terms[k];
    t.alpha = std::exp(lb * (static_cast<double>(e.prob) + static_cast<double>(e.backoff)));
    t.alpha_q = t.alpha * uni_[i].exp_q;
    t.p_vw = std::exp(lb * static_cast<double>(e.prob));
    if (e.word == trie_.begin_sentence() || e.word == trie_.end_sentence()) continue;
    sums->a0 += t.p_vw;
    sums->a1 += t.alpha_q;
    sums->g0 += uni_[i].exp_p;
    sums->g1 += uni_[i].exp_pq;
  }
  build_index(list, static_cast<std::size_t>(trie_.vocabulary_size()), sums->index);
  const AfterSums* out = sums.get();
  after_store_.push_back(std::move(sums));
  slot.store(out, std::memory_order_release);
  return *out;
}

const BackoffWindowScorer::BeforeSums& BackoffWindowScorer::before_sums(WordId x) const {
  ASSAY_CHECK(x >= 0 && x < trie_.vocabulary_size());
  std::atomic<const BeforeSums*>& slot = before_sums_[static_cast<std::size_t>(x)];
  if (const BeforeSums* done = slot.load(std::memory_order_acquire)) return *done;
  const std::lock_guard lock(sums_mutex_);
  if (const BeforeSums* done = slot.load(std::memory_order_acquire)) return *done;
  const double lb = lm::SphinxTrie::log_base();
  auto sums = std::make_unique<BeforeSums>(&sums_arena_);
  sums->list = sorted_list(trie_.bigrams_before(x), sums->sorted);
  const auto list = sums->list;
  sums->beta0.resize(list.size());
  sums->beta1.resize(list.size());
  for (std::size_t k = 0; k < list.size(); ++k) {
    const Entry& e = list[k];
    const auto i = static_cast<std::size_t>(e.word);
    sums->beta0[k] = std::exp(lb * static_cast<double>(e.prob));
    sums->beta1[k] = std::exp(lb * (static_cast<double>(e.prob) + static_cast<double>(e.backoff)));
    if (e.word == trie_.begin_sentence() || e.word == trie_.end_sentence()) continue;
    sums->b0 += uni_[i].exp_p * sums->beta0[k];
    sums->b1 += uni_[i].exp_p * sums->beta1[k];
    sums->g1 += uni_[i].exp_pq;
  }
  build_index(list, static_cast<std::size_t>(trie_.vocabulary_size()), sums->index);
  const BeforeSums* out = sums.get();
  before_store_.push_back(std::move(sums));
  slot.store(out, std::memory_order_release);
  return *out;
}

BackoffWindowScorer::PairSums BackoffWindowScorer::pair_sums(WordId v, WordId x) const {
  const AfterSums& as = after_sums(v);
  const BeforeSums& bs = before_sums(x);
  const auto A = as.list;
  const auto B = bs.list;
  // Short intersections are cheaper to walk than to look up.
  constexpr std::size_t kKeepFrom = 64;
  const bool keep = std::min(A.size(), B.size()) >= kKeepFrom;
  const std::uint64_t key = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(v)) << 32) |
                            static_cast<std::uint32_t>(x);
  if (keep) {
    const std::lock_guard lock(pairs_mutex_);
    if (const PairSums* kept = pairs_.find(key)) return *kept;
  }
  PairSums ps;
  auto both = [&](std::size_t i, std::size_t j) {
    const WordId w = A[i].word;
    if (w == trie_.begin_sentence() || w == trie_.end_sentence()) return;
    const AfterTerm& a = as.terms[i];
    const UnigramTerms& u = uni_[static_cast<std::size_t>(w)];
    const double b0 = bs.beta0[j], b1 = bs.beta1[j];
    ps.alpha_beta0 += a.alpha * b0;
    ps.alpha_beta1 += a.alpha * b1;
    ps.p_beta0 += u.exp_p * b0;
    ps.p_beta1 += u.exp_p * b1;
    ps.p_q += u.exp_pq;
    ps.alpha_q += a.alpha_q;
  };
  auto prefetch = [&](std::size_t i, std::size_t j) {
    __builtin_prefetch(&as.terms[i]);
    __builtin_prefetch(&uni_[static_cast<std::size_t>(A[i].word)]);
    __builtin_prefetch(&bs.beta0[j]);
    __builtin_prefetch(&bs.beta1[j]);
  };
  // Walks the shorter of the two lists.
  if (A.size() <= B.size()) {
    match(
        A.size(), [&](std::size_t i) { return A[i].word; }, B, bs.index, both, prefetch);
  } else {
    match(
        B.size(), [&](std::size_t j) { return B[j].word; }, A, as.index,
        [&](std::size_t j, std::size_t i) { both(i, j); },
        [&](std::size_t j, std::size_t i) { prefetch(i, j); });
  }
  if (keep) {
    const std::lock_guard lock(pairs_mutex_);
    if (!pairs_.find(key)) pairs_.insert(key, ps);
  }
  return ps;
}

namespace {

bool is_marker(const lm::SphinxTrie& trie, WordId w) {
  return w == trie.begin_sentence() || w == trie.end_sentence();
}

std::uint64_t pair_key(WordId a, WordId b) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32) |
         static_cast<std::uint32_t>(b);
}

// The first index in [lo, n] whose word (word(i), ascending in i) is not below w.
template <typename WordAt>
std::size_t gallop_at(std::size_t n, WordAt&& word, std::size_t lo, WordId w) {
  if (lo >= n || !(word(lo) < w)) return lo;
  std::size_t step = 1;
  while (lo + step < n && word(lo + step) < w) step *= 2;
  // word(lo + step / 2) < w, and word(lo + step) ≥ w or lo + step ≥ n.
  std::size_t a = lo + step / 2 + 1, b = std::min(lo + step, n);
  while (a < b) {
    const std::size_t mid = a + (b - a) / 2;
    if (word(mid) < w)
      a = mid + 1;
    else
      b = mid;
  }
  return a;
}

// Calls fn(i, j) for every word both in a (na words, wa(i) ascending) and b (nb, wb(j)), in
// ascending order: walks the shorter sequence, galloping in the longer.
template <typename WA, typename WB, typename Fn>
void intersect(std::size_t na, WA&& wa, std::size_t nb, WB&& wb, Fn&& fn) {
  if (na <= nb) {
    std::size_t lo = 0;
    for (std::size_t i = 0; i < na && lo < nb; ++i) {
      const WordId w = wa(i);
      lo = gallop_at(nb, wb, lo, w);
      if (lo < nb && wb(lo) == w) fn(i, lo);
    }
  } else {
    std::size_t lo = 0;
    for (std::size_t j = 0; j < nb && lo < na; ++j) {
      const WordId w = wb(j);
      lo = gallop_at(na, wa, lo, w);
      if (lo < na && wa(lo) == w) fn(lo, j);
    }
  }
}

// intersect against a bigram list (sorted by word), by its WordIndex where it has one (then
// calling prefetch(i, j) kPrefetchAhead matches before fn(i, j), as match does).
template <typename WA, typename Fn, typename Prefetch>
void intersect_list(std::size_t na, WA&& wa, std::span<const Entry> list,
                    const BackoffWindowScorer::WordIndex& index, Fn&& fn, Prefetch&& prefetch) {
  if (!index.empty() && na <= list.size()) {
    match(na, wa, list, index, fn, prefetch);
    return;
  }
  intersect(
      na, wa, list.size(), [&](std::size_t j) { return list[j].word; }, fn);
}

// The index of w in a bigram list (sorted by word), or −1.
std::int64_t find_in(std::span<const Entry> list, const BackoffWindowScorer::WordIndex& index,
                     WordId w) {
  if (!index.empty()) return index.find(w);
  const std::size_t j = gallop_at(
      list.size(), [&](std::size_t i) { return list[i].word; }, 0, w);
  return j < list.size() && list[j].word == w ? static_cast<std::int64_t>(j) : -1;
}

// The index of w in a trigram list's terms (sorted by word), or −1.
template <typename Terms>
std::int64_t find_term(const Terms& terms, WordId w) {
  const std::size_t j = gallop_at(
      terms.size(), [&](std::size_t i) { return terms[i].w; }, 0, w);
  return j < terms.size() && terms[j].w == w ? static_cast<std::int64_t>(j) : -1;
}

// The list kept for `key`, built by build(list, terms) on first use (the list's sums, its
// terms appended to `terms`) and copied into `arena`; past `cap` terms kept in all, the
// caller's `scratch` over `terms` instead (the same values, so the same sums either way; valid
// until the next call with the same scratch).
template <typename List, typename Table, typename Term, typename Build>
const List& kept_list(std::mutex& mutex, std::size_t& count, std::size_t cap, Table& lists,
                      std::pmr::monotonic_buffer_resource& arena, std::uint64_t key, List& scratch,
                      std::vector<Term>& terms, Build&& build) {
  {
    const std::lock_guard lock(mutex);
    if (const auto* kept = lists.find(key)) return **kept;
  }
  List list{};
  terms.clear();
  build(list, terms);
  const std::size_t n = terms.size() + 1;
  const std::lock_guard lock(mutex);
  if (const auto* kept = lists.find(key)) return **kept;
  if (count + n > cap) {
    scratch = list;
    scratch.terms = terms;
    return scratch;
  }
  count += n;
  Term* kept_terms = nullptr;
  if (!terms.empty()) {
    kept_terms = static_cast<Term*>(arena.allocate(terms.size() * sizeof(Term), alignof(Term)));
    std::uninitialized_copy(terms.begin(), terms.end(), kept_terms);
  }
  list.terms = std::span<const Term>(kept_terms, terms.size());
  const List* kept = new (arena.allocate(sizeof(List), alignof(List))) List(list);
  lists.insert(key, kept);
  return *kept;
}

}  // namespace

const BackoffWindowScorer::LeftList& BackoffWindowScorer::left_list(WordId u, WordId v, float b1,
                                                                    const AfterSums& as) const {
  thread_local LeftList scratch;
  thread_local std::vector<LeftTerm> scratch_terms;
  return kept_list(
      lists_mutex_, list_terms_, list_terms_cap_, left_lists_, lists_arena_, pair_key(u, v),
      scratch, scratch_terms, [&](LeftList& out, std::vector<LeftTerm>& terms) {
        const double lb = lm::SphinxTrie::log_base();
        std::vector<Entry> copy;
        const auto T = sorted_list(trie_.trigrams_after(u, v), copy);
        terms.reserve(T.size());
        const auto A = as.list;
        // exact_score counts the trigram only with the bigram (v w).
        auto prefetch = [&](std::size_t, std::size_t j) {
          __builtin_prefetch(&A[j]);
          __builtin_prefetch(&as.terms[j]);
        };
        intersect_list(
            T.size(), [&](std::size_t k) { return T[k].word; }, A, as.index,
            [&](std::size_t k, std::size_t j) {
              const WordId w = T[k].word;
              if (is_marker(trie_, w)) return;
              const AfterTerm& a = as.terms[j];
              const LeftTerm e{
                  w,
                  T[k].prob,
                  std::expm1(lb * (static_cast<double>(T[k].prob) - static_cast<double>(A[j].prob) -
                                   static_cast<double>(b1))),
                  a.alpha,
                  a.alpha_q,
                  a.p_vw};
              out.s_q += e.alpha_q * e.d;
              out.s_p += e.e_pvw * e.d;
              terms.push_back(e);
            },
            prefetch);
      });
}

const BackoffWindowScorer::MidList& BackoffWindowScorer::mid_list(WordId v, WordId x,
                                                                  const AfterSums& as,
                                                                  const BeforeSums& bs) const {
  thread_local MidList scratch;
  thread_local std::vector<MidTerm> scratch_terms;
  return kept_list(
      lists_mutex_, list_terms_, list_terms_cap_, mid_lists_, lists_arena_, pair_key(v, x), scratch,
      scratch_terms, [&](MidList& out, std::vector<MidTerm>& terms) {
        const double lb = lm::SphinxTrie::log_base();
        std::vector<Entry> copy;
        const auto T = sorted_list(trie_.trigrams_around(v, x), copy);
        terms.reserve(T.size());
        const auto B = bs.list;
        // exact_score counts the trigram only with the bigram (w x).
        auto prefetch = [&](std::size_t, std::size_t j) {
          __builtin_prefetch(&B[j]);
          __builtin_prefetch(&bs.beta0[j]);
          __builtin_prefetch(&bs.beta1[j]);
        };
        intersect_list(
            T.size(), [&](std::size_t k) { return T[k].word; }, B, bs.index,
            [&](std::size_t k, std::size_t j) {
              const WordId w = T[k].word;
              if (is_marker(trie_, w)) return;
              const std::int64_t i = find_in(as.list, as.index, w);
              const double bo_vw =
                  i >= 0 ? static_cast<double>(as.list[static_cast<std::size_t>(i)].backoff) : 0.0;
              const MidTerm e{w,
                              T[k].prob,
                              std::expm1(lb * (static_cast<double>(T[k].prob) -
                                               static_cast<double>(B[j].prob) - bo_vw)),
                              i >= 0 ? as.terms[static_cast<std::size_t>(i)].alpha : 0.0,
                              uni_[static_cast<std::size_t>(w)].exp_p,
                              bs.beta0[j],
                              bs.beta1[j]};
              if (i >= 0) {
                out.a0 += e.alpha * e.beta0 * e.d;
                out.a1 += e.alpha * e.beta1 * e.d;
              } else {
                out.n0 += e.e_p * e.beta0 * e.d;
                out.n1 += e.e_p * e.beta1 * e.d;
              }
              terms.push_back(e);
            },
            prefetch);
      });
}

const BackoffWindowScorer::RightList& BackoffWindowScorer::right_list(WordId x, WordId y,
                                                                      const Entry& xy,
                                                                      const BeforeSums& bs) const {
  thread_local RightList scratch;
  thread_local std::vector<RightTerm> scratch_terms;
  return kept_list(
      lists_mutex_, list_terms_, list_terms_cap_, right_lists_, lists_arena_, pair_key(x, y),
      scratch, scratch_terms, [&](RightList& out, std::vector<RightTerm>& terms) {
        const double lb = lm::SphinxTrie::log_base();
        std::vector<Entry> copy;
        const auto T = sorted_list(trie_.trigrams_before(x, y), copy);
        terms.reserve(T.size());
        const double k3f = static_cast<double>(xy.prob);
        const double k3 = static_cast<double>(static_cast<int>(xy.prob + 0.0f));
        for (const Entry& t : T) {
          if (is_marker(trie_, t.word)) continue;
          const auto i = static_cast<std::size_t>(t.word);
          const std::int64_t j = find_in(bs.list, bs.index, t.word);
          const double p = static_cast<double>(t.prob);
          RightTerm e{t.word, t.prob, 0.0, 0.0, uni_[i].exp_p, uni_[i].exp_pq};
          if (j >= 0) {
            e.d = std::expm1(
                lb * (p - k3f - static_cast<double>(bs.list[static_cast<std::size_t>(j)].backoff)));
            e.beta1 = bs.beta1[static_cast<std::size_t>(j)];
            out.sb += e.e_p * e.beta1 * e.d;
          } else {
            e.d = std::expm1(lb * (p + 0.5 - k3));
            out.sn += e.e_pq * e.d;
          }
          terms.push_back(e);
        }
      });
}

// Σ_w 1.0001^(S̃(w) − S(t)) over V ∖ {<s>, </s>}, S̃ the approximated score (exact for the
// target). With the factors' truncations taken at +0.5, a candidate's score without trigrams,
// by which bigrams it has with the neighbours (A: (v w), B: (w x)), is, in units,
//   neither: P + f2·Q + cG     cG  = b0 + b1 + ½ + f2·(px + ½) + k3
//   A only:  p_vw + f2·(Q + bo_vw) + cA                cA  = b1 + ½ + f2·(px + ½) + k3
//   B only:  P + p_wx + f3·bo_wx + cB                  cB  = b0 + b1 + ½ + ½ + f3·(k3f + ½)
//   both:    p_vw + bo_vw + p_wx + f3·bo_wx + cAB      cAB = b1 + ½ + ½ + f3·(k3f + ½)
// (b0, b1 only with a history of one or two words; k3 the exact constant third factor, k3f its
// float before truncation), so Σ G = cG-sum over V + v's precomputed A-sums − their generic
// terms + x's B-sums − their generic terms + per word of A ∩ B its "both" term minus the three
// it was counted as. A trigram replaces one factor (untruncated as well, + ½):
//   (u v w) with A:   p_vw + b1 → p_uvw                          ρL = E(p_uvw − p_vw − b1)
//   (v w x) with B:   p_wx + bo_vw → p_vwx                       ρM = E(p_vwx − p_wx − bo_vw)
//   (w x y):          B: k3f + bo_wx + ½ → p_wxy + ½, else k3 → p_wxy + ½
// so a candidate's term is F = G·ρL·ρM·ρR (ρ = 1 off a list), and Σ F − G = Σ over each list of
// G·(ρ − 1) (kept per pair, in the forms the window's other neighbour can need, plus a walk of
// the list's intersection with that neighbour's bigram list) + Σ over each two lists'
// intersection of G·(ρ − 1)(ρ' − 1) + Σ over all three of G·(ρL − 1)(ρM − 1)(ρR − 1). The
// target's own term, F(t), is then replaced by its exact 1.
double BackoffWindowScorer::separable_probability(const std::array<WordId, 5>& win) const {
  const WordId t = win[2];
  ASSAY_CHECK(t >= 0 && t < trie_.vocabulary_size() && t != trie_.begin_sentence() &&
              t != trie_.end_sentence());
  const Context c = context(win);
  const double lb = lm::SphinxTrie::log_base();
  const int n1 = c.n1;
  const bool f2 = c.f2, f3 = c.f3;
  const AfterSums* as = n1 >= 1 ? &after_sums(c.v) : nullptr;
  const BeforeSums* bs = f2 ? &before_sums(c.x) : nullptr;
  const auto A = as ? as->list : std::span<const Entry>{};
  const auto B = bs ? bs->list : std::span<const Entry>{};
  // 1. The trigram lists, and the target's explicit n-grams (for its exact score).
  const LeftList* L = n1 == 2 ? &left_list(c.u, c.v, c.b1, *as) : nullptr;
  const MidList* M = f2 && n1 >= 1 ? &mid_list(c.v, c.x, *as, *bs) : nullptr;
  const RightList* R = c.xy ? &right_list(c.x, c.y, *c.xy, *bs) : nullptr;
  Cand k;
  k.w = t;
  std::int64_t ia = -1, ib = -1;
  if (as && (ia = find_in(A, as->index, t)) >= 0) {
    k.m |= kAfterV;
    k.p_vw = A[static_cast<std::size_t>(ia)].prob;
    k.bo_vw = A[static_cast<std::size_t>(ia)].backoff;
  }
  if (bs && (ib = find_in(B, bs->index, t)) >= 0) {
    k.m |= kBeforeX;
    k.p_wx = B[static_cast<std::size_t>(ib)].prob;
    k.bo_wx = B[static_cast<std::size_t>(ib)].backoff;
  }
  double rho_t = 1.0;  // F(t) / G(t)
  if (L) {
    if (const std::int64_t j = find_term(L->terms, t); j >= 0) {
      k.m |= kTriUVW;
      k.p_uvw = L->terms[static_cast<std::size_t>(j)].p;
      rho_t *= 1.0 + L->terms[static_cast<std::size_t>(j)].d;
    }
  }
  if (M) {
    if (const std::int64_t j = find_term(M->terms, t); j >= 0) {
      k.m |= kTriVWX;
      k.p_vwx = M->terms[static_cast<std::size_t>(j)].p;
      rho_t *= 1.0 + M->terms[static_cast<std::size_t>(j)].d;
    }
  }
  if (R) {
    if (const std::int64_t j = find_term(R->terms, t); j >= 0) {
      k.m |= kTriWXY;
      k.p_wxy = R->terms[static_cast<std::size_t>(j)].p;
      rho_t *= 1.0 + R->terms[static_cast<std::size_t>(j)].d;
    }
  }
  const auto ti = static_cast<std::size_t>(t);
  const int st = exact_score(c, k, uni_[ti].p, uni_[ti].q);
  // 2. The context constants, relative to the target's score.
  const double b0 = n1 >= 1 ? static_cast<double>(c.b0) : 0.0;
  const double b1 = n1 == 2 ? static_cast<double>(c.b1) : 0.0;
  const double k3f = c.f3 ? static_cast<double>(c.xy ? c.xy->prob : c.base3) : 0.0;
  const double f2_part = f2 ? static_cast<double>(c.px) + 0.5 : 0.0;
  const double f3_part = f3 ? k3f + 0.5 : 0.0;
  const double base = static_cast<double>(c.k3) - static_cast<double>(st);
  auto E = [lb](double units) { return std::exp(lb * units); };
  const double kG = E(b0 + b1 + 0.5 + f2_part + base);
  const double kA = E(b1 + 0.5 + f2_part + base);
  const double kB = E(b0 + b1 + 1.0 + f3_part - static_cast<double>(st));
  const double kAB = E(b1 + 1.0 + f3_part - static_cast<double>(st));
  double z = kG * (f2 ? sum_pq_ : sum_p_);
  if (as) z += kA * (f2 ? as->a1 : as->a0) - kG * (f2 ? as->g1 : as->g0);
  if (bs) z += kB * (f3 ? bs->b1 : bs->b0) - kG * bs->g1;
  const std::pmr::vector<double>* beta = bs ? (f3 ? &bs->beta1 : &bs->beta0) : nullptr;
  if (as && bs) {
    // 3. Words with both bigrams: their "both" term instead of A-only + B-only − generic,
    //    kAB·α·β − kA·α·E(Q) − kB·E(P)·β + kG·E(P + Q).
    const PairSums ps = pair_sums(c.v, c.x);
    z += kAB * (f3 ? ps.alpha_beta1 : ps.alpha_beta0) - kB * (f3 ? ps.p_beta1 : ps.p_beta0) +
         kG * ps.p_q - kA * ps.alpha_q;
  }
  // 4. The trigram lists: Σ G·(ρ − 1) per list. (v · x): its words are all in B, and the pair
  //    determines which are in A.
  if (M) z += kAB * (f3 ? M->a1 : M->a0) + kB * (f3 ? M->n1 : M->n0);
  // (u v ·): its words are all in A; those also in B have the "both" form.
  if (L) {
    z += kA * (f2 ? L->s_q : L->s_p);
    if (bs) {
      intersect_list(
          L->terms.size(), [&](std::size_t i) { return L->terms[i].w; }, B, bs->index,
          [&](std::size_t i, std::size_t j) {
            const LeftTerm& e = L->terms[i];
            z += (kAB * e.alpha * (*beta)[j] - kA * e.alpha_q) * e.d;
          },
          [&](std::size_t, std::size_t j) { __builtin_prefetch(&(*beta)[j]); });
    }
  }
  // (· x y): the pair determines B; those also in A have the A forms (β1 > 0: in B).
  if (R) {
    z += kB * R->sb + kG * R->sn;
    if (as) {
      intersect_list(
          R->terms.size(), [&](std::size_t i) { return R->terms[i].w; }, A, as->index,
          [&](std::size_t i, std::size_t j) {
            const RightTerm& e = R->terms[i];
            const AfterTerm& a = as->terms[j];
            z += (e.beta1 > 0 ? (kAB * a.alpha - kB * e.e_p) * e.beta1
                              : kA * a.alpha_q - kG * e.e_pq) *
                 e.d;
          },
          [&](std::size_t, std::size_t j) { __builtin_prefetch(&as->terms[j]); });
    }
  }
  // 5. The intersections of the trigram lists: G·(ρ − 1)(ρ' − 1), and the three-way term.
  auto left_word = [&](std::size_t i) { return L->terms[i].w; };
  auto mid_word = [&](std::size_t i) { return M->terms[i].w; };
  auto right_word = [&](std::size_t i) { return R->terms[i].w; };
  if (L && M) {
    std::size_t r = 0;
    const std::size_t nr = R ? R->terms.size() : 0;
    intersect(L->terms.size(), left_word, M->terms.size(), mid_word,
              [&](std::size_t i, std::size_t j) {
                const LeftTerm& l = L->terms[i];
                const MidTerm& m = M->terms[j];
                const double g = kAB * l.alpha * (f3 ? m.beta1 : m.beta0) * l.d * m.d;
                z += g;
                r = gallop_at(nr, right_word, r, l.w);
                if (r < nr && R->terms[r].w == l.w) z += g * R->terms[r].d;
              });
  }
  if (L && R) {
    intersect(L->terms.size(), left_word, R->terms.size(), right_word,
              [&](std::size_t i, std::size_t j) {
                const LeftTerm& l = L->terms[i];
                const RightTerm& e = R->terms[j];
                z += (e.beta1 > 0 ? kAB * l.alpha * e.beta1 : kA * l.alpha_q) * l.d * e.d;
              });
  }
  if (M && R) {
    intersect(M->terms.size(), mid_word, R->terms.size(), right_word,
              [&](std::size_t i, std::size_t j) {
                const MidTerm& m = M->terms[i];
                z += (m.alpha > 0 ? kAB * m.alpha : kB * m.e_p) * m.beta1 * m.d * R->terms[j].d;
              });
  }
  // 6. The target: its exact term, 1, instead of F(t) = G(t)·ρ(t).
  const UnigramTerms& ut = uni_[ti];
  double gt;
  if (ia >= 0 && ib >= 0) {
    gt =
        kAB * as->terms[static_cast<std::size_t>(ia)].alpha * (*beta)[static_cast<std::size_t>(ib)];
  } else if (ia >= 0) {
    const AfterTerm& a = as->terms[static_cast<std::size_t>(ia)];
    gt = kA * (f2 ? a.alpha_q : a.p_vw);
  } else if (ib >= 0) {
    gt = kB * ut.exp_p * (*beta)[static_cast<std::size_t>(ib)];
  } else {
    gt = kG * (f2 ? ut.exp_pq : ut.exp_p);
  }
  z += 1.0 - gt * rho_t;
  return 1.0 / z;
}

}  // namespace assay::aeon
