// Perturbator speed, start-up, peak memory and perturbation statistics (MT-NLP Fig. 4).
//   fairness_bench FILE [--input-format lines|tsv-no-header] [--repeats R] [--attribute A]
//                  [--fluency-ratio T] [--choice C] [--vectors FILE] [--broad-persons 0|1]
//                  [--noun-modifiers 0|1] [--noun-only 0|1]
// --noun-only 1: the paper's method for gender, the person noun alone changed (no lexicon, no
// first names, no co-reference).
// One thread. Prints: start-up (parallel load, and each part alone), the parts (tagging and
// trigram scoring of the originals) and the whole perturbator (first pass with cold per-noun
// caches, then warm passes: median), the statistics of the perturbation sets and ru_maxrss.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "core/error.h"
#include "fairness/fairness_input.h"
#include "fairness/fluency_scorer.h"
#include "fairness/perturbator.h"
#include "knowledge/wordnet_graph.h"
#include "lm/model_spec.h"
#include "text/pos_tagger.h"
#include "text/unicode_props.h"
#include "text/wordnet_lemmatizer.h"

namespace {
using Clock = std::chrono::steady_clock;
double s_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}
}  // namespace

int main(int argc, char** argv) {
  using namespace assay;
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: fairness_bench FILE [--input-format lines|tsv-no-header] [--repeats R] "
                 "[--attribute A] [--fluency-ratio T] [--choice C] [--vectors FILE] "
                 "[--broad-persons 0|1] [--noun-modifiers 0|1] [--noun-only 0|1]\n");
    return 2;
  }
  std::string format = "lines", attribute = "gender", choice = "mutual", vectors;
  std::size_t repeats = 3;
  double ratio = 0;
  bool broad = false;
  bool noun_modifiers = false;
  bool noun_only = false;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string k = argv[i], v = argv[i + 1];
    if (k == "--input-format")
      format = v;
    else if (k == "--repeats")
      repeats = std::strtoull(v.c_str(), nullptr, 10);
    else if (k == "--attribute")
      attribute = v;
    else if (k == "--fluency-ratio")
      ratio = std::strtod(v.c_str(), nullptr);
    else if (k == "--choice")
      choice = v;
    else if (k == "--vectors")
      vectors = v;
    else if (k == "--broad-persons")
      broad = v == "1";
    else if (k == "--noun-modifiers")
      noun_modifiers = v == "1";
    else if (k == "--noun-only")
      noun_only = v == "1";
    else {
      std::fprintf(stderr, "unknown option %s\n", k.c_str());
      return 2;
    }
  }
  try {
    models::TextInputOptions in;
    const auto parsed = models::parse_text_format(format);
    if (!parsed || *parsed == models::TextFormat::kTsv || *parsed == models::TextFormat::kCsv) {
      std::fprintf(stderr, "--input-format must be lines or tsv-no-header, got %s\n",
                   format.c_str());
      return 2;
    }
    in.format = *parsed;
    const auto inputs = fairness::read_inputs(argv[1], in);
    std::size_t n_words = 0;

    // Start-up: each part alone, then the parallel load the command uses.
    auto t0 = Clock::now();
    { const text::PosTagger tagger; }
    const double t_tagger = s_since(t0);
    t0 = Clock::now();
    { const auto g = knowledge::WordNetGraph::load(); }
    const double t_graph = s_since(t0);
    t0 = Clock::now();
    { const text::WordNetLemmatizer l; }
    const double t_lemma = s_since(t0);
    t0 = Clock::now();
    { const auto m = lm::open_ngram_model("cmu"); }
    const double t_lm = s_since(t0);
    fairness::ResourceOptions ro;
    ro.vectors = vectors;
    if (noun_only) {
      ro.gender_lexicon.clear();
      ro.first_names.clear();
    }
    t0 = Clock::now();
    const auto r = fairness::PerturbatorResources::load(ro);
    const double t_load = s_since(t0);
    std::printf(
        "start-up: parallel load %.3f s (alone: tagger %.3f, WordNet graph %.3f, "
        "lemmatiser %.3f, CMU trigram %.3f; sum %.3f)\n",
        t_load, t_tagger, t_graph, t_lemma, t_lm, t_tagger + t_graph + t_lemma + t_lm);

    fairness::PerturbatorOptions po;
    po.fluency_ratio = ratio;
    po.choice = fairness::parse_counterpart_choice(choice);
    po.narrow_persons = !broad;
    po.active_noun_modifiers = noun_modifiers;
    po.coreference = !noun_only;
    const fairness::Perturbator p(
        r, fairness::load_attribute(attribute, fairness::default_attribute_dir()), po);

    // The parts: tagging and scoring every original once.
    std::vector<double> tag_s, lm_s;
    const fairness::FluencyScorer scorer(*r.lm);
    double sink = 0;
    for (std::size_t rep = 0; rep < repeats; ++rep) {
      t0 = Clock::now();
      std::vector<std::vector<std::string>> words;
      n_words = 0;
      for (const auto& x : inputs) {
        const auto t = r.tagger->tag_text(x.text);
        std::vector<std::string> w;
        for (const auto& tok : t.tokens) w.push_back(text::to_lower(tok.text));
        n_words += w.size();
        words.push_back(std::move(w));
      }
      tag_s.push_back(s_since(t0));
      t0 = Clock::now();
      for (const auto& w : words) sink += scorer.score(w).log_prob;
      lm_s.push_back(s_since(t0));
    }

    // The whole: a cold pass (per-noun caches empty), then warm passes.
    std::vector<fairness::PerturbationSet> sets(inputs.size());
    t0 = Clock::now();
    for (std::size_t i = 0; i < inputs.size(); ++i) sets[i] = p.perturb(inputs[i].text);
    const double cold = s_since(t0);
    std::vector<double> warm;
    for (std::size_t rep = 0; rep < repeats; ++rep) {
      t0 = Clock::now();
      for (const auto& x : inputs)
        sink += static_cast<double>(p.perturb(x.text).perturbations.size());
      warm.push_back(s_since(t0));
    }
    const double n = static_cast<double>(inputs.size());
    std::printf("inputs %zu, words %zu (mean %.1f)\n", inputs.size(), n_words,
                static_cast<double>(n_words) / n);
    std::printf(
        "parts (median of %zu): tag %.3f s, trigram score of the originals %.3f s; "
        "sum %.3f s = %.0f inputs/s\n",
        repeats, median(tag_s), median(lm_s), median(tag_s) + median(lm_s),
        n / (median(tag_s) + median(lm_s)));
    std::printf(
        "whole: cold pass %.3f s = %.0f inputs/s; warm median of %zu %.3f s = %.0f "
        "inputs/s (%.2f x the parts)\n",
        cold, n / cold, repeats, median(warm), n / median(warm),
        median(warm) / (median(tag_s) + median(lm_s)));

    // Statistics (the paper's Fig. 4 and section 5 figures).
    std::size_t mutable_n = 0, analogy = 0, active = 0, over5 = 0, over10 = 0, max_set = 0;
    std::size_t persons = 0, with_person = 0, dropped_fluency = 0;
    std::map<std::size_t, std::size_t> hist;
    std::vector<double> sizes;
    for (const auto& s : sets) {
      const std::size_t k = s.perturbations.size();
      mutable_n += k > 0;
      analogy += s.count(fairness::MutationKind::kAnalogy);
      active += s.count(fairness::MutationKind::kActive);
      over5 += k > 5;
      over10 += k > 10;
      max_set = std::max(max_set, k);
      persons += s.n_person_nouns;
      with_person += s.n_person_nouns > 0;
      for (const auto& d : s.dropped) dropped_fluency += d.reason.rfind("fluency", 0) == 0;
      ++hist[k];
    }
    const double total = static_cast<double>(analogy + active);
    std::printf("mutable %zu / %zu = %.1f%%; inputs with a person noun %.1f%%, person nouns %zu\n",
                mutable_n, inputs.size(), 100.0 * mutable_n / n, 100.0 * with_person / n, persons);
    std::printf(
        "perturbations %.0f (analogy %zu, active %zu), mean per input %.2f, per mutable "
        "input %.2f, max %zu, > 5: %.1f%%, > 10: %.1f%%; dropped by fluency %zu\n",
        total, analogy, active, total / n, mutable_n ? total / mutable_n : 0.0, max_set,
        100.0 * over5 / n, 100.0 * over10 / n, dropped_fluency);
    const double m = mutable_n ? static_cast<double>(mutable_n) : 1.0;
    std::printf("of the mutable inputs: > 5: %.1f%%, > 10: %.1f%%; analogy share %.1f%%\n",
                100.0 * over5 / m, 100.0 * over10 / m, total ? 100.0 * analogy / total : 0.0);
    std::printf("distribution (perturbations per input: inputs):");
    const std::size_t edges[] = {0, 1, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 50, 100};
    for (std::size_t e = 0; e < std::size(edges); ++e) {
      const std::size_t lo = edges[e];
      const std::size_t hi = e + 1 < std::size(edges) ? edges[e + 1] : SIZE_MAX;
      std::size_t c = 0;
      for (const auto& [k, v] : hist) c += (k >= lo && k < hi) ? v : 0;
      if (hi == lo + 1)
        std::printf(" %zu:%zu", lo, c);
      else if (hi == SIZE_MAX)
        std::printf(" >=%zu:%zu", lo, c);
      else
        std::printf(" %zu-%zu:%zu", lo, hi - 1, c);
    }
    std::printf("\n");
    struct rusage ru {};
    getrusage(RUSAGE_SELF, &ru);
    std::printf("peak memory (ru_maxrss): %.0f MiB%s\n", ru.ru_maxrss / 1024.0,
                sink == 0.123 ? " " : "");
  } catch (const core::Error& e) {
    std::fprintf(stderr, "fairness_bench: %s\n", e.what());
    return 2;
  }
  return 0;
}
