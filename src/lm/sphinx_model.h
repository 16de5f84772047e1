// SphinxModel: an n-gram model read by libsphinxbase — by default the CMU English trigram of
// Debian's pocketsphinx-en-us (binary trie format, 72,547 words). Probabilities come from
// ngram_ng_prob with a logmath base of 1.0001, the same computation Debian's sphinx_lm_eval
// performs, converted to natural logarithms.
//
// sphinxbase keeps scratch state inside the model, so queries are serialised with a mutex;
// the object is safe to share between threads. The model has no <UNK> entry, so unknown()
// is kNoWord.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "lm/ngram_model.h"

namespace assay::lm {

inline constexpr const char* kCmuTrigramPath = "/usr/share/pocketsphinx/model/en-us/en-us.lm.bin";
inline constexpr const char* kCmuTrigramPackage = "pocketsphinx-en-us";

class SphinxModel final : public NgramModel {
 public:
  // Reads `path` (any format sphinxbase detects: binary trie, ARPA, DMP). Throws
  // core::MissingResourceError naming pocketsphinx-en-us when the file does not exist, and
  // core::ParseError when sphinxbase cannot read it.
  static std::unique_ptr<SphinxModel> load(const std::string& path = kCmuTrigramPath);
  ~SphinxModel() override;
  SphinxModel(const SphinxModel&) = delete;
  SphinxModel& operator=(const SphinxModel&) = delete;

  std::string_view name() const override { return name_; }
  int order() const override { return order_; }
  WordId vocabulary_size() const override { return n_words_; }
  std::string_view word(WordId id) const override;
  WordId find(std::string_view word) const override;
  WordId unknown() const override { return unknown_; }
  WordId begin_sentence() const override { return begin_; }
  WordId end_sentence() const override { return end_; }
  double log_prob(WordId word, std::span<const WordId> context) const override;

  // The raw sphinxbase score (integer log base 1.0001), as sphinx_lm_eval prints it.
  int raw_score(WordId word, std::span<const WordId> context) const;

 private:
  struct Handles;
  SphinxModel() = default;

  std::unique_ptr<Handles> handles_;
  mutable std::mutex mutex_;
  std::string name_;
  int order_ = 0;
  WordId n_words_ = 0;
  WordId unknown_ = kNoWord;
  WordId begin_ = kNoWord;
  WordId end_ = kNoWord;
};

}  // namespace assay::lm
