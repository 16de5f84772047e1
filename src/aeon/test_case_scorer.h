// TestCaseScorer: SemEval and SynEval of AEON test cases from local Hugging Face checkpoints.
// The embedding model (SemEval) and the masked LM (SynEval) may be different directories;
// when only one is given it serves both (SemEval then uses its pooler or [CLS] vector, and
// SynEval needs its MLM head). With neither directory the offline backends serve: SynEval on
// the CMU trigram ("ngram-cmu", ngram_syneval.h) and SemEval on static word vectors plus
// WordNet ("vectors+wordnet") or WordNet alone ("wordnet") when no vector file is given
// (vector_semeval.h). Every score names the backend that produced it.
#pragma once

#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "aeon/ngram_syneval.h"
#include "aeon/semeval.h"
#include "aeon/syneval.h"
#include "aeon/test_case.h"
#include "lm/ngram_model.h"
#include "lm/sphinx_model.h"
#include "vectors/embedding_matrix.h"
#include "wordnet/database.h"

namespace assay::aeon {

class NgramSynEval;
class VectorSemEval;
class WordNetRelations;

struct TestCaseScorerOptions {
  std::string model_dir;      // masked LM, e.g. bert-base-uncased
  std::string embedding_dir;  // embedding model, e.g. sup-simcse-bert-base-uncased
  SemEvalOptions semeval;
  SynEvalOptions syneval;
  // Offline backends (used when model_dir and embedding_dir are both empty).
  std::string ngram_model = lm::kCmuTrigramPath;  // a file (lm::ngram_model_path)
  // An n-gram model already loaded, used instead of reading `ngram_model` (not owned; must
  // outlive the scorer). kBackoff and kSeparable need a trigram lm::SphinxTrie; on another
  // model SynEval enumerates.
  const lm::NgramModel* ngram = nullptr;
  std::string vectors;                   // word-vector file; empty = WordNet only
  std::string vectors_format = "glove";  // see vectors::parse_vector_format
  std::string wordnet_dir = wordnet::kDefaultDir;
  // Offline SynEval normaliser: kBackoff reads the model with lm::SphinxTrie (no lock, exact
  // back-off sums); kEnumerate is the reference — sphinxbase look-ups for every candidate;
  // kSeparable approximates every candidate but the target and the trigram candidates from
  // precomputed per-word and per-pair sums (within 2e-4 relative of kBackoff, a fraction of
  // its time; the fairness engine's AEON gate uses it).
  NgramNormaliser ngram_normaliser = NgramNormaliser::kBackoff;
};

struct TestCaseScore {
  double semeval = 1.0;
  double syneval = 1.0;
  double syneval_original = 1.0;
  std::size_t n_patches = 0;
  // Naturalness relative to the original: Nat(generated) − Nat(original) ∈ [−1, 1]; 0 when the
  // generator kept the text as natural as its seed. Not in the paper: seeds are human-written,
  // so the drop isolates what the mutation did from how unusual the seed's own words are
  // (on the MR annotations it separates natural from unnatural cases far better offline; see
  // docs/aeon-offline.md).
  double syneval_relative() const { return syneval - syneval_original; }
};

// Which naturalness value goes into an annotation CSV's SynEval column.
enum class SynEvalColumn { kAbsolute, kRelative };

class TestCaseScorer {
 public:
  // Loads the checkpoints, or the offline models when no checkpoint is given; the loaders'
  // errors (MissingResourceError naming the Debian package, ParseError) propagate.
  explicit TestCaseScorer(const TestCaseScorerOptions& options);
  ~TestCaseScorer();

  TestCaseScore score(const TestCase& test_case);
  // SemEval and the generated text's SynEval, without the original's (syneval_original NaN):
  // all a threshold judges, and cheaper (the original's words next to an edit are not scored).
  TestCaseScore score_generated(const TestCase& test_case);
  // Scores every case; with the offline backends `threads` > 1 scores them in parallel (the
  // results, and so any output, are the same for every thread count). The checkpoint backends
  // score in order (their BLAS calls use the threads).
  std::vector<TestCaseScore> score_all(const std::vector<TestCase>& cases, int threads);
  bool offline() const { return ngram_syneval_ != nullptr; }
  // For benchmarks: forget the offline SynEval caches; score one half alone.
  void clear_caches();
  SemEvalResult semeval_only(const TestCase& test_case);
  void syneval_only(const TestCase& test_case);
  const std::string& semeval_backend() const { return semeval_backend_; }
  const std::string& syneval_backend() const { return syneval_backend_; }

 private:
  std::optional<lm::BertModel::Loaded> mlm_, embedder_;
  std::unique_ptr<SemEval> semeval_;
  std::unique_ptr<SynEval> syneval_;
  std::unique_ptr<lm::NgramModel> ngram_;  // null when the options lent one
  std::unique_ptr<vectors::EmbeddingMatrix> vectors_;
  std::unique_ptr<WordNetRelations> wordnet_;
  std::unique_ptr<NgramSynEval> ngram_syneval_;
  std::unique_ptr<VectorSemEval> vector_semeval_;
  std::string semeval_backend_, syneval_backend_;
};

// Re-scores an AEON annotation CSV: every record's ori_text/adv_text (markers stripped) gets
// fresh SemEval and SynEval values, written into those columns (appended when absent), all
// other columns unchanged, so `assay aeon eval` can evaluate the result. Returns the count.
// With SynEvalColumn::kRelative the SynEval column holds syneval_relative() instead.
std::size_t score_annotation_csv(const std::string& in_path, std::ostream& out,
                                 TestCaseScorer& scorer,
                                 SynEvalColumn syneval_column = SynEvalColumn::kAbsolute,
                                 int threads = 1);

}  // namespace assay::aeon
