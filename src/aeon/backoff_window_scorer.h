// BackoffWindowScorer: NgramSynEval's masked probability of one 5-word window
//     P(w_i = t | …) = e^{s(t)} / Σ_{w ∈ V∖{<s>,</s>}} e^{s(w)},
//     s(w) = ln P(w | u v) + ln P(x | v w) + ln P(y | w x)      (window u v [t] x y)
// on a trigram SphinxTrie, with the same value as summing the 72,545 terms look-up by look-up
// (NgramSynEval's enumerating normaliser, kept as the reference) but without a trie look-up
// per candidate. Under the back-off structure a candidate w with no explicit n-gram with the
// window's neighbours — w not after v, not before x, no trigram (u v w), (v w x), (w x y) —
// scores
//     s(w) = ⌊P1(w) + bo(v) + bo(u v)⌉ + ⌊P1(x) + bo(w)⌉ + K3
// (⌊·⌉: sphinxbase's single-precision sums truncated to an integer log base 1.0001; K3 the
// constant third factor), i.e. shared back-off weights and the candidate's own unigram
// probability and back-off weight. Those "generic" scores are computed for the whole
// vocabulary from two flat float arrays in one branch-free pass (vectorised; no look-ups), the
// few candidates that do have explicit n-grams are enumerated from the model's indexes
// (bigrams after v, bigrams before x, trigrams (u v ·), (v · x), (· x y)) and their exact
// scores overwrite the generic ones, and the normaliser sums e^{c·(S(w) − S(t))} over integer
// score differences through a two-level table of powers of 1.0001. Every candidate's integer
// score equals sphinxbase's exactly (the truncation makes the generic part non-separable, so
// the sum is not a closed form); the only difference from the reference is the summation order
// and the exponential (table product vs std::exp of a rounded double): about 1e-15 relative.
//
// Thread-safe: const, with per-thread scratch (thread_local) and per-word sums built once
// under a lock.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <memory_resource>
#include <mutex>
#include <span>
#include <vector>

#include "core/huge_array.h"
#include "lm/sphinx_trie.h"

namespace assay::aeon {

class BackoffWindowScorer {
 public:
  static constexpr std::size_t kListTerms = std::size_t{1} << 21;
  // `trie` must be a trigram model (order() == 3) and outlive this object. `list_terms`: how
  // many trigram-list entries separable_probability keeps (kListTerms, about 100 MB at most;
  // past it lists are built per window, with the same values).
  explicit BackoffWindowScorer(const lm::SphinxTrie& trie, std::size_t list_terms = kListTerms);

  // window = {w_{i-2}, w_{i-1}, target, w_{i+1}, w_{i+2}}, lm::kNoWord for an OOV word or a
  // position past </s>; the target must be a word other than <s>/</s>.
  double probability(const std::array<lm::WordId, 5>& window) const;
  // Every word's integer score S(w) in the window (log base 1.0001; tests compare it with
  // sphinxbase's look-ups).
  std::vector<int> candidate_scores(const std::array<lm::WordId, 5>& window) const;
  // The same probability with the normaliser approximated: only the target is scored exactly;
  // every other candidate's score is taken without sphinxbase's integer truncations (each
  // truncation of a sum counted as +0.5 units, its mean for a negative sum). Without trigrams
  // that makes a candidate's term a product of a part that depends on the candidate and the
  // left neighbour v (its bigram (v w) if any, else its unigram values) and a part that depends
  // on the candidate and the right neighbour x, so Σ over the vocabulary is precomputed sums —
  // over V, over v's bigram followers and over x's bigram predecessors (per word, computed on
  // first use and kept) — plus one term per candidate with both bigrams (v w) and (w x), found
  // by intersecting the two lists (pair_sums, kept per pair). A candidate with an explicit
  // trigram (u v w), (v w x) or (w x y) has that factor replaced by the trigram's (untruncated
  // as well), which multiplies its term by a ratio ρ that depends only on the pair the list
  // belongs to ((u v), (v x), (x y)) and the candidate; each list's Σ term·(ρ − 1) is summed
  // once per pair in the forms the window can need and kept, so a window pays only for the
  // candidates of a trigram list that are also in the other neighbour's bigram list or in a
  // second trigram list, not for every trigram candidate.
  // Cost: those intersections, and the shorter neighbour list once per neighbour pair; not the
  // vocabulary, the union of both bigram lists nor the trigram lists. Each
  // approximated term is off by at most ±0.5 units of log base 1.0001 (±5e-5 relative) per
  // truncated factor with a negative sum; measured on the MR annotations' 3,348 windows
  // against probability(): see SeparableIsWithinTwoTenThousandthsOfExact in
  // tests/aeon/backoff_normaliser_test.cc for the figures. Not sphinxbase-exact: for gating,
  // not for AEON's published figures.
  double separable_probability(const std::array<lm::WordId, 5>& window) const;

 private:
  struct Context;
  Context context(const std::array<lm::WordId, 5>& window) const;
  // Calls emit(index, exact integer score) for every candidate with an explicit n-gram with
  // the window's neighbours.
  template <typename Fn>
  void explicit_scores(const Context& c, Fn&& emit) const;
  double exp_units(int d) const;  // 1.0001^(−d)
  // Fills the calling thread's score array for the window and returns it.
  const int* scores(const std::array<lm::WordId, 5>& window) const;

 public:
  // The per-word sums of separable_probability (exposed for tests). Over a word's explicit
  // bigrams in one direction, <s> and </s> excluded, with E(a) = 1.0001^a and P, Q a word's
  // unigram probability and back-off weight, p and bo the bigram's probability and back-off:
  // The index of a word in a list sorted by word, or −1: a bit set over the vocabulary with
  // the count of entries before each 64-word block (built for long lists only; a short list
  // is searched by galloping).
  struct WordIndex {
    explicit WordIndex(std::pmr::memory_resource* memory) : bits(memory), rank(memory) {}
    std::pmr::vector<std::uint64_t> bits;
    std::pmr::vector<std::uint32_t> rank;
    bool empty() const { return bits.empty(); }
    std::int64_t find(lm::WordId w) const;
    // 2·(the entries before w) + (1 when w is in the list): find without a branch.
    std::int64_t find_or_rank(lm::WordId w) const;
  };
  struct AfterTerm {
    double alpha;    // E(p_vw + bo_vw)
    double alpha_q;  // E(p_vw + bo_vw + Q(w))
    double p_vw;     // E(p_vw)
  };
  // The per-word sums' arrays live in the scorer's arena (`memory`).
  struct AfterSums {  // bigrams (v, w) for one v
    explicit AfterSums(std::pmr::memory_resource* memory) : terms(memory), index(memory) {}
    std::span<const lm::SphinxTrie::Entry> list;  // bigrams_after(v), sorted by word
    std::vector<lm::SphinxTrie::Entry> sorted;    // the sorted copy `list` views where needed
    double a0 = 0;                                // Σ E(p_vw)
    double a1 = 0;                                // Σ E(p_vw + Q(w) + bo_vw)
    double g0 = 0;                                // Σ E(P(w))
    double g1 = 0;                                // Σ E(P(w) + Q(w))
    std::pmr::vector<AfterTerm> terms;            // per entry of `list`
    WordIndex index;
  };
  struct BeforeSums {  // bigrams (w, x) for one x
    explicit BeforeSums(std::pmr::memory_resource* memory)
        : beta0(memory), beta1(memory), index(memory) {}
    std::span<const lm::SphinxTrie::Entry> list;  // bigrams_before(x), sorted by word
    std::vector<lm::SphinxTrie::Entry> sorted;
    double b0 = 0;                          // Σ E(P(w) + p_wx)
    double b1 = 0;                          // Σ E(P(w) + p_wx + bo_wx)
    double g1 = 0;                          // Σ E(P(w) + Q(w))
    std::pmr::vector<double> beta0, beta1;  // per entry of `list`: E(p_wx), E(p_wx + bo_wx)
    WordIndex index;
  };
  // Σ over the words with both bigrams (v w) and (w x), <s> and </s> excluded, of α = E(p_vw +
  // bo_vw), β0 = E(p_wx), β1 = E(p_wx + bo_wx), p = E(P(w)), q = E(Q(w)).
  struct PairSums {
    double alpha_beta0 = 0, alpha_beta1 = 0;  // Σ α·β0, Σ α·β1
    double p_beta0 = 0, p_beta1 = 0;          // Σ p·β0, Σ p·β1
    double p_q = 0, alpha_q = 0;              // Σ p·q, Σ α·q
  };
  // Kept per pair (v, x) when the shorter list is long enough to be worth it (thread-safe).
  PairSums pair_sums(lm::WordId v, lm::WordId x) const;
  // Computed on the first call for a word and kept for the scorer's lifetime (thread-safe).
  const AfterSums& after_sums(lm::WordId v) const;
  const BeforeSums& before_sums(lm::WordId x) const;

 private:
  // A table from a pair of word ids (pair_key) to a value, open addressing: one probe is
  // usually one cache line. Not thread-safe (its owner locks).
  template <typename T>
  class PairTable {
   public:
    const T* find(std::uint64_t key) const;
    void insert(std::uint64_t key, const T& value);  // `key` absent

   private:
    static constexpr std::uint64_t kFree = ~std::uint64_t{0};
    std::size_t slot(std::uint64_t key) const;
    std::pmr::vector<std::uint64_t> keys_{core::huge_page_resource()};
    std::pmr::vector<T> values_{core::huge_page_resource()};
    std::size_t size_ = 0;
  };

  const lm::SphinxTrie& trie_;
  std::vector<double> exp_hi_, exp_lo_;
  // Per word, in one cache line's share: P, Q and 1.0001^P, 1.0001^Q, 1.0001^(P + Q).
  struct UnigramTerms {
    float p, q;
    double exp_p, exp_q, exp_pq;
  };
  std::vector<UnigramTerms> uni_;
  double sum_p_ = 0, sum_pq_ = 0;
  // The chunks of the scorer's arenas: from 2 MiB, so they take huge pages (a long run fills
  // a hundred MB and more of sums and lists; page by page, the faults cost about 15 % of the
  // gate's CPU time on a virtual machine: docs/fairness.md, "The AEON gate").
  static constexpr std::size_t kArenaChunk = (std::size_t{2} << 20) - 256;
  // Per-word sums, built on first use under `sums_mutex_`, published through the atomics; their
  // arrays in `sums_arena_`.
  mutable std::mutex sums_mutex_;
  mutable std::pmr::monotonic_buffer_resource sums_arena_{kArenaChunk, core::huge_page_resource()};
  mutable std::vector<std::atomic<const AfterSums*>> after_sums_;
  mutable std::vector<std::atomic<const BeforeSums*>> before_sums_;
  mutable std::vector<std::unique_ptr<AfterSums>> after_store_;
  mutable std::vector<std::unique_ptr<BeforeSums>> before_store_;
  mutable std::mutex pairs_mutex_;
  mutable PairTable<PairSums> pairs_;

  // separable_probability's trigram lists, one per pair, sorted by word, <s> and </s>
  // excluded: the candidates a trigram changes, each with its p (the trigram's probability),
  // d = ρ − 1 (the factor by which the trigram changes its approximated term) and the
  // per-candidate values of its approximated term that the pair determines, and the list's
  // Σ term·d in each form the window's other neighbours can give it (E(a) = 1.0001^a).
  struct LeftTerm {  // trigram (u v w) with bigram (v w): d = E(p_uvw − p_vw − bo(u v)) − 1
    lm::WordId w;
    float p;
    double d, alpha, alpha_q, e_pvw;  // α, α·E(Q(w)), E(p_vw)
  };
  struct LeftList {  // per (u, v)
    std::span<const LeftTerm> terms;
    double s_q = 0, s_p = 0;  // Σ α_q·d, Σ E(p_vw)·d
  };
  struct MidTerm {  // trigram (v w x) with bigram (w x): d = E(p_vwx − p_wx − bo_vw) − 1
    lm::WordId w;
    float p;
    double d, alpha, e_p, beta0, beta1;  // α 0 without bigram (v w) (then bo_vw = 0)
  };
  struct MidList {  // per (v, x)
    std::span<const MidTerm> terms;
    double a0 = 0, a1 = 0;  // Σ over bigram (v w) of α·β0·d, α·β1·d
    double n0 = 0, n1 = 0;  // Σ over the others of E(P)·β0·d, E(P)·β1·d
  };
  struct RightTerm {  // trigram (w x y), bigram (x y): d = E(p_wxy − p_xy − bo_wx) − 1 with
                      // bigram (w x), else E(p_wxy + ½ − ⌊p_xy⌉) − 1
    lm::WordId w;
    float p;
    double d, beta1, e_p, e_pq;  // β1 0 without bigram (w x)
  };
  struct RightList {  // per (x, y)
    std::span<const RightTerm> terms;
    double sb = 0, sn = 0;  // Σ over bigram (w x) of E(P)·β1·d; over the others, E(P + Q)·d
  };
  const LeftList& left_list(lm::WordId u, lm::WordId v, float b1, const AfterSums& as) const;
  const MidList& mid_list(lm::WordId v, lm::WordId x, const AfterSums& as,
                          const BeforeSums& bs) const;
  const RightList& right_list(lm::WordId x, lm::WordId y, const lm::SphinxTrie::Entry& xy,
                              const BeforeSums& bs) const;
  // Kept for the scorer's lifetime up to list_terms_cap_ terms in all (lists + terms counted),
  // lists and terms in one arena; past that, lists are built per window into thread-local
  // scratch (the same values).
  std::size_t list_terms_cap_;
  mutable std::mutex lists_mutex_;
  mutable std::size_t list_terms_ = 0;
  mutable std::pmr::monotonic_buffer_resource lists_arena_{kArenaChunk, core::huge_page_resource()};
  mutable PairTable<const LeftList*> left_lists_;
  mutable PairTable<const MidList*> mid_lists_;
  mutable PairTable<const RightList*> right_lists_;
};

}  // namespace assay::aeon
