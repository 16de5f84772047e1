#include "aeon/wordnet_relations.h"

#include <algorithm>
#include <cctype>
#include <deque>
#include <map>
#include <vector>

#include "core/line_reader.h"
#include "knowledge/wndb_parser.h"

namespace assay::aeon {
namespace {

using knowledge::NodeId;
using knowledge::PartOfSpeech;

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Hypernym ancestors of `node` with their distance (the node itself at 0), up to `limit` steps.
std::map<NodeId, int> ancestors(const knowledge::WordNetGraph& g, NodeId node, int limit = 12) {
  std::map<NodeId, int> dist{{node, 0}};
  std::deque<NodeId> queue{node};
  while (!queue.empty()) {
    const NodeId n = queue.front();
    queue.pop_front();
    const int d = dist[n];
    if (d >= limit) continue;
    for (const auto& h : g.hypernyms(n)) {
      if (dist.emplace(h.node, d + 1).second) queue.push_back(h.node);
    }
  }
  return dist;
}

constexpr std::size_t kMaxSenses = 3;  // the frequent senses; rare ones add noise and time

}  // namespace

WordNetRelations::WordNetRelations(const std::string& dir)
    : graph_(knowledge::WordNetGraph::load(dir)), lemmatizer_(dir) {
  for (const char* pos : {"noun", "verb", "adj", "adv"}) load_antonyms(dir + "/data." + pos);
}

void WordNetRelations::load_antonyms(const std::string& path) {
  // Pass 1 keeps each synset's words and its antonym pointers; the targets of one file's
  // antonyms are always in the same file (antonymy never crosses parts of speech).
  struct Pending {
    std::string source;
    std::uint32_t target_offset;
    std::uint8_t target_word;
  };
  std::unordered_map<std::uint32_t, std::vector<std::string>> words;
  std::vector<Pending> pending;
  core::LineReader reader(path);
  std::string_view line;
  while (reader.next(line)) {
    if (knowledge::wndb::is_preamble(line)) continue;
    const auto rec = knowledge::wndb::parse_data_line(line, core::SourceLocation(path, reader.line_number()));
    auto& ws = words[rec.offset];
    for (const auto& w : rec.words) ws.push_back(lower(w.lemma));
    for (const auto& p : rec.pointers) {
      if (p.kind != knowledge::wndb::PointerKind::kAntonym || p.source_word == 0) continue;
      if (p.source_word > ws.size()) continue;
      pending.push_back({ws[p.source_word - 1u], p.target_offset, p.target_word});
    }
  }
  for (const Pending& p : pending) {
    const auto it = words.find(p.target_offset);
    if (it == words.end() || p.target_word == 0 || p.target_word > it->second.size()) continue;
    const std::string& t = it->second[p.target_word - 1u];
    antonym_pairs_.insert(p.source + '\t' + t);
    antonym_pairs_.insert(t + '\t' + p.source);
  }
}

std::vector<std::pair<std::string, PartOfSpeech>> WordNetRelations::lemmas(std::string_view word) const {
  std::vector<std::pair<std::string, PartOfSpeech>> out;
  const std::string w = lower(word);
  for (int p = 0; p < 4; ++p) {
    const auto pos = static_cast<PartOfSpeech>(p);
    for (const std::string& l : lemmatizer_.morphy(w, static_cast<text::WordPos>(p))) out.emplace_back(l, pos);
  }
  return out;
}

bool WordNetRelations::synonyms(std::string_view a, std::string_view b) const {
  const auto la = lemmas(a), lb = lemmas(b);
  for (const auto& [x, px] : la) {
    for (const auto& [y, py] : lb) {
      if (px != py) continue;
      if (x == y) return true;
      const auto sx = graph_->senses(x, px), sy = graph_->senses(y, py);
      for (NodeId n : sx) {
        if (std::find(sy.begin(), sy.end(), n) != sy.end()) return true;
      }
    }
  }
  return false;
}

bool WordNetRelations::antonyms(std::string_view a, std::string_view b) const {
  const auto la = lemmas(a), lb = lemmas(b);
  std::vector<std::string> xs{lower(a)}, ys{lower(b)};
  for (const auto& l : la) xs.push_back(l.first);
  for (const auto& l : lb) ys.push_back(l.first);
  for (const auto& x : xs) {
    for (const auto& y : ys) {
      if (antonym_pairs_.count(x + '\t' + y)) return true;
    }
  }
  return false;
}

double WordNetRelations::path_similarity(std::string_view a, std::string_view b) const {
  double best = 0;
  for (const auto& [x, px] : lemmas(a)) {
    if (px != PartOfSpeech::kNoun && px != PartOfSpeech::kVerb) continue;
    for (const auto& [y, py] : lemmas(b)) {
      if (py != px) continue;
      auto sx = graph_->senses(x, px), sy = graph_->senses(y, py);
      sx.resize(std::min(sx.size(), kMaxSenses));
      sy.resize(std::min(sy.size(), kMaxSenses));
      for (NodeId n : sx) {
        const auto da = ancestors(*graph_, n);
        for (NodeId m : sy) {
          for (const auto& [anc, d2] : ancestors(*graph_, m)) {
            if (const auto it = da.find(anc); it != da.end()) {
              best = std::max(best, 1.0 / (1.0 + it->second + d2));
            }
          }
        }
      }
    }
  }
  return best;
}

}  // namespace assay::aeon
