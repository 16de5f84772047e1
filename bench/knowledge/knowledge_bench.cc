// knowledge_bench: load times of the knowledge graphs and the accuracy figures of is_person and
// the counterpart finder (run.sh runs every mode; docs/knowledge.md quotes the output).
//   knowledge_bench wordnet-load [DIR]
//   knowledge_bench person-eval SHARED_DATA_DIR LABELS_TSV
//   knowledge_bench counterpart-eval SHARED_DATA_DIR LABELS_TSV
//   knowledge_bench conceptnet-generate OUT.csv.gz N_EDGES  (synthetic dump, seeded)
//   knowledge_bench conceptnet-build DUMP CACHE | conceptnet-reload CACHE
#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "core/rng.h"
#include "knowledge/conceptnet_graph.h"
#include "knowledge/gender_counterpart_finder.h"
#include "knowledge/knowledge_evaluation.h"
#include "knowledge/person_classifier.h"
#include "knowledge/wordnet_graph.h"
#include "text/wordnet_lemmatizer.h"

namespace {

using namespace assay::knowledge;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

const char* choice_name(SenseChoice c) {
  switch (c) {
    case SenseChoice::kFirst:
      return "first";
    case SenseChoice::kAnyOfTopN:
      return "any_of_top";
    case SenseChoice::kMajorityOfTopN:
      return "majority_of_top";
    case SenseChoice::kAnyTaggedOfTopN:
      return "any_tagged_of_top";
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
  const std::vector<Choice> choices = {{SenseChoice::kFirst, 1},
                                       {SenseChoice::kAnyOfTopN, 2},
                                       {SenseChoice::kAnyOfTopN, 3},
                                       {SenseChoice::kAnyOfTopN, 100},
                                       {SenseChoice::kMajorityOfTopN, 3},
                                       {SenseChoice::kMajorityOfTopN, 100},
                                       {SenseChoice::kAnyTaggedOfTopN, 2},
                                       {SenseChoice::kAnyTaggedOfTopN, 3},
                                       {SenseChoice::kAnyTaggedOfTopN, 100}};
  for (const auto& ch : choices) {
    for (std::size_t hops : {2, 3, 4, 6, 8, 12, 16, 32}) {
      PersonOptions o = default_person_options(*g);
      o.sense_choice = ch.c;
      o.top_n = ch.n;
      o.max_hops = hops;
      const PersonClassifier pc(*g, o);
      const auto s = evaluate_persons(pc, words);
      std::printf("%-16s %4zu %5zu %6.3f %6.3f %6.3f %4zu %4zu %4zu %4zu %7zu\n", choice_name(ch.c),
                  ch.n, hops, s.precision, s.recall, s.f1, s.tp, s.fp, s.fn, s.tn, s.n_unknown);
    }
  }
  const PersonClassifier pc(*g, default_person_options(*g));
  const auto s = evaluate_persons(pc, words);
  const assay::text::WordNetLemmatizer lemmatizer;
  const auto lemmatized = evaluate_persons(pc, words, [&](std::string_view w) {
    return lemmatizer.lemmatize(w, assay::text::PartOfSpeech::kNoun);
  });
  std::printf(
      "default, words lemmatised by src/text morphy first: P %.3f R %.3f F1 %.3f (tp %zu fp %zu fn "
      "%zu tn %zu unknown %zu)\n",
      lemmatized.precision, lemmatized.recall, lemmatized.f1, lemmatized.tp, lemmatized.fp,
      lemmatized.fn, lemmatized.tn, lemmatized.n_unknown);
  std::printf("default: P %.3f R %.3f F1 %.3f\n  false positives:", s.precision, s.recall, s.f1);
  for (const auto& w : s.false_positives) std::printf(" %s", w.c_str());
  std::printf("\n  false negatives:");
  for (const auto& w : s.false_negatives) std::printf(" %s", w.c_str());
  std::printf("\n");
  return 0;
}

void print_score(const char* name, const CounterpartScore& s) {
  std::printf("%-28s queries %3zu answered %3zu top1 %3zu any %3zu  P %.3f R %.3f any-R %.3f\n",
              name, s.n_queries, s.n_answered, s.n_top1, s.n_any, s.precision, s.recall,
              s.any_recall);
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
  std::printf("%-28s queries %3zu answered %3zu top1 %3zu  P %.3f R %.3f\n",
              "  baseline: first antonym", n, answered, top1,
              answered ? double(top1) / double(answered) : 0.0, double(top1) / double(n));
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
  const assay::text::WordNetLemmatizer lemmatizer;
  print_score("equalize_pairs, lemmatised",
              evaluate_counterparts(finder, eq, [&](std::string_view w) {
                return lemmatizer.lemmatize(w, assay::text::PartOfSpeech::kNoun);
              }));
  return 0;
}

// A synthetic dump in the real layout: n_edges English assertions of the kept relations over
// n_edges / 2.5 terms (sense-tagged URIs, duplicates, self-loops), plus one skipped line
// (other language or relation) per four kept ones. gzip level 1. Seeded: same bytes each run.
int conceptnet_generate(const std::string& out, std::size_t n_edges, std::uint64_t seed) {
  assay::core::Rng rng(seed, 1);
  const std::size_t n_terms = std::max<std::size_t>(10, n_edges * 2 / 5);
  auto term = [&](std::uint64_t i) {
    static const char* kSyll[] = {"ka",  "ro", "mi", "te", "su",  "lan",
                                  "dor", "vi", "ne", "qu", "bel", "tor"};
    std::string t;
    for (std::uint64_t x = i + 1; x; x /= 12) t += kSyll[x % 12];
    return t;
  };
  static const char* kRel[] = {"IsA",     "Antonym",   "FormOf",    "DerivedFrom",
                               "Synonym", "RelatedTo", "HasContext"};
  gzFile gz = gzopen(out.c_str(), "wb1");
  if (!gz) {
    std::fprintf(stderr, "cannot write %s\n", out.c_str());
    return 2;
  }
  std::string line;
  for (std::size_t i = 0; i < n_edges + n_edges / 4; ++i) {
    const bool kept = i % 5 != 4;
    const std::uint64_t r = kept ? rng.below(100) : 0;
    const char* rel = !kept    ? kRel[5 + rng.below(2)]
                      : r < 25 ? "IsA"
                      : r < 27 ? "Antonym"
                      : r < 52 ? "FormOf"
                      : r < 77 ? "DerivedFrom"
                               : "Synonym";
    const std::string lang = kept || rng.below(2) ? "en" : "fr";
    const std::string s =
        "/c/" + lang + "/" + term(rng.below(n_terms)) + (rng.below(3) == 0 ? "/n/wikt/en_1" : "/n");
    const std::string e = "/c/en/" + term(rng.below(n_terms));
    char weight[32];
    std::snprintf(weight, sizeof weight, "%.3f",
                  0.5 + static_cast<double>(rng.below(4000)) / 1000.0);
    line = "/a/[/r/" + std::string(rel) + "/," + s + "/," + e + "/]\t/r/" + rel + "\t" + s + "\t" +
           e +
           "\t{\"dataset\": \"/d/wiktionary/en\", \"license\": \"cc:by-sa/4.0\", \"sources\": "
           "[{\"contributor\": \"/s/resource/wiktionary/en\", \"process\": "
           "\"/s/process/wikiparsec/2\"}], "
           "\"weight\": " +
           weight + "}\n";
    gzwrite(gz, line.data(), static_cast<unsigned>(line.size()));
  }
  gzclose(gz);
  return 0;
}

int conceptnet_build(const std::string& dump, const std::string& cache) {
  const auto t0 = Clock::now();
  const auto g = ConceptNetGraph::build(dump);
  const double build_s = seconds_since(t0);
  const auto t1 = Clock::now();
  g->write_cache(cache);
  std::printf(
      "conceptnet_build_s %.3f write_cache_s %.3f lines %llu kept %llu nodes %zu edges %zu\n",
      build_s, seconds_since(t1), static_cast<unsigned long long>(g->dump_stats().n_lines),
      static_cast<unsigned long long>(g->dump_stats().n_kept), g->node_count(), g->edge_count());
  return 0;
}

int conceptnet_reload(const std::string& cache) {
  const auto t0 = Clock::now();
  const auto g = ConceptNetGraph::load_cache(cache);
  const double s = seconds_since(t0);
  // Touch the graph so the load cannot be optimised away, and time a query mix.
  const auto t1 = Clock::now();
  std::size_t n = 0;
  for (NodeId i = 0; i < g->node_count(); i += 97)
    n += g->hypernyms(i).size() + g->antonyms(g->node_name(i)).size();
  std::printf("conceptnet_reload_s %.3f nodes %zu edges %zu query_mix_s %.3f (%zu results)\n", s,
              g->node_count(), g->edge_count(), seconds_since(t1), n);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string what = argc > 1 ? argv[1] : "wordnet-load";
  try {
    if (what == "wordnet-load") {
      const auto t0 = Clock::now();
      const auto g = WordNetGraph::load(argc > 2 ? argv[2] : assay::wordnet::kDefaultDir);
      std::printf("wordnet_load_s %.3f synsets %zu lemmas %zu pointers %zu\n", seconds_since(t0),
                  g->stats().n_synsets, g->stats().n_lemmas, g->stats().n_pointers);
    } else if (what == "conceptnet-generate" && argc == 4) {
      return conceptnet_generate(argv[2], std::stoul(argv[3]), 20261201);
    } else if (what == "conceptnet-build" && argc == 4) {
      return conceptnet_build(argv[2], argv[3]);
    } else if (what == "conceptnet-reload" && argc == 3) {
      return conceptnet_reload(argv[2]);
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
