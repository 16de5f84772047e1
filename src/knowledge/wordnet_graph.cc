#include "knowledge/wordnet_graph.h"

#include <algorithm>
#include <cstdio>

namespace assay::knowledge {
namespace {

using wordnet::wndb::PointerKind;

PointerKind pointer_kind(LexicalRelation relation) {
  switch (relation) {
    case LexicalRelation::kAntonym:
      return PointerKind::kAntonym;
    case LexicalRelation::kRelatedForm:
      return PointerKind::kDerivation;
  }
  return PointerKind::kOther;
}

std::string lower(std::string_view s) {
  return normalize_term(s);
}

}  // namespace

std::unique_ptr<WordNetGraph> WordNetGraph::load(const std::string& dir) {
  return std::make_unique<WordNetGraph>(wordnet::Database::open(dir));
}

WordNetGraph::WordNetGraph(std::shared_ptr<const wordnet::Database> database)
    : database_(std::move(database)),
      synsets_(database_->synsets()),
      lexicon_(database_->lexicon()) {
  stats_.n_synsets = synsets_.size();
  stats_.n_lemmas = lexicon_.n_lemmas();
  stats_.n_pointers = synsets_.n_pointers();
  stats_.n_exceptions = lexicon_.n_exception_lines(PartOfSpeech::kNoun);
}

std::vector<NodeId> WordNetGraph::senses(std::string_view word, PartOfSpeech pos) const {
  const auto* entry = lexicon_.find(lower(word), pos);
  if (!entry) return {};
  const auto nodes = synsets_.senses(*entry);
  return {nodes.begin(), nodes.end()};
}

std::vector<NodeId> WordNetGraph::morph_senses(const std::string& key, PartOfSpeech pos,
                                               std::vector<std::string>* lemmas) const {
  std::vector<NodeId> out = senses(key, pos);
  if (!out.empty()) {
    if (lemmas) *lemmas = {key};
    return out;
  }
  // WordNet's own first step of morphy: the exception list (men -> man, geese -> goose). Every
  // line listing the form counts.
  const auto* lines = lexicon_.exception_lines(key, pos);
  if (!lines) {
    if (lemmas) *lemmas = {key};
    return out;
  }
  if (lemmas) lemmas->clear();
  for (const auto& bases : *lines) {
    for (const auto& base : bases) {
      if (lemmas) lemmas->push_back(base);
      for (NodeId n : senses(base, pos)) {
        if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
      }
    }
  }
  return out;
}

std::vector<NodeId> WordNetGraph::noun_senses(std::string_view word) const {
  return morph_senses(lower(word), PartOfSpeech::kNoun, nullptr);
}

std::size_t WordNetGraph::tagged_noun_sense_count(std::string_view word) const {
  const std::string key = lower(word);
  if (const auto* entry = lexicon_.find(key, PartOfSpeech::kNoun)) return entry->n_tagged;
  const auto* lines = lexicon_.exception_lines(key, PartOfSpeech::kNoun);
  if (!lines) return 0;
  std::size_t n = 0;  // the bases' tagged senses come first in noun_senses' union
  for (const auto& bases : *lines) {
    for (const auto& base : bases) {
      if (const auto* entry = lexicon_.find(base, PartOfSpeech::kNoun))
        n = std::max<std::size_t>(n, entry->n_tagged);
    }
  }
  return n;
}

std::vector<WeightedNode> WordNetGraph::links(NodeId node, PointerKind kind_a,
                                              PointerKind kind_b) const {
  std::vector<WeightedNode> out;
  for (const auto& p : synsets_.pointers(synsets_.at(node))) {
    if (p.kind == kind_a || p.kind == kind_b) out.push_back({p.target, 1.0f});
  }
  return out;
}

std::vector<WeightedNode> WordNetGraph::hypernyms(NodeId node) const {
  return links(node, PointerKind::kHypernym, PointerKind::kInstanceHypernym);
}

std::vector<WeightedNode> WordNetGraph::hyponyms(NodeId node) const {
  return links(node, PointerKind::kHyponym, PointerKind::kInstanceHyponym);
}

std::vector<std::string> WordNetGraph::node_words(NodeId node) const {
  const auto& s = synsets_.at(node);
  std::vector<std::string> out;
  out.reserve(s.n_words);
  for (std::uint32_t i = 0; i < s.n_words; ++i) out.emplace_back(synsets_.word(s, i));
  return out;
}

std::string WordNetGraph::node_name(NodeId node) const {
  const auto& s = synsets_.at(node);
  const std::string lemma = lower(synsets_.word(s, 0));
  std::size_t sense = 0;
  if (const auto* entry = lexicon_.find(lemma, s.pos)) {
    const auto nodes = synsets_.senses(*entry);
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      if (nodes[i] == node) sense = i + 1;
    }
  }
  char number[32];
  std::snprintf(number, sizeof number, "%02zu", sense);
  const char letter = s.satellite ? 's' : wordnet::pos_letter(s.pos);
  return lemma + "." + letter + "." + number;
}

std::optional<NodeId> WordNetGraph::find_node(std::string_view name) const {
  const auto last = name.rfind('.');
  if (last == std::string_view::npos || last == 0) return std::nullopt;
  const auto mid = name.rfind('.', last - 1);
  if (mid == std::string_view::npos || mid + 2 != last) return std::nullopt;
  const char letter = name[mid + 1] == 's' ? 'a' : name[mid + 1];
  const auto pos =
      std::find_if(wordnet::kAllPartsOfSpeech.begin(), wordnet::kAllPartsOfSpeech.end(),
                   [&](PartOfSpeech p) { return wordnet::pos_letter(p) == letter; });
  if (pos == wordnet::kAllPartsOfSpeech.end()) return std::nullopt;
  std::size_t sense = 0;
  for (char c : name.substr(last + 1)) {
    if (c < '0' || c > '9') return std::nullopt;
    sense = sense * 10 + static_cast<std::size_t>(c - '0');
  }
  const auto nodes = senses(name.substr(0, mid), *pos);
  if (sense == 0 || sense > nodes.size()) return std::nullopt;
  return nodes[sense - 1];
}

std::string WordNetGraph::gloss(NodeId node) const {
  return std::string(synsets_.gloss(synsets_.at(node)));
}

// Appends the words that the lexical pointers of `kind` leaving one of `lemmas` in `node`
// reach (a semantic pointer: every word of its target), without duplicates.
void WordNetGraph::collect_links(NodeId node, const std::vector<std::string>& lemmas,
                                 PointerKind kind, std::vector<std::string>* words) const {
  const auto& s = synsets_.at(node);
  for (const auto& p : synsets_.pointers(s)) {
    if (p.kind != kind) continue;
    if (p.source_word != 0) {
      const std::string source = lower(synsets_.word(s, p.source_word - 1u));
      if (std::find(lemmas.begin(), lemmas.end(), source) == lemmas.end()) continue;
    }
    const auto& t = synsets_.at(p.target);
    const std::uint32_t first = p.target_word ? p.target_word - 1u : 0;
    const std::uint32_t last = p.target_word ? p.target_word : t.n_words;
    for (std::uint32_t w = first; w < last; ++w) {
      std::string target = lower(synsets_.word(t, w));
      if (std::find(words->begin(), words->end(), target) == words->end())
        words->push_back(std::move(target));
    }
  }
}

std::vector<std::string> WordNetGraph::lexical_links(std::string_view word, PartOfSpeech pos,
                                                     LexicalRelation relation) const {
  std::vector<std::string> lemmas, out;
  for (NodeId n : morph_senses(lower(word), pos, &lemmas))
    collect_links(n, lemmas, pointer_kind(relation), &out);
  return out;
}

std::vector<std::string> WordNetGraph::lemma_links(std::string_view lemma, PartOfSpeech pos,
                                                   LexicalRelation relation) const {
  std::vector<std::string> out;
  const auto* entry = lexicon_.find(lemma, pos);
  if (!entry) return out;
  const std::vector<std::string> lemmas{std::string(lemma)};
  for (NodeId n : synsets_.senses(*entry)) collect_links(n, lemmas, pointer_kind(relation), &out);
  return out;
}

}  // namespace assay::knowledge
