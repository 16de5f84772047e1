// Counterpart precision and recall of the perturbator's AnalogyMutate (knowledge graph, no
// vectors) on the gender word lists in ../shared/data, both directions, for every choice
// criterion; floors under the default's measured figures (docs/fairness.md).
#include <gtest/gtest.h>

#include <cstdio>

#include "fairness/perturbator.h"
#include "fairness_test_support.h"
#include "knowledge/knowledge_evaluation.h"
#include "support/shared_data.h"

namespace assay::fairness {
namespace {

struct Score {
  int queries = 0, answered = 0, correct = 0;
  double precision() const { return answered ? static_cast<double>(correct) / answered : 0; }
  double recall() const { return queries ? static_cast<double>(correct) / queries : 0; }
};

// Queries male -> female (group 1) and female -> male (group 0). A plural word is looked up
// as the perturbator does (nns: its WordNet lemma) and compared with the gold word's lemma.
Score evaluate(const Perturbator& p, const std::vector<knowledge::GenderPair>& pairs,
               std::string* misses) {
  Score s;
  auto lemma_of = [&](const std::string& w) -> std::string {
    if (auto l = p.person_lemma(w, false)) return *l;
    if (auto l = p.person_lemma(w, true)) return *l;
    return "";
  };
  for (const auto& pair : pairs) {
    for (int dir = 0; dir < 2; ++dir) {
      const std::string& q = dir == 0 ? pair.male : pair.female;
      const std::string& gold = dir == 0 ? pair.female : pair.male;
      ++s.queries;
      const std::string lq = lemma_of(q);
      if (lq.empty()) continue;
      const auto got = p.choose_counterpart(lq, dir == 0 ? 1 : 0);
      if (!got) continue;
      ++s.answered;
      const std::string lg = lemma_of(gold);
      if (*got == gold || (!lg.empty() && *got == lg)) {
        ++s.correct;
      } else if (misses) {
        *misses += " " + q + "->" + *got + "(" + gold + ")";
      }
    }
  }
  return s;
}

TEST(CounterpartQuality, GenderWordListsBothDirections) {
  ASSAY_REQUIRE_FILE(testing::kShared + "/mt-nlp-word-pairs/word_pairs.txt");
  ASSAY_REQUIRE_FILE(testing::kShared + "/debiaswe-gender-lists/definitional_pairs.json");
  ASSAY_REQUIRE_FILE(testing::kShared + "/debiaswe-gender-lists/equalize_pairs.json");
  // The knowledge graph's counterparts and the choice among them, without the curated lexicon
  // (which is built from these very lists and would answer first).
  const auto& r = testing::mutable_graph_only_resources();
  const std::string labels = std::string(ASSAY_TEST_DATA_DIR) + "/knowledge/person_labels.tsv";
  const auto mt = knowledge::read_tab_pairs(testing::kShared + "/mt-nlp-word-pairs/word_pairs.txt");
  const auto def = knowledge::noun_pairs(
      knowledge::read_json_pairs(
          testing::kShared + "/debiaswe-gender-lists/definitional_pairs.json", true),
      labels);
  const auto eq = knowledge::noun_pairs(
      knowledge::read_json_pairs(testing::kShared + "/debiaswe-gender-lists/equalize_pairs.json",
                                 false),
      labels);
  std::map<CounterpartChoice, Score> mt_score, def_score, eq_score;
  for (const auto choice :
       {CounterpartChoice::kRank, CounterpartChoice::kFrequency, CounterpartChoice::kMutual}) {
    PerturbatorOptions o;
    o.choice = choice;
    const Perturbator p(r, gender_attribute(), o);
    std::string misses;
    mt_score[choice] = evaluate(p, mt, &misses);
    def_score[choice] = evaluate(p, def, &misses);
    eq_score[choice] = evaluate(p, eq, &misses);
    for (const auto* list : {&mt_score, &def_score, &eq_score}) {
      const auto& s = list->at(choice);
      std::printf("%-9s %-13s queries %3d answered %3d correct %3d  P %.3f R %.3f\n",
                  std::string(to_string(choice)).c_str(),
                  list == &mt_score    ? "mt-nlp"
                  : list == &def_score ? "definitional"
                                       : "equalize",
                  s.queries, s.answered, s.correct, s.precision(), s.recall());
    }
    std::printf("  misses:%s\n", misses.c_str());
  }
  const auto& m = mt_score[CounterpartChoice::kMutual];
  EXPECT_EQ(m.queries, 32);
  // Measured: rank and mutual P 0.935 R 0.906 (misses dad -> mom, daddy -> mommy where the
  // list wants mum, mummy; "mum" itself is not a person noun: sense 1 is the flower);
  // frequency P 0.806 R 0.781 (boy -> woman, son -> girl).
  EXPECT_GE(m.precision(), 0.93);
  EXPECT_GE(m.recall(), 0.90);
  EXPECT_LT(mt_score[CounterpartChoice::kFrequency].recall(), m.recall());
  EXPECT_GE(def_score[CounterpartChoice::kMutual].recall(), 0.83);
  EXPECT_GE(eq_score[CounterpartChoice::kMutual].precision(), 0.94);
  EXPECT_GE(eq_score[CounterpartChoice::kMutual].recall(), 0.70);
}

}  // namespace
}  // namespace assay::fairness
