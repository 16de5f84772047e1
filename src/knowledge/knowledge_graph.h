// KnowledgeGraph: the read-only lexical graph the perturbator and AEON query — IsA links
// (forward and reverse, weighted), antonyms, form-of / derivation links, glosses and the senses
// of a word ordered by frequency. Backends: WordNet 3.0 (wordnet_graph.h, the embedded
// default) and a ConceptNet 5 assertions dump (conceptnet_graph.h).
//
// A node is a concept: a WordNet synset, or a ConceptNet English term (ConceptNet's sense tags
// such as /n/wikt/en_1 are folded into the term, as the reference code does). Words are
// matched after normalize_term (lower-case ASCII, spaces to underscores), so "Ice Cream",
// "ice cream" and "ice_cream" are the same query.
//
// Thread safety: every backend is immutable after construction; all const methods may be
// called concurrently from any number of threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wordnet/part_of_speech.h"

namespace assay::knowledge {

using NodeId = std::uint32_t;

struct WeightedNode {
  NodeId node = 0;
  // WordNet links weigh 1.0; ConceptNet links carry the assertion's weight.
  float weight = 1.0f;
};

// WordNet's four parts of speech, the one enum every module uses.
using PartOfSpeech = wordnet::PartOfSpeech;

// The lexical (word-to-word) relations every backend answers.
enum class LexicalRelation : std::uint8_t {
  kAntonym,      // WordNet '!'; ConceptNet /r/Antonym
  kRelatedForm,  // WordNet '+' (derivations, to any part of speech); ConceptNet /r/FormOf and
                 // /r/DerivedFrom
};

class KnowledgeGraph {
 public:
  virtual ~KnowledgeGraph() = default;

  // "wordnet" or "conceptnet".
  virtual std::string_view backend_name() const = 0;
  virtual std::size_t node_count() const = 0;

  // Nodes for `word` used as a noun, most frequent sense first (WordNet: index.noun order,
  // after WordNet's noun exception list; ConceptNet: the single term node). Empty if unknown.
  virtual std::vector<NodeId> noun_senses(std::string_view word) const = 0;
  // How many of the leading noun_senses were seen in a sense-tagged corpus (WordNet's
  // tagsense_cnt, from SemCor); the rest are rare. ConceptNet: all of them.
  virtual std::size_t tagged_noun_sense_count(std::string_view word) const = 0;

  // IsA forward (hypernyms, WordNet '@' and '@i') and reverse (hyponyms, '~' and '~i').
  virtual std::vector<WeightedNode> hypernyms(NodeId node) const = 0;
  virtual std::vector<WeightedNode> hyponyms(NodeId node) const = 0;

  // Words naming the node, in the backend's order (synset order for WordNet).
  virtual std::vector<std::string> node_words(NodeId node) const = 0;
  // A stable printable name: "actor.n.01" (NLTK's naming) or the ConceptNet term "actor".
  virtual std::string node_name(NodeId node) const = 0;
  // Inverse of node_name; nullopt when no such node.
  virtual std::optional<NodeId> find_node(std::string_view name) const = 0;
  // Definition text; empty when the backend has none (ConceptNet).
  virtual std::string gloss(NodeId node) const = 0;

  // Words linked to `word` used as `pos` by `relation`, in sense order, without duplicates
  // (WordNet: the lexical pointers that leave this word in each of its senses, after the
  // exception list of <pos>.exc; ConceptNet, which has no parts of speech: the term's edges
  // in either direction, whatever `pos`).
  virtual std::vector<std::string> lexical_links(std::string_view word, PartOfSpeech pos,
                                                 LexicalRelation relation) const = 0;

  // Antonyms of `word` as `pos` (a noun unless said).
  std::vector<std::string> antonyms(std::string_view word,
                                    PartOfSpeech pos = PartOfSpeech::kNoun) const {
    return lexical_links(word, pos, LexicalRelation::kAntonym);
  }
  // Form-of and derivation links of `word` as `pos` (a noun unless said).
  std::vector<std::string> related_forms(std::string_view word,
                                         PartOfSpeech pos = PartOfSpeech::kNoun) const {
    return lexical_links(word, pos, LexicalRelation::kRelatedForm);
  }
};

// Lower-cases ASCII letters, trims, and turns runs of spaces into one underscore.
std::string normalize_term(std::string_view word);

}  // namespace assay::knowledge
