#include "aeon/wordnet_relations.h"

#include <algorithm>
#include <cctype>
#include <deque>
#include <map>
#include <utility>
#include <vector>

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
    : WordNetRelations(wordnet::Database::open(dir)) {}

WordNetRelations::WordNetRelations(std::shared_ptr<const wordnet::Database> database)
    : graph_(std::make_unique<knowledge::WordNetGraph>(database)), lemmatizer_(database) {}

std::vector<std::pair<std::string, PartOfSpeech>> WordNetRelations::lemmas(
    std::string_view word) const {
  std::vector<std::pair<std::string, PartOfSpeech>> out;
  const std::string w = lower(word);
  for (PartOfSpeech pos : wordnet::kAllPartsOfSpeech) {
    for (const std::string& l : lemmatizer_.morphy(w, pos)) out.emplace_back(l, pos);
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

bool WordNetRelations::antonym_link(const std::vector<std::string>& from,
                                    const std::vector<std::string>& to) const {
  for (const auto& x : from) {
    for (PartOfSpeech pos : wordnet::kAllPartsOfSpeech) {
      for (const auto& y : graph_->lemma_links(x, pos, knowledge::LexicalRelation::kAntonym)) {
        if (std::find(to.begin(), to.end(), y) != to.end()) return true;
      }
    }
  }
  return false;
}

bool WordNetRelations::antonyms(std::string_view a, std::string_view b) const {
  std::vector<std::string> xs{lower(a)}, ys{lower(b)};
  for (auto& l : lemmas(a)) xs.push_back(std::move(l.first));
  for (auto& l : lemmas(b)) ys.push_back(std::move(l.first));
  return antonym_link(xs, ys) || antonym_link(ys, xs);
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
