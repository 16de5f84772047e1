#include "fairness/perturbator_resources.h"

#include <future>

#include "core/error.h"
#include "knowledge/open_graph.h"
#include "lm/model_spec.h"
#include "lm/sphinx_trie.h"
#include "vectors/vector_reader.h"

namespace assay::fairness {

PerturbatorResources PerturbatorResources::load(const ResourceOptions& o) {
  // Parse the options that can fail before any thread starts.
  const auto format = o.vectors.empty() ? vectors::VectorFormat::kWord2vecText
                                        : vectors::parse_vector_format(o.vectors_format);
  auto graph = std::async(std::launch::async, [&] {
    knowledge::GraphOptions g;
    g.wordnet_dir = o.wordnet_dir;
    return knowledge::open_graph(o.kg, g);
  });
  auto lm = std::async(std::launch::async, [&]() -> std::unique_ptr<lm::NgramModel> {
    if (o.ngram_trie && !o.ngram_model.starts_with("arpa:"))
      return lm::SphinxTrie::load(lm::ngram_model_path(o.ngram_model));
    return lm::open_ngram_model(o.ngram_model);
  });
  auto lemmatizer = std::async(
      std::launch::async, [&] { return std::make_unique<text::WordNetLemmatizer>(o.wordnet_dir); });
  auto vecs = std::async(std::launch::async, [&]() -> std::unique_ptr<vectors::EmbeddingMatrix> {
    if (o.vectors.empty()) return nullptr;
    vectors::ReadOptions read;
    read.limit = o.vectors_limit;
    return std::make_unique<vectors::EmbeddingMatrix>(
        vectors::read_vectors(o.vectors, format, read));
  });
  PerturbatorResources r;
  text::PosTaggerOptions tagger;
  tagger.tables_dir = o.tagger_dir;
  // Every future is waited for before an error propagates (their lambdas reference `o`).
  std::exception_ptr first;
  auto take = [&](auto& future, auto& slot) {
    try {
      slot = future.get();
    } catch (...) {
      if (!first) first = std::current_exception();
    }
  };
  try {
    r.tagger = std::make_unique<text::PosTagger>(tagger);
  } catch (...) {
    first = std::current_exception();
  }
  take(graph, r.graph);
  take(lm, r.lm);
  take(lemmatizer, r.lemmatizer);
  take(vecs, r.vectors);
  if (first) std::rethrow_exception(first);
  if (!o.gender_lexicon.empty())
    r.gender_lexicon = std::make_unique<GenderLexicon>(GenderLexicon::load(o.gender_lexicon));
  if (!o.first_names.empty())
    r.first_names = std::make_unique<FirstNames>(FirstNames::load(o.first_names));
  if (r.first_names && !o.name_groups.empty())
    r.first_names->link_groups(read_attribute_file(o.name_groups));
  r.inflector = std::make_unique<text::Inflector>(*r.lemmatizer);
  r.persons = std::make_unique<knowledge::PersonClassifier>(
      *r.graph, knowledge::default_person_options(*r.graph));
  r.finder = std::make_unique<knowledge::GenderCounterpartFinder>(*r.graph, *r.persons);
  return r;
}

}  // namespace assay::fairness
