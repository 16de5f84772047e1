#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <unordered_map>

#include "fairness/coreference.h"
#include "fairness/first_names.h"
#include "fairness/perturbation_builder.h"
#include "text/unicode_props.h"

namespace assay::fairness {

using namespace perturbator_detail;

PerturbationBuilder::TextPersons PerturbationBuilder::find_persons() const {
  TextPersons found;
  auto& persons = found.persons;
  auto& person_of = found.person_of;
  auto& mentions = found.mentions;
  auto& name_at = found.name_at;
  auto& described = found.described;
  std::set<std::string> surname_words;  // of the text's full names
  for (const auto& [t, gender] : names) {
    name_at[t] = t;
    if (p_.name_follows(text, tagged, sentence_start, *context, t, false)) {
      name_at[t + 1] = t;
      surname_words.insert(words[t + 1]);
    }
  }
  {
    const auto& tables = r_.tagger->tables();
    DescriptionContext dc{words, sentence_of, name_at, {}, {}, {}, {}, {}};
    dc.tag = [&](std::size_t t) { return tables.tag_name(tagged.tags[t]); };
    dc.capitalised = [&](std::size_t t) { return upper_first(tokens[t].surface(text)); };
    dc.proper_noun = [&](std::size_t t) {
      return context->case_informative() && !sentence_start[t] &&
             upper_first(tokens[t].surface(text)) &&
             (tagged.tags[t] == impl_->nnp || tagged.tags[t] == impl_->nnps);
    };
    // A first name the rules do not take for a person's name here ("evil uncle ralph", a
    // character).
    dc.unnamed_first_name = [&](std::size_t t) {
      return r_.first_names && impl_->nominal[tagged.tags[t]] &&
             r_.first_names->gender_of(tokens[t].surface(text)) != knowledge::Gender::kNone;
    };
    std::map<std::size_t, knowledge::Gender> name_gender(names.begin(), names.end());
    dc.gender_of = [&](std::size_t t) {
      const auto& w = words[t];
      if (w == "he" || w == "him" || w == "his") return knowledge::Gender::kMale;
      if (w == "she" || w == "her") return knowledge::Gender::kFemale;
      if (const auto it = name_at.find(t); it != name_at.end()) return name_gender[it->second];
      return r_.first_names ? r_.first_names->gender_of(tokens[t].surface(text))
                            : knowledge::Gender::kNone;
    };
    std::vector<DescribingNoun> nouns;
    for (std::size_t a = 0; a < occ_token.size(); ++a)
      nouns.push_back({occ_token[a], static_cast<bool>(occ_plural[a]), !occ_info[a]->neutral,
                       occ_info[a]->gender});
    described = described_words(nouns, dc);
  }
  auto person = [&](const std::string& key, std::size_t token) {
    const auto [it, fresh] = person_of.emplace(key, persons.size());
    if (fresh) {
      persons.emplace_back();
      persons.back().written = std::string(tokens[token].surface(text));
    }
    return it->second;
  };
  for (std::size_t a = 0, b = 0; a < occ_token.size() || b < names.size();) {
    if (b == names.size() || (a < occ_token.size() && occ_token[a] < names[b].first)) {
      const auto& info = *occ_info[a];
      const auto e = person(info.lemma + (occ_plural[a] ? "\t2" : "\t1"), occ_token[a]);
      persons[e].occs.push_back(a);
      persons[e].gender = info.gender;
      // A noun that only modifies the common noun after it ("female characters", "male
      // bonding"; the rule of ActiveMutate) is no antecedent of a pronoun; nor is one that
      // describes a pronoun or a name, whose mention it is. One that describes someone the
      // rules do not name ("Vince Vaughn is a much better actor") stands for that person.
      const std::size_t t = occ_token[a];
      const bool describes_mention =
          described[a] &&
          (name_at.count(described[a]->word) || surname_words.count(words[described[a]->word]) ||
           classify_pronoun(words[described[a]->word], 0, true).has_value());
      if (!p_.modifies_next_noun(tagged, words, sentence_of, t, occ_plural[a]) &&
          !describes_mention)
        mentions.push_back({t, e, info.gender, static_cast<bool>(occ_plural[a])});
      ++a;
    } else {
      const auto [t, gender] = names[b];
      const auto e = person("\tname\t" + words[t], t);
      persons[e].name_tokens.push_back(t);
      if (p_.name_follows(text, tagged, sentence_start, *context, t, false))
        persons[e].surnames.insert(words[t + 1]);
      persons[e].gender = gender;
      mentions.push_back({t, e, gender, false});
      ++b;
    }
  }
  // A surname alone is a mention of the one person of the text with that surname ("Dr. Mark
  // Powell ... But it's Powell's job, as well as his nature"): an antecedent that does not
  // change.
  {
    std::map<std::string, std::size_t> owner;  // surname → person, npos when shared
    for (std::size_t e = 0; e < persons.size(); ++e) {
      for (const auto& surname : persons[e].surnames) {
        const auto [it, fresh] = owner.emplace(surname, e);
        if (!fresh) it->second = std::numeric_limits<std::size_t>::max();
      }
    }
    std::set<std::size_t> taken;  // name tokens and the surnames right after them
    for (const auto& [t, gender] : names) {
      taken.insert(t);
      taken.insert(t + 1);
    }
    const std::size_t before = mentions.size();
    for (std::size_t t = 0; t < tokens.size() && !owner.empty(); ++t) {
      const auto it = owner.find(words[t]);
      if (it == owner.end() || it->second == std::numeric_limits<std::size_t>::max() ||
          taken.count(t) || (context->case_informative() && !upper_first(tokens[t].surface(text))))
        continue;
      mentions.push_back({t, it->second, persons[it->second].gender, false});
      // "Troy Taylor … Mr. Taylor": the title of the person's own gender changes with the name.
      std::size_t k = t > 0 ? t - 1 : 0;
      if (k > 0 && words[k] == ".") --k;
      if (k + 1 == t || words[k + 1] == ".") {
        const auto* entry =
            r_.gender_lexicon ? r_.gender_lexicon->find(without_dot(words[k])) : nullptr;
        if (entry && entry->category == "address" && entry->gender == persons[it->second].gender)
          persons[it->second].titles.push_back(k);
      }
    }
    // Someone the lists do not name but a relative "who" / "whose" makes a person ("access
    // to massoud , whose charm … his people"): a mention of either gender that never changes.
    std::set<std::size_t> mentioned;
    for (const auto& m : mentions) mentioned.insert(m.token);
    for (std::size_t t = 0; t + 2 < tokens.size(); ++t) {
      const std::size_t w = words[t + 1] == "," ? t + 2 : t + 1;
      if ((words[w] != "who" && words[w] != "whose") || sentence_of[w] != sentence_of[t] ||
          mentioned.count(t) || taken.count(t) || !impl_->nominal[tagged.tags[t]] ||
          !is_noun_word(tokens[t].surface(text)))
        continue;
      const bool name_like = context->case_informative()
                                 ? upper_first(tokens[t].surface(text)) && !sentence_start[t]
                                 : p_.reads_as_name(words[t]);
      if (!name_like) continue;
      persons.emplace_back();
      persons.back().written = std::string(tokens[t].surface(text));
      mentions.push_back({t, persons.size() - 1, knowledge::Gender::kNone, false});
    }
    // An animal after a determiner ("the dog", "his horse") is "he" or "she" as its owner
    // pleases: a mention of either gender, as strong as a person's, that never changes ("The
    // Dog finds a teenager named Travis who takes him home": "him" may be the dog).
    std::map<std::string, std::size_t> animal_of;
    for (std::size_t t = 1; t < tokens.size(); ++t) {
      if (mentioned.count(t) || taken.count(t) || tagged.tags[t] != impl_->nn ||
          sentence_of[t - 1] != sentence_of[t] || !is_noun_word(tokens[t].surface(text)))
        continue;
      const auto& det = words[t - 1];
      if (det != "the" && det != "a" && det != "an" && det != "his" && det != "her" &&
          det != "my" && det != "our" && det != "their" && det != "your")
        continue;
      if (!impl_->animals || !impl_->animals->is_person(words[t])) continue;  // an animal
      const auto [it, fresh] = animal_of.emplace(words[t], persons.size());
      if (fresh) {
        persons.emplace_back();
        persons.back().written = std::string(tokens[t].surface(text));
      }
      mentions.push_back({t, it->second, knowledge::Gender::kNone, false, true});
    }
    if (mentions.size() != before) {
      std::sort(mentions.begin(), mentions.end(),
                [](const PersonMention& a, const PersonMention& b) { return a.token < b.token; });
    }
    // A title before a named person's surname is that person's, not a mention of its own.
    std::set<std::size_t> titles;
    for (const auto& p : persons) titles.insert(p.titles.begin(), p.titles.end());
    std::erase_if(mentions, [&](const PersonMention& m) { return titles.count(m.token) > 0; });
  }
  return found;
}

std::vector<GenderedPronoun> PerturbationBuilder::find_pronouns() const {
  std::vector<GenderedPronoun> pronouns;
  auto in_sentence = [&](std::size_t i, std::size_t j) {
    return j < tokens.size() && sentence_of[j] == sentence_of[i];
  };
  auto is_noun_tag = [&](std::size_t j) {
    return impl_->nominal[tagged.tags[j]] && !impl_->adjective_like[tagged.tags[j]];
  };
  // The comma that closes the clause opening token i's sentence, when i stands in it and
  // the clause is subordinate ("When he arrived , the doctor ..."; after an opening "and" /
  // "but" too) or i opens it ("She was late , the bride admitted").
  auto opening_clause_end = [&](std::size_t i) -> std::optional<std::size_t> {
    static const std::set<std::string_view> kSubordinators = {
        "when",  "while", "after", "before", "if",     "although", "though", "because",
        "since", "as",    "once",  "until",  "unless", "whenever", "whether"};
    std::size_t first = i;
    while (first > 0 && sentence_of[first - 1] == sentence_of[i]) --first;
    if (first < i && (words[first] == "and" || words[first] == "but")) ++first;
    if (first > i || (first < i && !kSubordinators.count(words[first]))) return std::nullopt;
    for (std::size_t u = first + 1; u < i; ++u) {
      if (words[u] == ",") return std::nullopt;  // the clause ended before the pronoun
    }
    for (std::size_t u = i + 1; u < tokens.size() && sentence_of[u] == sentence_of[i]; ++u) {
      if (words[u] == ",") return u;
    }
    return std::nullopt;
  };
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    // "her"/"his" determine what follows when a noun follows, or an adjective or number
    // before a noun or another adjective ("her own car", "her first film"), not "visits
    // her weekly", "saw her again", "gave her a toy" (the tagger's prps is not enough).
    bool nominal = false;
    const bool article_next =  // Lingua tags "a" jj after "her" ("gave her a toy")
        i + 1 < tokens.size() &&
        (words[i + 1] == "a" || words[i + 1] == "an" || words[i + 1] == "the");
    if (in_sentence(i, i + 1) && !article_next && impl_->nominal[tagged.tags[i + 1]]) {
      nominal = is_noun_tag(i + 1) || (in_sentence(i, i + 2) && impl_->nominal[tagged.tags[i + 2]]);
    }
    // An ordinal, "own" or a superlative whose noun is understood: "enough for his second",
    // "at his best".
    if (in_sentence(i, i + 1) && !nominal) {
      static const std::set<std::string_view> kElliptical = {
          "first", "second", "third", "fourth", "fifth",    "last",     "next",  "latest",
          "own",   "best",   "worst", "finest", "greatest", "earliest", "newest"};
      nominal = kElliptical.count(words[i + 1]) > 0;
    }
    // "let her rest", "help her move": "her" before a word that may be a noun or a verb is
    // read as the language model prefers the male text ("let him rest", not "let his rest").
    if (nominal && words[i] == "her" && !article_next) {
      const auto& sen = sentences[sentence_of[i]];
      const auto& base = sentence_scores[sentence_of[i]];
      const std::size_t at = i - sen.first_token;
      nominal = p_.fluency_.rescore(base, at, at + 1, {"his"}) >=
                p_.fluency_.rescore(base, at, at + 1, {"him"});
    }
    auto p = classify_pronoun(words[i], i, nominal);
    if (!p) continue;
    if (p->form == PronounForm::kIndependent && i >= 2 && words[i - 1] == "of")
      p->not_token = i - 2;  // "a friend of his" is not the friend
    p->clause_end = opening_clause_end(i);
    pronouns.push_back(*p);
  }
  return pronouns;
}

void PerturbationBuilder::perturb_persons() {
  const std::size_t n_groups = attribute_.targets;
  TextPersons found = find_persons();
  const auto& persons = found.persons;
  const auto& person_of = found.person_of;
  const auto& name_at = found.name_at;
  const auto& described = found.described;
  const auto pronouns = find_pronouns();
  const auto refs = resolve_pronouns(found.mentions, pronouns, sentence_of);
  auto gender_of_group = [](std::size_t g) {
    return g == 0 ? knowledge::Gender::kMale : knowledge::Gender::kFemale;
  };
  constexpr std::size_t kNobody = std::numeric_limits<std::size_t>::max();
  std::map<std::size_t, std::size_t> pronoun_at;  // token → index in pronouns
  for (std::size_t k = 0; k < pronouns.size(); ++k) pronoun_at[pronouns[k].token] = k;
  std::map<std::size_t, std::size_t> noun_person;  // a person noun's token → its person
  for (std::size_t e = 0; e < persons.size(); ++e) {
    for (const std::size_t a : persons[e].occs) noun_person[occ_token[a]] = e;
  }
  // The person whom the word a described noun describes refers to (kNobody: undecided).
  auto described_person = [&](std::size_t a) {
    const std::size_t subject = described[a]->word;
    if (const auto it = pronoun_at.find(subject); it != pronoun_at.end())
      return refs[it->second].size() == 1 ? refs[it->second][0] : kNobody;
    if (const auto it = noun_person.find(subject); it != noun_person.end()) return it->second;
    const auto at = name_at.find(subject);
    if (at == name_at.end()) return kNobody;
    const auto it = person_of.find("\tname\t" + words[at->second]);
    return it == person_of.end() ? kNobody : it->second;
  };
  // The described nouns of person e that must change with it to gender `to` (group g), added
  // to `change`; or why they cannot (empty: they can).
  auto descriptions_to = [&](std::size_t e, std::size_t g, knowledge::Gender to,
                             Replacements& change) -> std::string {
    for (std::size_t a = 0; a < occ_token.size(); ++a) {
      if (!described[a] || described_person(a) != e) continue;
      const NounInfo& info = *occ_info[a];
      if (info.gender == knowledge::Gender::kNone || info.gender == to) continue;
      const std::size_t t = occ_token[a];
      if (info.candidates[g].empty()) {
        if (described[a]->likeness) continue;  // "she can improvise like a jazzman"
        std::string why = "'";
        why += occ_word(a);
        why += "' describes '" + persons[e].written + "' and has no counterpart";
        return why;
      }
      const std::string& lemma = info.candidates[g][info.chosen[g]].word;
      const std::string word = text::transfer_case(
          tokens[t].surface(text), occ_plural[a] ? r_.inflector->pluralize(lemma) : lemma);
      change.emplace_back(t, word);
      if (t > 0 && is_article(t - 1)) {
        const std::string want(text::indefinite_article(word));
        if (want != words[t - 1]) change.emplace_back(t - 1, want);
      }
    }
    return "";
  };
  // A pronoun that refers to no one within the look-back window may still refer to the
  // person last mentioned before it that it could name ("Troy Taylor … Mr. Taylor … Shock!
  // Amazing! As if we didn't know … He informed us"): that person does not change.
  std::vector<std::size_t> far(pronouns.size(), kNobody);
  for (std::size_t k = 0; k < pronouns.size(); ++k) {
    if (!refs[k].empty()) continue;
    for (auto m = found.mentions.rbegin(); m != found.mentions.rend(); ++m) {
      if (m->token >= pronouns[k].token || m->plural) continue;
      if (m->gender == pronouns[k].gender || m->gender == knowledge::Gender::kNone) {
        far[k] = m->entity;
        break;
      }
    }
  }
  for (std::size_t e = 0; e < persons.size() && !full(); ++e) {
    const TextPerson& who = persons[e];
    if (who.occs.empty() && who.name_tokens.empty()) continue;  // someone unnamed
    std::vector<std::size_t> resolved, ambiguous;
    for (std::size_t k = 0; k < pronouns.size(); ++k) {
      if (refs[k].size() == 1 && refs[k][0] == e) resolved.push_back(k);
      if (refs[k].size() > 1 && std::binary_search(refs[k].begin(), refs[k].end(), e))
        ambiguous.push_back(k);
    }
    auto pronouns_to = [&](knowledge::Gender to) {
      Replacements out_words;
      for (const std::size_t k : resolved) {
        const auto w = swap_pronoun(pronouns[k], to);
        if (w != words[pronouns[k].token]) out_words.emplace_back(pronouns[k].token, w);
      }
      return out_words;
    };
    // Why the perturbation towards `to` cannot be made (kNone: any change of gender): a
    // pronoun that may refer to this person or another and would have to change.
    auto ambiguity = [&](knowledge::Gender to) -> std::string {
      for (std::size_t k = 0; k < pronouns.size(); ++k) {
        if (far[k] != e || (to != knowledge::Gender::kNone && pronouns[k].gender == to)) continue;
        return "ambiguous co-reference: a later '" +
               std::string(tokens[pronouns[k].token].surface(text)) + "' may refer to '" +
               who.written + "'";
      }
      for (const std::size_t k : ambiguous) {
        if (to != knowledge::Gender::kNone && pronouns[k].gender == to) continue;
        std::string others;
        for (const auto c : refs[k]) {
          others +=
              (others.empty() ? "" : " or ") +
              (c == kUnnamed ? std::string("someone unnamed") : "'" + persons[c].written + "'");
        }
        return "ambiguous co-reference: '" + std::string(tokens[pronouns[k].token].surface(text)) +
               "' may refer to " + others;
      }
      return "";
    };
    if (!who.name_tokens.empty()) {
      const auto to = who.gender == knowledge::Gender::kMale ? knowledge::Gender::kFemale
                                                             : knowledge::Gender::kMale;
      const std::size_t g = to == knowledge::Gender::kMale ? 0 : 1;
      const std::string name = text::to_lower(
          r_.first_names->replacement(who.written, who.gender, options_.seed, text_words));
      std::string why = ambiguity(knowledge::Gender::kNone);
      // The same first name with two surnames is two people ("david fincher and writer
      // david koepp"): which mentions are whose cannot be told.
      if (why.empty() && who.surnames.size() > 1) {
        why = "two people named '" + who.written + "':";
        for (const auto& surname : who.surnames) why += " " + surname;
      }
      if (!why.empty()) {
        out.dropped.push_back({MutationKind::kName, attribute_.groups[g].name, who.written,
                               text::upper_first(name), why});
        continue;
      }
      Replacements change;
      if (const auto no = descriptions_to(e, g, to, change); !no.empty()) {
        out.dropped.push_back({MutationKind::kName, attribute_.groups[g].name, who.written,
                               text::upper_first(name), no});
        continue;
      }
      for (const std::size_t t : who.name_tokens) change.emplace_back(t, name);
      for (const std::size_t t : who.titles) {
        const std::string_view title = tokens[t].surface(text);
        std::string swapped = text::transfer_case(
            without_dot(title), r_.gender_lexicon->find(without_dot(words[t]))->counterpart);
        if (title != without_dot(title)) swapped += '.';
        change.emplace_back(t, swapped);
      }
      for (auto& p : pronouns_to(to)) change.push_back(std::move(p));
      Realised r;
      r.new_word = text::transfer_case(who.written, name);
      add_replacements(r, change);
      emit(MutationKind::kName, g, 1 - g, who.written, r, fluency_of(r), "names");
      continue;
    }
    const NounInfo& info = *occ_info[who.occs[0]];
    // "Mr." before a named person's surname changes with the name.
    if (std::all_of(who.occs.begin(), who.occs.end(), [&](std::size_t a) {
          return std::any_of(persons.begin(), persons.end(), [&](const TextPerson& p) {
            return std::find(p.titles.begin(), p.titles.end(), occ_token[a]) != p.titles.end();
          });
        }))
      continue;
    // A noun that describes a person named otherwise changes with that person.
    if (const auto d = std::find_if(who.occs.begin(), who.occs.end(),
                                    [&](std::size_t a) { return described[a].has_value(); });
        d != who.occs.end()) {
      out.dropped.push_back(
          {info.neutral ? MutationKind::kActive : MutationKind::kAnalogy, "", who.written, "",
           "describes '" + std::string(tokens[described[*d]->word].surface(text)) +
               "': it takes that person's gender"});
      continue;
    }
    // Plural nouns of one gender close together may name the same people ("Two guys compete
    // ... the two males try"): one of them alone cannot change.
    auto same_people = [&]() -> std::string {
      if (info.gender == knowledge::Gender::kNone || !occ_plural[who.occs[0]]) return "";
      for (std::size_t f = 0; f < persons.size(); ++f) {
        const TextPerson& other = persons[f];
        if (f == e || other.occs.empty() || other.gender != info.gender ||
            !occ_plural[other.occs[0]])
          continue;
        for (const std::size_t a : who.occs) {
          for (const std::size_t b : other.occs) {
            const std::size_t sa = sentence_of[occ_token[a]], sb = sentence_of[occ_token[b]];
            if ((sa > sb ? sa - sb : sb - sa) <= kLookBack)
              return "may name the same people as '" + other.written + "'";
          }
        }
      }
      return "";
    };
    if (options_.analogy) {
      for (std::size_t g = 0; g < n_groups; ++g) {
        if (info.candidates[g].empty()) continue;
        auto why = ambiguity(knowledge::Gender::kNone);
        if (why.empty()) why = same_people();
        Replacements extra = pronouns_to(gender_of_group(g));
        if (why.empty()) why = descriptions_to(e, g, gender_of_group(g), extra);
        if (why.empty()) {
          const std::size_t first = who.occs[0];
          if (const Check* c =
                  first_failed(gender_swap_checks(), token_view(),
                               {occ_token[first], static_cast<bool>(occ_plural[first])},
                               options_.disabled_checks))
            why = std::string(c->name) + ": " + std::string(c->reason);
        }
        if (!why.empty()) {
          out.dropped.push_back({MutationKind::kAnalogy, attribute_.groups[g].name, who.written,
                                 info.candidates[g][info.chosen[g]].word, why});
          continue;
        }
        swap_checked_ = true;  // the gender-swap checks passed (the perturbation says so)
        propose_analogy(info, g, who.occs, extra);
        swap_checked_ = false;
      }
    }
    // "the lovers who inhabit it": the two of a couple, whom one gender for both would make
    // another couple.
    static const std::set<std::string_view> kCouples = {"lover", "sweetheart", "spouse", "newlywed",
                                                        "fiance"};
    if (options_.active && info.neutral && occ_plural[who.occs[0]] && kCouples.count(info.lemma)) {
      out.dropped.push_back({MutationKind::kActive, "", who.written, "",
                             "a couple's two: one gender for both makes another couple"});
      continue;
    }
    if (options_.active && info.neutral) {
      // The adjective goes before the first mention that takes one (every such mention with
      // all_occurrences); the pronouns follow the inserted gender.
      std::vector<std::size_t> at;
      for (const std::size_t k : who.occs) {
        if (!insertion_allowed(k)) continue;
        at.push_back(k);
        if (!options_.all_occurrences) break;
      }
      if (at.empty()) continue;
      // Before a first name, only the name's own gender ("newcomer ellen pompeo"), also
      // over nouns joined by a conjunction ("the writer and director John Sayles"), whose
      // second noun takes no adjective of its own (it is the same person).
      const std::size_t first = occ_token[at.front()];
      // A conjunction at t joins the person nouns at t ± 1 (not a surname before it:
      // "director david fincher and writer david koepp" are two people).
      auto joined = [&](std::size_t t) {
        if (t == 0 || t + 1 >= tokens.size() || sentence_start[t] || sentence_start[t + 1])
          return false;
        const auto w = tokens[t].surface(text);
        const auto person_at = [&](std::size_t k) {
          return std::binary_search(occ_token.begin(), occ_token.end(), k);
        };
        return (w == "and" || w == "or" || w == "&" || w == "/") && person_at(t - 1) &&
               person_at(t + 1);
      };
      std::size_t last = first;
      while (joined(last + 1)) last += 2;
      knowledge::Gender name_after = knowledge::Gender::kNone;
      for (const auto& [t, gender] : names) {
        if (t == last + 1) name_after = gender;
      }
      if (name_after != knowledge::Gender::kNone && first >= 2 && joined(first - 1)) {
        out.dropped.push_back({MutationKind::kActive, "", who.written, "",
                               "joined to the noun before it, which takes the adjective"});
        continue;
      }
      for (std::size_t g = 0; g < n_groups; ++g) {
        if (name_after != knowledge::Gender::kNone && gender_of_group(g) != name_after) {
          out.dropped.push_back({MutationKind::kActive, attribute_.groups[g].name, who.written,
                                 attribute_.groups[g].active,
                                 "contradicts the first name after it"});
          continue;
        }
        auto why = ambiguity(gender_of_group(g));
        Replacements extra = pronouns_to(gender_of_group(g));
        if (why.empty()) why = descriptions_to(e, g, gender_of_group(g), extra);
        if (!why.empty()) {
          out.dropped.push_back({MutationKind::kActive, attribute_.groups[g].name, who.written,
                                 attribute_.groups[g].active, why});
          continue;
        }
        propose_active(g, at, extra);
      }
    }
  }
}

// Without co-reference (the paper's method and the file attributes): each occurrence of a
// person noun, or with all_occurrences every occurrence of one noun at once, is changed alone.
void PerturbationBuilder::perturb_nouns() {
  const std::size_t n_groups = attribute_.targets;
  if (!options_.all_occurrences) {
    for (std::size_t k = 0; k < occ_token.size() && !full(); ++k) {
      const NounInfo& info = *occ_info[k];
      if (options_.analogy) {
        for (std::size_t g = 0; g < n_groups; ++g) propose_analogy(info, g, {k});
      }
      if (options_.active && info.neutral && insertion_allowed(k)) {
        for (std::size_t g = 0; g < n_groups; ++g) propose_active(g, {k});
      }
    }
  } else {
    std::vector<std::string> order;
    std::unordered_map<std::string, std::vector<std::size_t>> by_lemma;
    for (std::size_t k = 0; k < occ_token.size(); ++k) {
      auto& v = by_lemma[occ_info[k]->lemma];
      if (v.empty()) order.push_back(occ_info[k]->lemma);
      v.push_back(k);
    }
    for (const auto& lemma : order) {
      if (full()) break;
      const auto& occs = by_lemma[lemma];
      const NounInfo& info = *occ_info[occs[0]];
      if (options_.analogy) {
        for (std::size_t g = 0; g < n_groups; ++g) propose_analogy(info, g, occs);
      }
      if (options_.active && info.neutral) {
        std::vector<std::size_t> applicable;
        for (std::size_t k : occs) {
          if (insertion_allowed(k)) applicable.push_back(k);
        }
        if (!applicable.empty()) {
          for (std::size_t g = 0; g < n_groups; ++g) propose_active(g, applicable);
        }
      }
    }
  }
}

}  // namespace assay::fairness
