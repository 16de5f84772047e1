#include "knowledge/wordnet_graph.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "core/error.h"
#include "core/line_reader.h"
#include "knowledge/wndb_parser.h"

namespace assay::knowledge {
namespace {

constexpr std::array<const char*, 4> kPosFile = {"noun", "verb", "adj", "adv"};
constexpr std::array<char, 4> kPosLetter = {'n', 'v', 'a', 'r'};

std::uint8_t kind_code(wndb::PointerKind k) { return static_cast<std::uint8_t>(k); }

std::string require_file(const std::string& dir, const std::string& name) {
  const std::string path = (std::filesystem::path(dir) / name).string();
  if (!std::filesystem::is_regular_file(path)) {
    throw core::MissingResourceError(
        core::SourceLocation(path),
        "WordNet database file not found; install the Debian package wordnet-base "
        "(apt-get install wordnet-base) or pass the directory holding data.noun, index.noun, ...");
  }
  return path;
}

std::string lower(std::string_view s) { return normalize_term(s); }

}  // namespace

// Builds a WordNetGraph in three passes: data files (synsets, raw pointers), pointer
// resolution (offset -> node), then index and exception files.
class WordNetGraph::Loader {
 public:
  Loader(WordNetGraph& g, std::string dir) : g_(g), dir_(std::move(dir)) {}

  void run() {
    std::array<std::string, 4> data_paths, index_paths;
    for (std::size_t p = 0; p < 4; ++p) {
      data_paths[p] = require_file(dir_, std::string("data.") + kPosFile[p]);
      index_paths[p] = require_file(dir_, std::string("index.") + kPosFile[p]);
    }
    const std::string exc_path = require_file(dir_, "noun.exc");
    for (std::size_t p = 0; p < 4; ++p) read_data(data_paths[p], static_cast<PartOfSpeech>(p));
    build_offset_maps();
    resolve_pointers(data_paths);
    for (std::size_t p = 0; p < 4; ++p) read_index(index_paths[p], static_cast<PartOfSpeech>(p));
    read_exceptions(exc_path);
    g_.stats_.n_synsets = g_.synsets_.size();
    g_.stats_.n_pointers = g_.pointers_.size();
  }

 private:
  struct RawTarget {
    std::uint32_t offset;
    PartOfSpeech pos;
  };

  void read_data(const std::string& path, PartOfSpeech file_pos) {
    core::LineReader reader(path);
    std::string_view line;
    while (reader.next(line)) {
      if (line.empty() || wndb::is_preamble(line)) continue;
      const auto where = reader.location();
      const wndb::DataRecord r = wndb::parse_data_line(line, where);
      if (r.pos != file_pos) {
        throw core::ParseError(core::SourceLocation(path, reader.line_number()),
                               std::string("synset of part of speech '") +
                                   kPosLetter[static_cast<std::size_t>(r.pos)] + "' in data." +
                                   kPosFile[static_cast<std::size_t>(file_pos)]);
      }
      Synset s;
      s.offset = r.offset;
      s.pos = r.pos;
      s.satellite = r.satellite;
      s.lex_filenum = r.lex_filenum;
      s.first_word = static_cast<std::uint32_t>(g_.word_spans_.size());
      s.n_words = static_cast<std::uint32_t>(r.words.size());
      for (const auto& w : r.words) g_.word_spans_.push_back(append_text(w.lemma));
      s.first_pointer = static_cast<std::uint32_t>(g_.pointers_.size());
      s.n_pointers = static_cast<std::uint32_t>(r.pointers.size());
      for (const auto& p : r.pointers) {
        g_.pointers_.push_back({kind_code(p.kind), p.source_word, p.target_word, 0});
        raw_targets_.push_back({p.target_offset, p.target_pos});
        pointer_lines_.push_back(reader.line_number());
      }
      const Range gloss = append_text(r.gloss);
      s.gloss_begin = gloss.begin;
      s.gloss_size = gloss.size;
      g_.synsets_.push_back(s);
      synset_lines_.push_back(reader.line_number());
    }
  }

  Range append_text(std::string_view s) {
    const Range r{static_cast<std::uint32_t>(g_.text_.size()), static_cast<std::uint32_t>(s.size())};
    g_.text_.append(s);
    return r;
  }

  void build_offset_maps() {
    for (NodeId n = 0; n < g_.synsets_.size(); ++n) {
      by_offset_[static_cast<std::size_t>(g_.synsets_[n].pos)].emplace_back(g_.synsets_[n].offset, n);
    }
    for (auto& m : by_offset_) std::sort(m.begin(), m.end());
    for (std::size_t p = 0; p < 4; ++p) {
      const auto& m = by_offset_[p];
      for (std::size_t i = 1; i < m.size(); ++i) {
        if (m[i].first == m[i - 1].first) {
          throw core::ParseError(
              core::SourceLocation(dir_ + "/data." + kPosFile[p], synset_lines_[m[i].second]),
              "duplicate synset offset " + std::to_string(m[i].first) + " (first on line " +
                  std::to_string(synset_lines_[m[i - 1].second]) + ")");
        }
      }
    }
  }

  std::optional<NodeId> node_at(std::uint32_t offset, PartOfSpeech pos) const {
    const auto& m = by_offset_[static_cast<std::size_t>(pos)];
    auto it = std::lower_bound(m.begin(), m.end(), std::make_pair(offset, NodeId{0}));
    if (it == m.end() || it->first != offset) return std::nullopt;
    return it->second;
  }

  void resolve_pointers(const std::array<std::string, 4>& data_paths) {
    for (NodeId n = 0; n < g_.synsets_.size(); ++n) {
      const Synset& s = g_.synsets_[n];
      for (std::uint32_t i = s.first_pointer; i < s.first_pointer + s.n_pointers; ++i) {
        const RawTarget t = raw_targets_[i];
        const auto target = node_at(t.offset, t.pos);
        if (!target) {
          throw core::ParseError(
              core::SourceLocation(data_paths[static_cast<std::size_t>(s.pos)], pointer_lines_[i]),
              "pointer to synset offset " + std::to_string(t.offset) + " which is not in data." +
                  kPosFile[static_cast<std::size_t>(t.pos)]);
        }
        const std::uint8_t tw = g_.pointers_[i].target_word;
        if (tw > g_.synsets_[*target].n_words) {
          throw core::ParseError(
              core::SourceLocation(data_paths[static_cast<std::size_t>(s.pos)], pointer_lines_[i]),
              "pointer names word " + std::to_string(tw) + " of synset " +
                  std::to_string(t.offset) + ", which has " +
                  std::to_string(g_.synsets_[*target].n_words) + " words");
        }
        g_.pointers_[i].target = *target;
      }
    }
  }

  void read_index(const std::string& path, PartOfSpeech file_pos) {
    core::LineReader reader(path);
    std::string_view line;
    auto& index = g_.index_[static_cast<std::size_t>(file_pos)];
    while (reader.next(line)) {
      if (line.empty() || wndb::is_preamble(line)) continue;
      const wndb::IndexRecord r = wndb::parse_index_line(line, reader.location());
      if (r.pos != file_pos) {
        throw core::ParseError(reader.location(), std::string("lemma of another part of speech in index.") +
                                                      kPosFile[static_cast<std::size_t>(file_pos)]);
      }
      Range range{static_cast<std::uint32_t>(g_.index_nodes_.size()),
                  static_cast<std::uint32_t>(r.offsets.size()), r.n_tagged};
      for (std::uint32_t off : r.offsets) {
        const auto node = node_at(off, file_pos);
        if (!node) {
          throw core::ParseError(reader.location(),
                                 "lemma '" + std::string(r.lemma) + "' names synset offset " +
                                     std::to_string(off) + ", which is not in data." +
                                     kPosFile[static_cast<std::size_t>(file_pos)]);
        }
        g_.index_nodes_.push_back(*node);
      }
      if (!index.emplace(std::string(r.lemma), range).second) {
        throw core::ParseError(reader.location(), "duplicate lemma '" + std::string(r.lemma) + "'");
      }
      ++g_.stats_.n_lemmas;
    }
  }

  void read_exceptions(const std::string& path) {
    core::LineReader reader(path);
    std::string_view line;
    while (reader.next(line)) {
      if (line.empty()) continue;
      const auto fields = wndb::parse_exception_line(line, reader.location());
      auto& bases = g_.noun_exceptions_[std::string(fields[0])];
      for (std::size_t i = 1; i < fields.size(); ++i) bases.emplace_back(fields[i]);
      ++g_.stats_.n_exceptions;
    }
  }

  WordNetGraph& g_;
  std::string dir_;
  std::vector<RawTarget> raw_targets_;
  std::vector<std::uint64_t> pointer_lines_;
  std::vector<std::uint64_t> synset_lines_;
  std::array<std::vector<std::pair<std::uint32_t, NodeId>>, 4> by_offset_;
};

std::unique_ptr<WordNetGraph> WordNetGraph::load(const std::string& dir) {
  std::unique_ptr<WordNetGraph> g(new WordNetGraph());
  Loader(*g, dir).run();
  return g;
}

std::string WordNetGraph::word(std::uint32_t index) const {
  const Range r = word_spans_[index];
  return text_.substr(r.begin, r.size);
}

std::vector<NodeId> WordNetGraph::senses(std::string_view word, PartOfSpeech pos) const {
  const auto& index = index_[static_cast<std::size_t>(pos)];
  const auto it = index.find(lower(word));
  if (it == index.end()) return {};
  return {index_nodes_.begin() + it->second.begin,
          index_nodes_.begin() + it->second.begin + it->second.size};
}

std::vector<NodeId> WordNetGraph::noun_senses(std::string_view word) const {
  const std::string key = lower(word);
  std::vector<NodeId> out = senses(key, PartOfSpeech::kNoun);
  if (!out.empty()) return out;
  // WordNet's own first step of morphy: the exception list (men -> man, geese -> goose).
  const auto exc = noun_exceptions_.find(key);
  if (exc == noun_exceptions_.end()) return out;
  for (const auto& base : exc->second) {
    for (NodeId n : senses(base, PartOfSpeech::kNoun)) {
      if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
    }
  }
  return out;
}

std::size_t WordNetGraph::tagged_noun_sense_count(std::string_view word) const {
  const std::string key = lower(word);
  const auto& index = index_[static_cast<std::size_t>(PartOfSpeech::kNoun)];
  if (const auto it = index.find(key); it != index.end()) return it->second.tagged;
  const auto exc = noun_exceptions_.find(key);
  if (exc == noun_exceptions_.end()) return 0;
  std::size_t n = 0;  // the bases' tagged senses come first in noun_senses' union
  for (const auto& base : exc->second) {
    if (const auto it = index.find(base); it != index.end()) n = std::max<std::size_t>(n, it->second.tagged);
  }
  return n;
}

std::vector<WeightedNode> WordNetGraph::links(NodeId node, std::uint8_t kind_a,
                                              std::uint8_t kind_b) const {
  const Synset& s = synsets_.at(node);
  std::vector<WeightedNode> out;
  for (std::uint32_t i = s.first_pointer; i < s.first_pointer + s.n_pointers; ++i) {
    if (pointers_[i].kind == kind_a || pointers_[i].kind == kind_b) out.push_back({pointers_[i].target, 1.0f});
  }
  return out;
}

std::vector<WeightedNode> WordNetGraph::hypernyms(NodeId node) const {
  return links(node, kind_code(wndb::PointerKind::kHypernym),
               kind_code(wndb::PointerKind::kInstanceHypernym));
}

std::vector<WeightedNode> WordNetGraph::hyponyms(NodeId node) const {
  return links(node, kind_code(wndb::PointerKind::kHyponym),
               kind_code(wndb::PointerKind::kInstanceHyponym));
}

std::vector<std::string> WordNetGraph::node_words(NodeId node) const {
  const Synset& s = synsets_.at(node);
  std::vector<std::string> out;
  out.reserve(s.n_words);
  for (std::uint32_t i = 0; i < s.n_words; ++i) out.push_back(word(s.first_word + i));
  return out;
}

std::string WordNetGraph::node_name(NodeId node) const {
  const Synset& s = synsets_.at(node);
  const std::string lemma = lower(word(s.first_word));
  const auto& index = index_[static_cast<std::size_t>(s.pos)];
  std::size_t sense = 0;
  if (const auto it = index.find(lemma); it != index.end()) {
    for (std::uint32_t i = 0; i < it->second.size; ++i) {
      if (index_nodes_[it->second.begin + i] == node) sense = i + 1;
    }
  }
  char number[32];
  std::snprintf(number, sizeof number, "%02zu", sense);
  const char letter = s.satellite ? 's' : kPosLetter[static_cast<std::size_t>(s.pos)];
  return lemma + "." + letter + "." + number;
}

std::optional<NodeId> WordNetGraph::find_node(std::string_view name) const {
  const auto last = name.rfind('.');
  if (last == std::string_view::npos || last == 0) return std::nullopt;
  const auto mid = name.rfind('.', last - 1);
  if (mid == std::string_view::npos || mid + 2 != last) return std::nullopt;
  const char letter = name[mid + 1];
  const auto pos_it = std::find(kPosLetter.begin(), kPosLetter.end(), letter == 's' ? 'a' : letter);
  if (pos_it == kPosLetter.end()) return std::nullopt;
  std::size_t sense = 0;
  for (char c : name.substr(last + 1)) {
    if (c < '0' || c > '9') return std::nullopt;
    sense = sense * 10 + static_cast<std::size_t>(c - '0');
  }
  const auto nodes = senses(name.substr(0, mid), static_cast<PartOfSpeech>(pos_it - kPosLetter.begin()));
  if (sense == 0 || sense > nodes.size()) return std::nullopt;
  return nodes[sense - 1];
}

std::string WordNetGraph::gloss(NodeId node) const {
  const Synset& s = synsets_.at(node);
  return text_.substr(s.gloss_begin, s.gloss_size);
}

// Targets of the lexical pointers of `kind` that leave `word` in each of its noun senses.
std::vector<NodeId> WordNetGraph::lexical_targets(std::string_view query, std::uint8_t kind,
                                                  std::vector<std::string>* words) const {
  std::vector<NodeId> nodes;
  const std::string key = lower(query);
  std::vector<std::string> lemmas{key};
  if (senses(key, PartOfSpeech::kNoun).empty()) {
    if (const auto exc = noun_exceptions_.find(key); exc != noun_exceptions_.end()) lemmas = exc->second;
  }
  for (NodeId n : noun_senses(key)) {
    const Synset& s = synsets_[n];
    for (std::uint32_t i = s.first_pointer; i < s.first_pointer + s.n_pointers; ++i) {
      const Pointer& p = pointers_[i];
      if (p.kind != kind) continue;
      if (p.source_word != 0) {
        const std::string source = lower(word(s.first_word + p.source_word - 1u));
        if (std::find(lemmas.begin(), lemmas.end(), source) == lemmas.end()) continue;
      }
      const Synset& t = synsets_[p.target];
      const std::uint32_t first = p.target_word ? p.target_word - 1u : 0;
      const std::uint32_t last = p.target_word ? p.target_word : t.n_words;
      for (std::uint32_t w = first; w < last; ++w) {
        std::string target = lower(word(t.first_word + w));
        if (std::find(words->begin(), words->end(), target) == words->end()) {
          words->push_back(std::move(target));
          nodes.push_back(p.target);
        }
      }
    }
  }
  return nodes;
}

std::vector<std::string> WordNetGraph::antonyms(std::string_view word) const {
  std::vector<std::string> out;
  lexical_targets(word, kind_code(wndb::PointerKind::kAntonym), &out);
  return out;
}

std::vector<std::string> WordNetGraph::related_forms(std::string_view word) const {
  std::vector<std::string> out;
  lexical_targets(word, kind_code(wndb::PointerKind::kDerivation), &out);
  return out;
}

}  // namespace assay::knowledge
