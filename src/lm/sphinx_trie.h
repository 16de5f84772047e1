// SphinxTrie: a read-only n-gram model of our own over sphinxbase's binary trie format (the CMU
// English trigram of Debian's pocketsphinx-en-us is stored in it), scoring exactly as
// sphinxbase does — the same quantised values, the same back-off walk, the same single-precision
// sums truncated to an integer log base 1.0001 — without sphinxbase's mutable history cache, so
// any number of threads can query it at once with no lock. A file in another format sphinxbase
// reads (ARPA, DMP) is converted by sphinxbase into its trie (written to a private temporary
// file, read back and removed), so the scores are those sphinxbase computes for that file.
//
// Besides NgramModel look-ups it exposes the model's back-off structure, which the exact AEON
// normaliser (aeon/backoff_window_scorer.h) enumerates: unigram probabilities and back-off
// weights, the explicit bigrams after or before a word, and the trigrams with two given words.
// The bit-packed trie is decoded once into flat arrays at load (about 120 MB for the CMU model).
// Look-ups reproduce sphinxbase's interpolation search exactly: some sibling lists are not
// sorted, and an n-gram sphinxbase's search does not reach is absent here too (also from the
// enumerations).
// Layout of the file (sphinxbase lm_trie.c, lm_trie_quant.c): header "Trie Language Model",
// order (uint8), counts (uint32 each), the quantiser tables (16-bit codes, 65,536 floats per
// table), the unigrams {float prob, float backoff, uint32 next} (count+1 of them), the packed
// middle and longest layers (word id, quantised prob[/backoff], next pointer; n-grams stored in
// reverse: a node's children are the words before it), then the word strings.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/huge_array.h"
#include "lm/ngram_model.h"

namespace assay::lm {

class SphinxTrie final : public NgramModel {
 public:
  // Reads `path`. Throws core::MissingResourceError naming pocketsphinx-en-us when it does not
  // exist and core::ParseError when it is malformed (every size is checked against the file
  // before use) or sphinxbase cannot read it.
  static std::unique_ptr<SphinxTrie> load(const std::string& path);
  ~SphinxTrie() override;
  SphinxTrie(const SphinxTrie&) = delete;
  SphinxTrie& operator=(const SphinxTrie&) = delete;

  std::string_view name() const override { return name_; }
  int order() const override { return order_; }
  WordId vocabulary_size() const override { return n_words_; }
  std::string_view word(WordId id) const override;
  WordId find(std::string_view word) const override;
  // sphinxbase's unknown word: the entry spelt "<UNK>" (ngram_unknown_wid), or kNoWord (the
  // CMU trigram has none).
  WordId unknown() const override { return unknown_; }
  WordId begin_sentence() const override { return begin_; }
  WordId end_sentence() const override { return end_; }
  double log_prob(WordId word, std::span<const WordId> context) const override;

  // The integer score sphinxbase's ngram_ng_prob returns (log base 1.0001); context in text
  // order as for log_prob.
  int raw_score(WordId word, std::span<const WordId> context) const;
  // ln(1.0001): log_prob = raw_score · log_base().
  static double log_base();

  // --- Back-off structure (scores in log base 1.0001, as floats before truncation) ---
  struct Unigram {
    float prob;
    float backoff;
  };
  const std::vector<float>& unigram_probs() const { return uni_prob_; }
  const std::vector<float>& unigram_backoffs() const { return uni_bo_; }
  // An explicit bigram (or trigram) entry: the other word, its probability and back-off weight.
  struct Entry {
    WordId word;
    float prob;
    float backoff;  // 0 for trigrams
  };
  // Bigrams (v, w) for a fixed v, sorted by w. Order ≥ 2 only.
  std::span<const Entry> bigrams_after(WordId v) const;
  // Bigrams (w, x) for a fixed x, sorted by w.
  std::span<const Entry> bigrams_before(WordId x) const;
  // The bigram (a, b), or null.
  const Entry* bigram(WordId a, WordId b) const;
  // Trigrams (a, b, ·) / (a, ·, c) / (·, b, c), sorted by the free word. Order 3 only.
  std::span<const Entry> trigrams_after(WordId a, WordId b) const;
  std::span<const Entry> trigrams_around(WordId a, WordId c) const;
  std::span<const Entry> trigrams_before(WordId b, WordId c) const;

 private:
  SphinxTrie() = default;
  void read_file(const std::string& path, const std::string& shown_path);
  // The enumeration indexes below, built on the first enumeration (once, thread-safe): look-ups
  // never need them, and they cost a fifth of a second and about 100 MB.
  void build_indexes() const;
  void ensure_indexes() const {
    std::call_once(indexes_once_, [this] { build_indexes(); });
  }
  // sphinxbase's lm_trie_score: `hist` most recent first, n_hist already clamped and cut.
  float trie_score(WordId w, const WordId* hist, int n_hist) const;
  // Child `word` of a node whose children are [begin, end) in layer `layer` (0 = bigrams).
  std::int64_t find_child(int layer, std::uint32_t begin, std::uint32_t end, WordId word) const;

  std::string name_;
  int order_ = 0;
  WordId n_words_ = 0;
  WordId begin_ = kNoWord, end_ = kNoWord, unknown_ = kNoWord;
  std::vector<std::string> words_;
  std::unordered_map<std::string_view, WordId> ids_;
  std::vector<float> uni_prob_, uni_bo_;
  std::vector<std::uint32_t> uni_next_;  // n_words_ + 1
  // Decoded layers: layers_[0] = bigrams, ..., layers_[order-2] = the longest n-grams.
  struct Layer {
    std::vector<Entry> entries;       // word = the earlier word added by this layer
    std::vector<std::uint32_t> next;  // entries.size() + 1 (empty for the longest layer)
  };
  std::vector<Layer> layers_;
  // Indexes for the enumerations (order 3): CSR by the first word. Huge-page arrays: they are
  // filled in random order, and 4 KiB pages would cost a fault and a TLB miss per few writes.
  mutable std::once_flag indexes_once_;
  mutable core::HugeArray<std::uint32_t> after_offsets_;  // bigrams (v, ·) by v
  mutable core::HugeArray<Entry> after_;
  mutable core::HugeArray<std::uint32_t> before_offsets_;  // bigrams (·, x) by x
  mutable core::HugeArray<Entry> before_;
  mutable core::HugeArray<std::uint32_t>
      tri_bc_offsets_;  // trigrams (·, b, c) by the bigram entry of (b, c)
  mutable core::HugeArray<Entry> tri_bc_;
  mutable core::HugeArray<std::uint32_t> tri_ab_offsets_, tri_ac_offsets_;  // by the first word a
  mutable core::HugeArray<std::uint32_t> tri_ab_keys_, tri_ac_keys_;        // b / c, sorted per a
  mutable core::HugeArray<Entry> tri_ab_, tri_ac_;                          // c / b
};

}  // namespace assay::lm
