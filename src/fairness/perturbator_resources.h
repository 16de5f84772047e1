// The models the perturbator reads, loaded once and shared: the Lingua HMM tagger, WordNet's
// lemmatiser and inflector, a knowledge graph (WordNet 3.0 by default, or a ConceptNet dump)
// with its person classifier and gender counterpart finder, an n-gram language model for
// fluency (the CMU trigram by default), the curated gender-pair lexicon and the first-name
// lists (data/lexicon, data/names) and, optionally, word vectors for analogies.
//
// load() reads the independent parts on parallel threads (start-up is the sum of the slowest
// part, not of all). Errors of the loaders propagate (MissingResourceError naming the Debian
// package, ParseError with file:line, IoError). Immutable after load: thread-safe.
#pragma once

#include <memory>
#include <string>

#include "fairness/first_names.h"
#include "fairness/gender_lexicon.h"
#include "knowledge/gender_counterpart_finder.h"
#include "knowledge/knowledge_graph.h"
#include "knowledge/person_classifier.h"
#include "lm/ngram_model.h"
#include "text/inflector.h"
#include "text/pos_tagger.h"
#include "text/wordnet_lemmatizer.h"
#include "vectors/embedding_matrix.h"

namespace assay::fairness {

struct ResourceOptions {
  std::string tagger_dir = text::LinguaTables::kDefaultDir;
  std::string wordnet_dir = wordnet::kDefaultDir;
  // knowledge::open_graph: "wordnet" or "conceptnet:DUMP" (assertions .csv / .csv.gz,
  // cached beside the dump).
  std::string kg = "wordnet";
  // lm::open_ngram_model: "cmu" (the CMU trigram), "arpa:FILE" or "sphinx:FILE".
  std::string ngram_model = "cmu";
  // Read a sphinxbase model ("cmu", "sphinx:FILE") with lm::SphinxTrie instead of sphinxbase:
  // the same scores, no lock, and the form AEON's back-off SynEval needs, so `fair perturb
  // --gate aeon` loads the trigram once for both. Costs more memory and start-up than sphinxbase.
  bool ngram_trie = false;
  std::string vectors;                      // empty: no analogy by vectors
  std::string vectors_format = "word2vec";  // vectors::parse_vector_format
  std::size_t vectors_limit = 0;            // read only the first N vectors (0 = all)
  // The gender-pair lexicon and the first-name lists (empty: none).
  std::string gender_lexicon = GenderLexicon::default_path();
  std::string first_names = FirstNames::default_path();
  // An attribute file (path) whose `names` rows a gender swap keeps within their group
  // (FirstNames::link_groups; empty: none). Used only with first_names.
  std::string name_groups = default_attribute_dir() + "/race.attr";
};

struct PerturbatorResources {
  std::unique_ptr<text::PosTagger> tagger;
  std::unique_ptr<text::WordNetLemmatizer> lemmatizer;
  std::unique_ptr<text::Inflector> inflector;
  std::unique_ptr<knowledge::KnowledgeGraph> graph;
  std::unique_ptr<knowledge::PersonClassifier> persons;
  std::unique_ptr<knowledge::GenderCounterpartFinder> finder;
  std::unique_ptr<lm::NgramModel> lm;
  std::unique_ptr<vectors::EmbeddingMatrix> vectors;  // null without --vectors
  std::unique_ptr<GenderLexicon> gender_lexicon;      // null when not configured
  std::unique_ptr<FirstNames> first_names;            // null when not configured

  static PerturbatorResources load(const ResourceOptions& options = {});
};

}  // namespace assay::fairness
