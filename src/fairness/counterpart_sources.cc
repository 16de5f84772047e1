// A person noun's counterparts in every other group: the counterpart sources asked in order
// (below), the choice among several counterparts, and the facts of a person noun cached per
// noun (its lemma, gender, neutrality, counterparts and the chosen one).
//
// The sources, one file each, share one signature (perturbator.h): each reads the lemma of a
// CounterpartSearch (perturbator_internal.h), adds the counterparts it finds per group with
// their evidence (the `evidence` of each perturbation: "lexicon:kinship", "vectors", "antonym",
// "gendered_hyponym", "member", ...), drops the candidates it refuses with the reason, and
// answers (the search ends with what it found, even nothing) or passes to the next source.
//
// First names are not a counterpart source: a name's replacement is drawn per text (a hash of
// the name and the seed, skipping the names already in that text; FirstNames::replacement,
// called where a name is perturbed, person_perturbations.cc), so it cannot be cached per lemma,
// and there is one replacement, with no candidates to rank, choose or drop.
#include <limits>
#include <memory>

#include "fairness/perturbator_internal.h"

namespace assay::fairness {

using namespace perturbator_detail;

// The sources in the order they are asked; the first that answers ends the search.
//  1. lexicon (gender, with a lexicon): a listed word's counterpart; a word it lacks that has no
//     gender of its own (its most frequent person sense has none) ends here with none;
//  2. vectors (when loaded): Algorithm 3, the graph confirming with `strict`; every noun ends
//     here, a noun without a vector with none;
//  3. graph (gender): the knowledge graph's gender counterparts, then the reverse evidence;
//  4. members (file attributes): the aligned member nouns of the attribute file.
std::vector<std::vector<CounterpartCandidate>> Perturbator::counterparts(
    const std::string& lemma, std::vector<DroppedCandidate>* dropped) const {
  CounterpartSearch search(lemma, attribute_, dropped);
  for (const auto source : {&Perturbator::lexicon_counterparts, &Perturbator::vector_counterparts,
                            &Perturbator::graph_counterparts, &Perturbator::member_counterparts}) {
    if ((this->*source)(search) == SourceAnswer::kAnswered) break;
  }
  return std::move(search.found);
}

std::optional<std::string> Perturbator::choose_counterpart(const std::string& lemma,
                                                           std::size_t group) const {
  const auto cands = counterparts(lemma);
  if (group >= cands.size() || cands[group].empty()) return std::nullopt;
  const auto& list = cands[group];
  std::size_t pick = 0;
  const auto choice = options_.choice == CounterpartChoice::kContext ? CounterpartChoice::kFrequency
                                                                     : options_.choice;
  if (list.size() > 1 && choice == CounterpartChoice::kFrequency) {
    double best = -std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < list.size(); ++i) {
      double lp = 0;
      for (const auto& w : lower_words(list[i].word)) lp += fluency_.unigram_log_prob(w);
      if (lp > best) {
        best = lp;
        pick = i;
      }
    }
  } else if (list.size() > 1 && choice == CounterpartChoice::kMutual) {
    for (std::size_t i = 0; i < list.size(); ++i) {
      std::string top;
      {
        std::lock_guard<std::mutex> lock(impl_->mutex);
        const auto it = impl_->top_counterpart.find(list[i].word);
        if (it != impl_->top_counterpart.end()) top = it->second;
      }
      if (top.empty()) {
        const auto back = counterparts(list[i].word);
        double best = -1;
        for (const auto& g : back) {
          if (!g.empty() && g.front().score > best) {
            best = g.front().score;
            top = g.front().word;
          }
        }
        if (top.empty()) top.push_back('\t');  // none
        std::lock_guard<std::mutex> lock(impl_->mutex);
        impl_->top_counterpart.emplace(list[i].word, top);
      }
      if (top == lemma) {
        pick = i;
        break;
      }
    }
  }
  return list[pick].word;
}

const Perturbator::NounInfo& Perturbator::noun_info(const std::string& key, std::string_view word,
                                                    bool plural) const {
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    const auto it = impl_->nouns.find(key);
    if (it != impl_->nouns.end()) return *it->second;
  }
  auto info = std::make_unique<NounInfo>();
  if (const auto lemma = person_lemma(word, plural)) {
    info->person = true;
    info->lemma = *lemma;
    info->neutral = is_neutral(*lemma);
    if (attribute_.uses_gender_finder) {
      info->gender = noun_gender(*lemma);
      if (info->gender == knowledge::Gender::kNone) info->gender = compound_gender(*lemma);
    }
    if (options_.analogy) {
      std::shared_ptr<const Impl::LemmaCounterparts> known;
      {
        std::lock_guard<std::mutex> lock(impl_->mutex);
        const auto it = impl_->by_lemma.find(*lemma);
        if (it != impl_->by_lemma.end()) known = it->second;
      }
      if (!known) {
        auto c = std::make_shared<Impl::LemmaCounterparts>();
        c->candidates = counterparts(*lemma, &c->dropped);
        c->chosen.assign(c->candidates.size(), 0);
        for (std::size_t g = 0; g < c->candidates.size(); ++g) {
          const auto& list = c->candidates[g];
          if (list.size() < 2) continue;
          const auto pick = choose_counterpart(*lemma, g);
          for (std::size_t i = 0; i < list.size(); ++i) {
            if (list[i].word == *pick) c->chosen[g] = i;
          }
        }
        std::lock_guard<std::mutex> lock(impl_->mutex);
        known = impl_->by_lemma.emplace(*lemma, std::move(c)).first->second;
      }
      info->candidates = known->candidates;
      info->chosen = known->chosen;
      info->dropped = known->dropped;
    } else {
      info->candidates.assign(attribute_.groups.size(), {});
      info->chosen.assign(attribute_.groups.size(), 0);
    }
  }
  std::lock_guard<std::mutex> lock(impl_->mutex);
  const auto [it, inserted] = impl_->nouns.emplace(key, std::move(info));
  return *it->second;
}

}  // namespace assay::fairness
