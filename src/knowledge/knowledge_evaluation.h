// Measurement of is_person and the counterpart finder against the word lists in
// ../shared/data (read at run time, never copied): MT-NLP's word_pairs.txt (male \t female),
// debiaswe's definitional / equalize pairs ([[female, male], ...] JSON), gender-specific word
// lists and professions. Used by tests/knowledge (with floors) and bench/knowledge (figures).
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "knowledge/gender_counterpart_finder.h"
#include "knowledge/person_classifier.h"

namespace assay::knowledge {

struct GenderPair {
  std::string male, female;
};

// "male<TAB>female" per line. ParseError file:line on a line without exactly two fields.
std::vector<GenderPair> read_tab_pairs(const std::string& path);
// debiaswe pair files: a JSON array of two-string arrays. `female_first` says the order
// (definitional_pairs.json is [female, male]; equalize_pairs.json mixes orders, so pass
// false there and the pair is kept as written — the evaluation queries both directions).
std::vector<GenderPair> read_json_pairs(const std::string& path, bool female_first);
// A JSON array of strings (gender_specific_*.json) or of [word, ...] arrays (professions.json).
std::vector<std::string> read_json_words(const std::string& path);

struct CounterpartScore {
  std::size_t n_queries = 0;   // 2 per pair: male -> female and female -> male
  std::size_t n_answered = 0;  // queries with at least one counterpart
  std::size_t n_top1 = 0;      // queries whose first counterpart is the gold word
  std::size_t n_any = 0;       // queries with the gold word anywhere in the list
  double precision = 0.0;      // n_top1 / n_answered
  double recall = 0.0;         // n_top1 / n_queries
  double any_recall = 0.0;     // n_any / n_queries
  std::vector<std::string> misses;  // "query -> got (want gold)"
};
CounterpartScore evaluate_counterparts(const GenderCounterpartFinder& finder,
                                       const std::vector<GenderPair>& pairs);

struct LabelledWord {
  std::string word;
  bool person = false;
};
// Words of the shared lists labelled person / non-person: every noun of word_pairs.txt,
// definitional_pairs.json, equalize_pairs.json, gender_specific_seed.json and professions.json
// is a person unless `labels_path` (lines "word<TAB>nonperson|skip", '#' comments; our own
// annotation) says otherwise. Lower-cased, deduplicated, sorted.
std::vector<LabelledWord> person_benchmark(const std::string& shared_data_dir,
                                           const std::string& labels_path);

// Our labels file: word -> "nonperson" | "skip" (format above). ParseError file:line otherwise.
std::map<std::string, std::string> read_person_labels(const std::string& labels_path);
// `pairs` without those holding a word labelled "skip" (pronouns, first names).
std::vector<GenderPair> noun_pairs(const std::vector<GenderPair>& pairs, const std::string& labels_path);

struct BinaryScore {
  std::size_t tp = 0, fp = 0, fn = 0, tn = 0;
  std::size_t n_unknown = 0;  // words with no noun sense in the graph (not scored)
  double precision = 0.0, recall = 0.0, f1 = 0.0;
  std::vector<std::string> false_positives, false_negatives;
};
BinaryScore evaluate_persons(const PersonClassifier& classifier,
                             const std::vector<LabelledWord>& words);

}  // namespace assay::knowledge
