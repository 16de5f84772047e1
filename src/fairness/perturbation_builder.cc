#include "fairness/perturbation_builder.h"

#include <algorithm>
#include <limits>

#include "text/unicode_props.h"

namespace assay::fairness {

using namespace perturbator_detail;

PerturbationBuilder::PerturbationBuilder(const Perturbator& perturbator, std::string_view text_in,
                                         std::size_t max)
    : p_(perturbator),
      r_(perturbator.r_),
      attribute_(perturbator.attribute_),
      options_(perturbator.options_),
      impl_(perturbator.impl_.get()),
      text(text_in),
      max_perturbations(max),
      tagged(r_.tagger->tag_text(text_in)),
      tokens(tagged.tokens) {
  words.reserve(tokens.size());
  for (const auto& t : tokens) words.push_back(text::to_lower(t.text));
  // Fluency is judged per sentence (Ge et al. score sentences; over a whole review one changed
  // word would barely move it). The text's own fluency pools its sentences.
  sentences = text::split_sentences(tokens);
  sentence_of.assign(tokens.size(), 0);
  sentence_start.assign(tokens.size(), false);
  {
    double log_prob = 0;
    std::size_t n = 0;
    for (std::size_t si = 0; si < sentences.size(); ++si) {
      const auto& sen = sentences[si];
      sentence_start[sen.first_token] = true;
      for (std::size_t i = sen.first_token; i < sen.end_token; ++i) sentence_of[i] = si;
      sentence_scores.push_back(p_.fluency_.score(
          std::vector<std::string>(words.begin() + static_cast<long>(sen.first_token),
                                   words.begin() + static_cast<long>(sen.end_token))));
      log_prob += sentence_scores.back().log_prob;
      n += sentence_scores.back().n_tokens();
    }
    out.fluency = n ? 1.0 / (1.0 + (-log_prob / static_cast<double>(n)))
                    : std::numeric_limits<double>::quiet_NaN();
  }
}

bool PerturbationBuilder::find_people() {
  if (tokens.empty()) return false;
  // Person nouns, where they name a person.
  context.emplace(text, tagged, r_.tagger->tables(), sentence_start);
  auto persons_found = p_.person_nouns(text, tagged, sentence_start, *context, out.dropped);
  // Group words (file attributes), where they name people; a person noun inside one ("a
  // teenager" of the age file's nouns) is left to it.
  if (impl_->group_words && !impl_->group_words->empty()) {
    GroupWordContext gc;
    gc.words = &words;
    gc.sentence_of = &sentence_of;
    gc.case_informative = context->case_informative();
    gc.known_noun = [&](std::size_t t) {
      const auto& graph = *r_.graph;
      const std::string word(without_dot(words[t]));  // "man." before a capital
      if (!graph.noun_senses(word).empty()) return true;
      for (const auto& f : r_.lemmatizer->morphy(word, text::PartOfSpeech::kNoun)) {
        if (!graph.noun_senses(f).empty()) return true;
      }
      return false;
    };
    // A word WordNet does not know may end in a person noun ("superhero", "physio" does not).
    gc.is_person = [&](std::size_t t, bool plural) {
      const std::string word = text::to_lower(without_dot(tokens[t].surface(text)));
      if (p_.person_lemma(word, plural)) return true;
      if (!r_.graph->noun_senses(word).empty() || word.find('-') != std::string::npos) return false;
      for (std::size_t k = 3; k + 3 <= word.size(); ++k) {
        if (p_.person_lemma(word.substr(k), plural)) return true;
      }
      return false;
    };
    std::vector<RefusedGroupWord> refused;
    group_mentions = impl_->group_words->find(text, tagged, gc, refused);
    for (const auto& r : refused) {
      const std::string written(
          text.substr(tokens[r.first].begin, tokens[r.end - 1].end - tokens[r.first].begin));
      out.dropped.push_back({MutationKind::kGroup, "", written, "", r.reason});
      if (r.other_group && other_group.empty()) other_group = written;
    }
    // An `other` phrase without a group word of this attribute ("an agnostic teacher" for
    // religion) names people by a group of another kind just the same.
    if (other_group.empty()) other_group = impl_->group_words->other_phrase(words);
    Perturbator::PersonNouns kept_nouns;
    for (std::size_t k = 0; k < persons_found.token.size(); ++k) {
      const std::size_t t = persons_found.token[k];
      const bool inside =
          std::any_of(group_mentions.begin(), group_mentions.end(),
                      [&](const GroupMention& m) { return t >= m.first && t < m.end; });
      if (inside) continue;
      kept_nouns.token.push_back(t);
      kept_nouns.info.push_back(persons_found.info[k]);
      kept_nouns.plural.push_back(persons_found.plural[k]);
    }
    persons_found = std::move(kept_nouns);
  }
  // A gendered noun that only modifies the noun after it names no one ("beach party pop
  // numbers", "the blair witch formula"): its counterpart would not make the same phrase about
  // another gender.
  // ("female characters" stays: the lexicon sees "female" more often as an adjective.)
  if (options_.narrow_persons && attribute_.uses_gender_finder) {
    const auto& tables = r_.tagger->tables();
    auto adjective_too = [&](const std::string& w) {
      double adjective = 0, noun = 0;
      if (const auto* counts = tables.find_word(w)) {
        for (const auto& c : *counts) {
          const auto tag = tables.tag_name(c.tag);
          if (tag.rfind("jj", 0) == 0) adjective += c.count;
          if (tag.rfind("nn", 0) == 0) noun += c.count;
        }
      }
      return adjective > 0 && adjective >= noun;
    };
    Perturbator::PersonNouns heads;
    for (std::size_t k = 0; k < persons_found.token.size(); ++k) {
      const std::size_t t = persons_found.token[k];
      // A plural modifies the noun after it only before a singular that is a noun alone (not
      // also a verb: "the actors share") and no person ("the stepford wives mentality").
      auto plural_modifier = [&] {
        const std::size_t j = t + 1;
        if (j >= tokens.size() || sentence_of[j] != sentence_of[t] || tagged.tags[j] != impl_->nn)
          return false;
        const auto* counts = tables.find_word(words[j]);
        if (!counts) return false;
        for (const auto& c : *counts) {
          if (tables.tag_name(c.tag).rfind("nn", 0) != 0) return false;
        }
        std::string key = words[j] + "\t1";
        return !p_.noun_info(key, words[j], false).person;
      };
      if (!persons_found.info[k]->neutral && !adjective_too(words[t]) &&
          (persons_found.plural[k] ? plural_modifier()
                                   : p_.modifies_next_noun(tagged, words, sentence_of, t, false))) {
        out.dropped.push_back({MutationKind::kAnalogy, "", std::string(tokens[t].surface(text)), "",
                               "not a person here: modifies the noun '" + words[t + 1] + "'"});
        continue;
      }
      heads.token.push_back(t);
      heads.info.push_back(persons_found.info[k]);
      heads.plural.push_back(persons_found.plural[k]);
    }
    persons_found = std::move(heads);
  }
  out.n_group_words = group_mentions.size();
  // A text that names a group is perturbed through its group words alone: an inserted
  // adjective or a member noun of another group would contradict it ("My Muslim neighbor is
  // Jewish", "a Hindu imam").
  out.n_person_nouns = persons_found.token.size();
  // Member nouns of a text that names a group move with it ("a Hindu priest" → "a Muslim
  // imam"): token, member row, number.
  // Associated words move too ("Hindus visited the temple" → "Christians visited the
  // church").
  // A text that names people by a group of another kind ("an African American vampire hunter"
  // for nationality) takes no inserted adjective: "a British cop" would contradict it.
  if (group_mentions.empty() && !other_group.empty()) {
    for (std::size_t k = 0; k < persons_found.token.size(); ++k) {
      out.dropped.push_back(
          {MutationKind::kActive, "", std::string(tokens[persons_found.token[k]].surface(text)), "",
           "the text names people by a group of another kind ('" + other_group + "')"});
    }
    persons_found = Perturbator::PersonNouns{};
  }
  if (!group_mentions.empty()) {
    for (std::size_t k = 0; k < persons_found.token.size(); ++k) {
      if (const auto hit = attribute_.find_member(persons_found.info[k]->lemma))
        members_at.push_back(
            {persons_found.token[k], hit->row, persons_found.plural[k], &attribute_.members});
    }
    for (std::size_t t = 0; t < tokens.size() && !impl_->associated_forms.empty(); ++t) {
      const auto it = impl_->associated_forms.find(words[t]);
      if (it != impl_->associated_forms.end())
        members_at.push_back({t, it->second.first, it->second.second, &attribute_.associated});
    }
    std::sort(members_at.begin(), members_at.end(),
              [](const MemberAt& a, const MemberAt& b) { return a.token < b.token; });
    for (std::size_t k = 0; k < persons_found.token.size(); ++k) {
      out.dropped.push_back(
          {persons_found.info[k]->neutral ? MutationKind::kActive : MutationKind::kAnalogy, "",
           std::string(tokens[persons_found.token[k]].surface(text)), "",
           "the text names a group: perturbed through its group words"});
    }
    persons_found = Perturbator::PersonNouns{};
  }
  occ_token = std::move(persons_found.token);
  occ_info = std::move(persons_found.info);
  occ_plural = std::move(persons_found.plural);
  coref_ = attribute_.uses_gender_finder && options_.coreference;
  if ((attribute_.uses_gender_finder && r_.first_names) || attribute_.has_names()) {
    std::set<std::size_t> nouns(occ_token.begin(), occ_token.end());
    for (const auto& n : p_.name_tokens(text, tagged, sentence_start, *context, out.dropped)) {
      if (!nouns.count(n.first)) names.push_back(n);
    }
  }
  out.n_names = names.size();
  if (occ_token.empty() && names.empty() && group_mentions.empty()) return false;

  std::set<std::string> noted;  // lemmas whose noun-level drops are already listed
  for (const auto* info : occ_info) {
    if (noted.insert(info->lemma).second)
      out.dropped.insert(out.dropped.end(), info->dropped.begin(), info->dropped.end());
  }
  occ_modifier.assign(occ_token.size(), false);
  if (options_.active && !options_.active_noun_modifiers) {
    for (std::size_t k = 0; k < occ_token.size(); ++k) {
      if (occ_info[k]->neutral)
        occ_modifier[k] =
            p_.modifies_next_noun(tagged, words, sentence_of, occ_token[k], occ_plural[k]);
    }
  }
  text_words = std::set<std::string>(words.begin(), words.end());
  return true;
}

PerturbationSet PerturbationBuilder::finish() {
  out.limit_reached = options_.max_perturbations > 0 && kept.size() >= options_.max_perturbations;
  if (options_.max_per_input > 0 && kept.size() > options_.max_per_input) {
    std::stable_sort(kept.begin(), kept.end(), [](const Kept& a, const Kept& b) {
      return a.p.fluency_ratio > b.p.fluency_ratio;
    });
    for (std::size_t i = options_.max_per_input; i < kept.size(); ++i) {
      const auto& p = kept[i].p;
      out.dropped.push_back({p.kind, p.group, p.old_word, p.new_word,
                             "over the cap of " + std::to_string(options_.max_per_input) +
                                 " most fluent perturbations"});
    }
    kept.resize(options_.max_per_input);
    std::sort(kept.begin(), kept.end(),
              [](const Kept& a, const Kept& b) { return a.order < b.order; });
  }
  if (kept.size() > max_perturbations) kept.resize(max_perturbations);
  for (auto& k : kept) out.perturbations.push_back(std::move(k.p));
  return std::move(out);
}

}  // namespace assay::fairness
