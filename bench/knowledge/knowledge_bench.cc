// knowledge_bench: load times of the knowledge graphs and the accuracy figures of is_person and
// the counterpart finder (run.sh runs every mode; docs/knowledge.md quotes the output).
//   knowledge_bench wordnet-load [DIR]
//   knowledge_bench person-eval SHARED_DATA_DIR LABELS_TSV
//   knowledge_bench counterpart-eval SHARED_DATA_DIR LABELS_TSV
//   knowledge_bench conceptnet-generate OUT.csv N_EDGES      (synthetic dump, seeded)
//   knowledge_bench conceptnet-build DUMP CACHE | conceptnet-reload CACHE
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "knowledge/gender_counterpart_finder.h"
#include "knowledge/knowledge_evaluation.h"
#include "knowledge/person_classifier.h"
#include "knowledge/wordnet_graph.h"

namespace {

using namespace assay::knowledge;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

const char* choice_name(SenseChoice c) {
  switch (c) {
    case SenseChoice::kFirst: return "first";
    case SenseChoice::kAnyOfTopN: return "any_of_top";
    case SenseChoice::kMajorityOfTopN: return "majority_of_top";
    case SenseChoice::kAnyTaggedOfTopN: return "any_tagged_of_top";
  }
  return "?";
}

int person_eval(const std::string& shared, const std::string& labels) {
  const auto g = WordNetGraph::load();
  const auto words = person_benchmark(shared, labels);
  std::size_t n_pos = 0;
  for (const auto& w : words) n_pos += w.person;
  std::printf("person benchmark: %zu words (%zu person, %zu non-person)\n", words.size(), n_pos,
              words.size() - n_pos);
  std::printf("%-16s %4s %5s %6s %6s %6s %4s %4s %4s %4s %7s\n", "senses", "top", "hops", "P", "R",
              "F1", "tp", "fp", "fn", "tn", "unknown");
  struct Choice {
    SenseChoice c;
    std::size_t n;
  };
  const std::vector<Choice> choices = {{SenseChoice::kFirst, 1},        {SenseChoice::kAnyOfTopN, 2},
                                       {SenseChoice::kAnyOfTopN, 3},    {SenseChoice::kAnyOfTopN, 100},
                                       {SenseChoice::kMajorityOfTopN, 3}, {SenseChoice::kMajorityOfTopN, 100},
                                       {SenseChoice::kAnyTaggedOfTopN, 2}, {SenseChoice::kAnyTaggedOfTopN, 3},
                                       {SenseChoice::kAnyTaggedOfTopN, 100}};
  for (const auto& ch : choices) {
    for (std::size_t hops : {2, 3, 4, 6, 8, 12, 16, 32}) {
      PersonOptions o = default_person_options(*g);
      o.sense_choice = ch.c;
      o.top_n = ch.n;
      o.max_hops = hops;
      const PersonClassifier pc(*g, o);
      const auto s = evaluate_persons(pc, words);
      std::printf("%-16s %4zu %5zu %6.3f %6.3f %6.3f %4zu %4zu %4zu %4zu %7zu\n", choice_name(ch.c), ch.n,
                  hops, s.precision, s.recall, s.f1, s.tp, s.fp, s.fn, s.tn, s.n_unknown);
    }
  }
  const PersonClassifier pc(*g, default_person_options(*g));
  const auto s = evaluate_persons(pc, words);
  std::printf("default: P %.3f R %.3f F1 %.3f\n  false positives:", s.precision, s.recall, s.f1);
  for (const auto& w : s.false_positives) std::printf(" %s", w.c_str());
  std::printf("\n  false negatives:");
  for (const auto& w : s.false_negatives) std::printf(" %s", w.c_str());
  std::printf("\n");
  return 0;
}

void print_score(const char* name, const CounterpartScore& s) {
  std::printf("%-28s queries %3zu answered %3zu top1 %3zu any %3zu  P %.3f R %.3f any-R %.3f\n", name,
              s.n_queries, s.n_answered, s.n_top1, s.n_any, s.precision, s.recall, s.any_recall);
  for (const auto& m : s.misses) std::printf("    miss: %s\n", m.c_str());
}

// Baseline: the first WordNet antonym as the counterpart, nothing else.
void antonym_baseline(const KnowledgeGraph& g, const std::vector<GenderPair>& pairs) {
  std::size_t n = 0, answered = 0, top1 = 0;
  for (const auto& p : pairs) {
    for (const auto& [q, want] : {std::pair{p.male, p.female}, std::pair{p.female, p.male}}) {
      ++n;
      const auto a = g.antonyms(q);
      answered += !a.empty();
      top1 += !a.empty() && a[0] == normalize_term(want);
    }
  }
  std::printf("%-28s queries %3zu answered %3zu top1 %3zu  P %.3f R %.3f\n", "  baseline: first antonym", n,
              answered, top1, answered ? double(top1) / double(answered) : 0.0, double(top1) / double(n));
}

int counterpart_eval(const std::string& shared, const std::string& labels) {
  const auto g = WordNetGraph::load();
  const PersonClassifier pc(*g, default_person_options(*g));
  const GenderCounterpartFinder finder(*g, pc);
  const auto mt = read_tab_pairs(shared + "/mt-nlp-word-pairs/word_pairs.txt");
  const auto def = read_json_pairs(shared + "/debiaswe-gender-lists/definitional_pairs.json", true);
  print_score("mt-nlp word_pairs", evaluate_counterparts(finder, mt));
  antonym_baseline(*g, mt);
  print_score("debiaswe definitional_pairs", evaluate_counterparts(finder, def));
  const auto def_nouns = noun_pairs(def, labels);
  print_score("definitional (noun pairs)", evaluate_counterparts(finder, def_nouns));
  antonym_baseline(*g, def_nouns);
  const auto eq = read_json_pairs(shared + "/debiaswe-gender-lists/equalize_pairs.json", false);
  print_score("debiaswe equalize_pairs", evaluate_counterparts(finder, eq));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string what = argc > 1 ? argv[1] : "wordnet-load";
  try {
    if (what == "wordnet-load") {
      const auto t0 = Clock::now();
      const auto g = WordNetGraph::load(argc > 2 ? argv[2] : kWordNetDefaultDir);
      std::printf("wordnet_load_s %.3f synsets %zu lemmas %zu pointers %zu\n", seconds_since(t0),
                  g->stats().n_synsets, g->stats().n_lemmas, g->stats().n_pointers);
    } else if (what == "person-eval" && argc == 4) {
      return person_eval(argv[2], argv[3]);
    } else if (what == "counterpart-eval" && argc == 4) {
      return counterpart_eval(argv[2], argv[3]);
    } else {
      std::fprintf(stderr, "usage: see the comment at the top of knowledge_bench.cc\n");
      return 2;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
  return 0;
}
