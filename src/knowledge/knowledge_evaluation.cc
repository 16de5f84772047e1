#include "knowledge/knowledge_evaluation.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/error.h"
#include "core/json_file.h"
#include "core/line_reader.h"

namespace assay::knowledge {
namespace {

nlohmann::json read_json(const std::string& path) {
  return core::read_json_file(path);
}

double ratio(std::size_t a, std::size_t b) {
  return b ? static_cast<double>(a) / static_cast<double>(b) : 0.0;
}

void score_query(const GenderCounterpartFinder& finder, std::string query, std::string gold,
                 const Lemmatize& lemmatize, CounterpartScore& s) {
  if (lemmatize) {
    query = lemmatize(normalize_term(query));
    gold = lemmatize(normalize_term(gold));
  }
  ++s.n_queries;
  const auto got = finder.counterparts(query);
  if (!got.empty()) ++s.n_answered;
  const std::string want = normalize_term(gold);
  if (!got.empty() && got.front().word == want) {
    ++s.n_top1;
  } else {
    s.misses.push_back(query + " -> " + (got.empty() ? "(none)" : got.front().word) + " (want " +
                       want + ")");
  }
  if (std::any_of(got.begin(), got.end(), [&](const Counterpart& c) { return c.word == want; }))
    ++s.n_any;
}

}  // namespace

std::vector<GenderPair> read_tab_pairs(const std::string& path) {
  core::LineReader reader(path);
  std::string_view line;
  std::vector<GenderPair> out;
  while (reader.next(line)) {
    if (line.empty()) continue;
    const auto tab = line.find('\t');
    if (tab == std::string_view::npos || line.find('\t', tab + 1) != std::string_view::npos ||
        tab == 0 || tab + 1 == line.size()) {
      throw core::ParseError(reader.location(), "expected two tab-separated words (male, female)");
    }
    out.push_back({std::string(line.substr(0, tab)), std::string(line.substr(tab + 1))});
  }
  return out;
}

std::vector<GenderPair> read_json_pairs(const std::string& path, bool female_first) {
  const nlohmann::json j = read_json(path);
  if (!j.is_array())
    throw core::ParseError(core::SourceLocation(path), "expected a JSON array of pairs");
  std::vector<GenderPair> out;
  for (std::size_t i = 0; i < j.size(); ++i) {
    const auto& p = j[i];
    if (!p.is_array() || p.size() != 2 || !p[0].is_string() || !p[1].is_string()) {
      throw core::ParseError(core::SourceLocation(path),
                             "element " + std::to_string(i) + ": expected a pair of strings");
    }
    const std::string a = p[0], b = p[1];
    out.push_back(female_first ? GenderPair{b, a} : GenderPair{a, b});
  }
  return out;
}

std::vector<std::string> read_json_words(const std::string& path) {
  const nlohmann::json j = read_json(path);
  if (!j.is_array()) throw core::ParseError(core::SourceLocation(path), "expected a JSON array");
  std::vector<std::string> out;
  for (std::size_t i = 0; i < j.size(); ++i) {
    const auto& v = j[i].is_array() && !j[i].empty() ? j[i][0] : j[i];
    if (!v.is_string()) {
      throw core::ParseError(core::SourceLocation(path),
                             "element " + std::to_string(i) + ": expected a word");
    }
    out.push_back(v.get<std::string>());
  }
  return out;
}

CounterpartScore evaluate_counterparts(const GenderCounterpartFinder& finder,
                                       const std::vector<GenderPair>& pairs,
                                       const Lemmatize& lemmatize) {
  CounterpartScore s;
  for (const auto& p : pairs) {
    score_query(finder, p.male, p.female, lemmatize, s);
    score_query(finder, p.female, p.male, lemmatize, s);
  }
  s.precision = ratio(s.n_top1, s.n_answered);
  s.recall = ratio(s.n_top1, s.n_queries);
  s.any_recall = ratio(s.n_any, s.n_queries);
  return s;
}

std::vector<LabelledWord> person_benchmark(const std::string& dir, const std::string& labels_path) {
  std::map<std::string, bool> words;  // word -> person
  auto add = [&](const std::string& w) { words.emplace(normalize_term(w), true); };
  for (const auto& p : read_tab_pairs(dir + "/mt-nlp-word-pairs/word_pairs.txt")) {
    add(p.male);
    add(p.female);
  }
  for (const char* f : {"definitional_pairs.json", "equalize_pairs.json"}) {
    for (const auto& p : read_json_pairs(dir + "/debiaswe-gender-lists/" + f, false)) {
      add(p.male);
      add(p.female);
    }
  }
  for (const char* f : {"gender_specific_seed.json", "professions.json"}) {
    for (const auto& w : read_json_words(dir + "/debiaswe-gender-lists/" + f)) add(w);
  }
  for (const auto& [w, label] : read_person_labels(labels_path)) {
    if (label == "skip") {
      words.erase(w);
    } else {
      words[w] = false;
    }
  }
  std::vector<LabelledWord> out;
  for (const auto& [w, person] : words) out.push_back({w, person});
  return out;
}

std::map<std::string, std::string> read_person_labels(const std::string& labels_path) {
  std::map<std::string, std::string> out;
  core::LineReader reader(labels_path);
  std::string_view line;
  while (reader.next(line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto tab = line.find('\t');
    const std::string_view label = tab == std::string_view::npos ? "" : line.substr(tab + 1);
    if (label != "nonperson" && label != "skip") {
      throw core::ParseError(reader.location(), "expected 'word<TAB>nonperson' or 'word<TAB>skip'");
    }
    out[normalize_term(line.substr(0, tab))] = std::string(label);
  }
  return out;
}

std::vector<GenderPair> noun_pairs(const std::vector<GenderPair>& pairs,
                                   const std::string& labels_path) {
  const auto labels = read_person_labels(labels_path);
  auto skipped = [&](const std::string& w) {
    const auto it = labels.find(normalize_term(w));
    return it != labels.end() && it->second == "skip";
  };
  std::vector<GenderPair> out;
  for (const auto& p : pairs) {
    if (!skipped(p.male) && !skipped(p.female)) out.push_back(p);
  }
  return out;
}

BinaryScore evaluate_persons(const PersonClassifier& classifier,
                             const std::vector<LabelledWord>& words, const Lemmatize& lemmatize) {
  BinaryScore s;
  for (const auto& w : words) {
    const std::string word = lemmatize ? lemmatize(w.word) : w.word;
    if (classifier.graph().noun_senses(word).empty()) {
      ++s.n_unknown;
      continue;
    }
    const bool got = classifier.is_person(word);
    if (got && w.person) ++s.tp;
    if (got && !w.person) {
      ++s.fp;
      s.false_positives.push_back(w.word);
    }
    if (!got && w.person) {
      ++s.fn;
      s.false_negatives.push_back(w.word);
    }
    if (!got && !w.person) ++s.tn;
  }
  s.precision = ratio(s.tp, s.tp + s.fp);
  s.recall = ratio(s.tp, s.tp + s.fn);
  s.f1 = s.precision + s.recall > 0 ? 2 * s.precision * s.recall / (s.precision + s.recall) : 0.0;
  return s;
}

}  // namespace assay::knowledge
