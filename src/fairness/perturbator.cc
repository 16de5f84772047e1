#include "fairness/perturbator_internal.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <set>
#include <unordered_set>

#include "core/error.h"
#include "core/utf8.h"
#include "fairness/coreference.h"
#include "fairness/group_words.h"
#include "fairness/person_context.h"
#include "text/sentence_splitter.h"
#include "text/text_edit.h"
#include "text/unicode_props.h"
#include "vectors/similarity_search.h"

namespace assay::fairness {

using namespace perturbator_detail;

std::string_view to_string(MutationKind kind) {
  switch (kind) {
    case MutationKind::kAnalogy:
      return "analogy";
    case MutationKind::kActive:
      return "active";
    case MutationKind::kName:
      return "name";
    case MutationKind::kGroup:
      return "group";
  }
  return "analogy";
}

std::size_t PerturbationSet::count(MutationKind kind) const {
  return static_cast<std::size_t>(std::count_if(perturbations.begin(), perturbations.end(),
                                                [&](const auto& p) { return p.kind == kind; }));
}

std::string_view to_string(CounterpartChoice c) {
  switch (c) {
    case CounterpartChoice::kRank:
      return "rank";
    case CounterpartChoice::kFrequency:
      return "frequency";
    case CounterpartChoice::kMutual:
      return "mutual";
    case CounterpartChoice::kContext:
      return "context";
  }
  return "rank";
}

CounterpartChoice parse_counterpart_choice(std::string_view name) {
  if (name == "rank") return CounterpartChoice::kRank;
  if (name == "frequency") return CounterpartChoice::kFrequency;
  if (name == "mutual") return CounterpartChoice::kMutual;
  if (name == "context") return CounterpartChoice::kContext;
  throw core::UsageError("--choice must be rank, frequency, mutual or context; got '" +
                         std::string(name) + "'");
}

Perturbator::Perturbator(const PerturbatorResources& resources, SensitiveAttribute attribute,
                         PerturbatorOptions options)
    : r_(resources),
      attribute_(std::move(attribute)),
      options_(options),
      fluency_(*resources.lm),
      impl_(std::make_unique<Impl>()) {
  if (attribute_.groups.size() < 2)
    throw core::UsageError("attribute '" + attribute_.name + "' needs at least two groups");
  if (attribute_.uses_gender_finder && !r_.finder)
    throw core::UsageError("the gender attribute needs the knowledge graph's gender finder");
  const auto& tables = r_.tagger->tables();
  impl_->nn = tables.find_tag("nn").value_or(0);
  impl_->nns = tables.find_tag("nns").value_or(0);
  impl_->nnp = tables.find_tag("nnp").value_or(0);
  impl_->nnps = tables.find_tag("nnps").value_or(0);
  impl_->blocks_active.assign(tables.n_tags(), false);
  for (std::size_t t = 0; t < tables.n_tags(); ++t) {
    const auto name = tables.tag_name(static_cast<text::TagId>(t));
    // (and a participle that modifies the noun: "a british boxing promoter" gets no "boxing
    // male promoter")
    impl_->blocks_active[t] =
        name.rfind("jj", 0) == 0 || name.rfind("nn", 0) == 0 || name == "vbg";
  }
  impl_->nominal.assign(tables.n_tags(), false);
  impl_->adjective_like.assign(tables.n_tags(), false);
  for (std::size_t t = 0; t < tables.n_tags(); ++t) {
    const auto name = tables.tag_name(static_cast<text::TagId>(t));
    impl_->adjective_like[t] = name.rfind("jj", 0) == 0 || name == "cd";
    impl_->nominal[t] = impl_->adjective_like[t] || name.rfind("nn", 0) == 0;
  }
  if (r_.vectors) {
    for (const auto& g : attribute_.groups) {
      std::optional<std::size_t> row;
      for (const auto& a : g.anchors) {
        if ((row = r_.vectors->find(a))) break;
      }
      impl_->anchor_rows.push_back(row);
    }
  }
  if (!attribute_.uses_gender_finder) {
    impl_->group_words = std::make_unique<GroupWords>(attribute_, *r_.inflector, tables);
    for (std::size_t row = 0; row < attribute_.associated.size(); ++row) {
      for (const auto& w : attribute_.associated[row]) {
        if (w.empty()) continue;
        impl_->associated_forms.try_emplace(w, row, false);
        impl_->associated_forms.try_emplace(r_.inflector->pluralize(w), row, true);
      }
    }
    const auto& graph = *r_.graph;
    for (std::size_t g = 0; g < attribute_.groups.size(); ++g) {
      std::vector<std::string> words = {attribute_.groups[g].name,
                                        text::to_lower(attribute_.groups[g].active)};
      for (const auto& row : attribute_.members) words.push_back(row[g]);
      for (const auto& w : words) {
        if (w.empty()) continue;
        for (const auto n : graph.noun_senses(w)) impl_->group_nodes.insert(n);
      }
    }
  }
}

Perturbator::~Perturbator() = default;

namespace {

// A change of the language model's words: words [from, end) of the text replaced by `words`.
struct LmChange {
  std::size_t from = 0, end = 0;
  std::vector<std::string> words;
};

// One proposed perturbation realised: the text edits and the word changes.
struct Realised {
  std::vector<text::TextEdit> edits;
  std::vector<LmChange> changes;  // in text order
  std::string new_word;           // as written at the first occurrence
};

struct Fluency {
  double value = 0;  // of the changed sentence (the least fluent one when several changed)
  double ratio = 0;  // to the same sentence of the original
};

}  // namespace

PerturbationSet Perturbator::perturb(std::string_view text) const {
  return perturb(text, std::numeric_limits<std::size_t>::max());
}

PerturbationSet Perturbator::perturb(std::string_view text, std::size_t max_perturbations) const {
  PerturbationSet out;
  const auto tagged = r_.tagger->tag_text(text);
  const auto& tokens = tagged.tokens;
  std::vector<std::string> words;
  words.reserve(tokens.size());
  for (const auto& t : tokens) words.push_back(text::to_lower(t.text));
  // Fluency is judged per sentence (Ge et al. score sentences; over a whole review one changed
  // word would barely move it). The text's own fluency pools its sentences.
  const auto sentences = text::split_sentences(tokens);
  std::vector<ScoredWords> sentence_scores;
  std::vector<std::size_t> sentence_of(tokens.size(), 0);
  std::vector<bool> sentence_start(tokens.size(), false);
  {
    double log_prob = 0;
    std::size_t n = 0;
    for (std::size_t si = 0; si < sentences.size(); ++si) {
      const auto& sen = sentences[si];
      sentence_start[sen.first_token] = true;
      for (std::size_t i = sen.first_token; i < sen.end_token; ++i) sentence_of[i] = si;
      sentence_scores.push_back(fluency_.score(
          std::vector<std::string>(words.begin() + static_cast<long>(sen.first_token),
                                   words.begin() + static_cast<long>(sen.end_token))));
      log_prob += sentence_scores.back().log_prob;
      n += sentence_scores.back().n_tokens();
    }
    out.fluency = n ? 1.0 / (1.0 + (-log_prob / static_cast<double>(n)))
                    : std::numeric_limits<double>::quiet_NaN();
  }
  if (tokens.empty()) return out;

  // Person nouns, where they name a person.
  const PersonContext context(text, tagged, r_.tagger->tables(), sentence_start);
  auto persons_found = person_nouns(text, tagged, sentence_start, context, out.dropped);
  // Group words (file attributes), where they name people; a person noun inside one ("a
  // teenager" of the age file's nouns) is left to it.
  std::vector<GroupMention> group_mentions;
  if (impl_->group_words && !impl_->group_words->empty()) {
    GroupWordContext gc;
    gc.words = &words;
    gc.sentence_of = &sentence_of;
    gc.case_informative = context.case_informative();
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
      if (person_lemma(word, plural)) return true;
      if (!r_.graph->noun_senses(word).empty() || word.find('-') != std::string::npos) return false;
      for (std::size_t k = 3; k + 3 <= word.size(); ++k) {
        if (person_lemma(word.substr(k), plural)) return true;
      }
      return false;
    };
    std::vector<RefusedGroupWord> refused;
    group_mentions = impl_->group_words->find(text, tagged, gc, refused);
    for (const auto& r : refused) {
      out.dropped.push_back(
          {MutationKind::kGroup, "",
           std::string(
               text.substr(tokens[r.first].begin, tokens[r.end - 1].end - tokens[r.first].begin)),
           "", r.reason});
    }
    PersonNouns kept_nouns;
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
    PersonNouns heads;
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
        return !noun_info(key, words[j], false).person;
      };
      if (!persons_found.info[k]->neutral && !adjective_too(words[t]) &&
          (persons_found.plural[k] ? plural_modifier()
                                   : modifies_next_noun(tagged, words, sentence_of, t, false))) {
        out.dropped.push_back({MutationKind::kAnalogy, "", std::string(tokens[t].surface(text)),
                               "", "not a person here: modifies the noun '" + words[t + 1] + "'"});
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
  struct MemberAt {
    std::size_t token, row;
    bool plural;
    const std::vector<std::vector<std::string>>* rows;  // members or associated
  };
  std::vector<MemberAt> members_at;
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
    persons_found = PersonNouns{};
  }
  const std::vector<std::size_t>& occ_token = persons_found.token;
  const std::vector<const NounInfo*>& occ_info = persons_found.info;
  const std::vector<bool>& occ_plural = persons_found.plural;
  const bool coref = attribute_.uses_gender_finder && options_.coreference;
  std::vector<std::pair<std::size_t, knowledge::Gender>> names;  // token, gender
  if ((attribute_.uses_gender_finder && r_.first_names) || attribute_.has_names()) {
    std::set<std::size_t> nouns(occ_token.begin(), occ_token.end());
    for (const auto& n : name_tokens(text, tagged, sentence_start, context, out.dropped)) {
      if (!nouns.count(n.first)) names.push_back(n);
    }
  }
  out.n_names = names.size();
  if (occ_token.empty() && names.empty() && group_mentions.empty()) return out;

  std::set<std::string> noted;  // lemmas whose noun-level drops are already listed
  for (const auto* info : occ_info) {
    if (noted.insert(info->lemma).second)
      out.dropped.insert(out.dropped.end(), info->dropped.begin(), info->dropped.end());
  }

  auto is_article = [&](std::size_t i) {
    return i < tokens.size() && (words[i] == "a" || words[i] == "an");
  };
  std::vector<bool> occ_modifier(occ_token.size(), false);
  if (options_.active && !options_.active_noun_modifiers) {
    for (std::size_t k = 0; k < occ_token.size(); ++k) {
      if (occ_info[k]->neutral)
        occ_modifier[k] =
            modifies_next_noun(tagged, words, sentence_of, occ_token[k], occ_plural[k]);
    }
  }
  // A possessive determiner does not block ("My" is tagged nnp at a sentence's start).
  auto possessive_determiner = [&](std::size_t i) {
    static constexpr std::string_view kPossessive[] = {"my",  "your",  "his", "her",
                                                       "our", "their", "its"};
    return std::find(std::begin(kPossessive), std::end(kPossessive), words[i]) !=
           std::end(kPossessive);
  };
  auto active_ok = [&](std::size_t k) {
    const std::size_t i = occ_token[k];
    // "a children's TV series", "a reader's digest": the article goes with the thing after
    // the possessive, which names a kind of thing, not a person.
    if (i > 0 && is_article(i - 1) && i + 1 < tokens.size() &&
        (words[i + 1] == "'s" || words[i + 1] == "'"))
      return false;
    return (i == 0 || !impl_->blocks_active[tagged.tags[i - 1]] || possessive_determiner(i - 1)) &&
           !occ_modifier[k];
  };

  // Builds the edits for putting `phrase` (kind analogy: a counterpart lemma; active: an
  // adjective) at the given occurrences.
  auto realise = [&](MutationKind kind, const std::vector<std::size_t>& occs,
                     const std::string& phrase) {
    Realised r;
    for (std::size_t k : occs) {
      const std::size_t i = occ_token[k];
      const auto& tok = tokens[i];
      const std::string surface(tok.surface(text));
      std::string written;
      std::string first_word;
      std::vector<std::string> lm_words;
      if (kind == MutationKind::kAnalogy) {
        std::string inflected = occ_plural[k] ? r_.inflector->pluralize(phrase) : phrase;
        written = text::transfer_case(surface, inflected);
        if (surface != without_dot(surface)) written += '.';  // "Mr." -> "Ms."
        first_word = written;
        lm_words = lower_words(written);
        if (r.new_word.empty()) r.new_word = written;
      } else {
        std::string adj = phrase;
        std::string noun = surface;
        if (all_upper(surface) && surface.size() > 1) {
          adj = to_upper_ascii(adj);
        } else if (upper_first(surface)) {
          adj = text::upper_first(adj);
          if (sentence_start[i]) noun = text::lower_first(noun);
        } else if (!context.case_informative()) {
          adj = text::to_lower(adj);  // lower-cased text: "the asian filmmakers"
        }
        written = adj + " " + noun;
        first_word = adj;
        lm_words = lower_words(adj);
        lm_words.push_back(text::to_lower(noun));
        if (r.new_word.empty()) r.new_word = adj;
      }
      std::size_t lm_from = i;
      if (i > 0 && is_article(i - 1)) {
        const std::string want(text::indefinite_article(first_word));
        if (want != words[i - 1]) {
          const auto& art = tokens[i - 1];
          r.edits.push_back(text::replace_token(art, text::transfer_case(art.surface(text), want)));
          lm_words.insert(lm_words.begin(), want);
          lm_from = i - 1;
        }
      }
      r.edits.push_back(text::replace_token(tok, written));
      r.changes.push_back({lm_from, i + 1, std::move(lm_words)});
    }
    return r;
  };
  auto fluency_of = [&](const Realised& r) {
    Fluency worst{0, std::numeric_limits<double>::infinity()};
    std::size_t c = 0;
    while (c < r.changes.size()) {
      const std::size_t si = sentence_of[r.changes[c].end - 1];
      std::size_t d = c + 1;
      while (d < r.changes.size() && sentence_of[r.changes[d].end - 1] == si) ++d;
      const auto& sen = sentences[si];
      const auto& base = sentence_scores[si];
      double f;
      if (d - c == 1) {
        const auto& ch = r.changes[c];
        f = fluency_.rescore(base, ch.from - sen.first_token, ch.end - sen.first_token, ch.words);
      } else {
        std::vector<std::string> w;
        std::size_t next = sen.first_token;
        for (std::size_t k = c; k < d; ++k) {
          const auto& ch = r.changes[k];
          w.insert(w.end(), words.begin() + static_cast<long>(next),
                   words.begin() + static_cast<long>(ch.from));
          w.insert(w.end(), ch.words.begin(), ch.words.end());
          next = ch.end;
        }
        w.insert(w.end(), words.begin() + static_cast<long>(next),
                 words.begin() + static_cast<long>(sen.end_token));
        f = fluency_.score(w).fluency();
      }
      const double ratio = f / base.fluency();
      if (ratio < worst.ratio) worst = {f, ratio};
      c = d;
    }
    return worst;
  };

  struct Kept {
    Perturbation p;
    std::size_t order = 0;
  };
  std::vector<Kept> kept;
  // With a limit and no fluency cap, building stops once the first `max_perturbations` are kept
  // (the cap ranks every perturbation, so with it all are built and the limit cuts after).
  const auto full = [&] { return options_.max_per_input == 0 && kept.size() >= max_perturbations; };
  std::set<std::string> texts;
  std::set<std::string> noted_choice;
  auto emit = [&](MutationKind kind, std::size_t group, std::string old_word, const Realised& r,
                  Fluency fluency, const std::string& evidence) {
    Perturbation p;
    p.kind = kind;
    p.group = attribute_.groups[group].name;
    p.old_word = std::move(old_word);
    p.new_word = r.new_word;
    p.evidence = evidence;
    p.fluency = fluency.value;
    p.fluency_ratio = fluency.ratio;
    auto edits = r.edits;
    std::sort(edits.begin(), edits.end(),
              [](const auto& a, const auto& b) { return a.begin < b.begin; });
    for (const auto& e : edits) {
      ChangedSpan s;
      s.begin = e.begin;
      s.end = e.end;
      s.char_begin = core::utf8_column(text, e.begin);
      s.char_end = core::utf8_column(text, e.end);
      s.old_text = std::string(text.substr(e.begin, e.end - e.begin));
      s.new_text = e.replacement;
      p.spans.push_back(std::move(s));
    }
    if (full()) return;
    p.text = text::apply_edits(text, std::move(edits));
    if (!texts.insert(p.text).second) return;
    if (options_.fluency_ratio > 0 && !(fluency.ratio >= options_.fluency_ratio)) {
      out.dropped.push_back({kind, p.group, p.old_word, p.new_word,
                             "fluency " + fmt(fluency.value) + " < " + fmt(options_.fluency_ratio) +
                                 " x " + fmt(fluency.value / fluency.ratio) +
                                 " of the original sentence"});
      return;
    }
    kept.push_back({std::move(p), kept.size()});
  };

  // Words that change with a perturbation (pronouns, names): token → word, lower case, the
  // token's case transferred.
  using Replacements = std::vector<std::pair<std::size_t, std::string>>;
  auto add_replacements = [&](Realised& r, const Replacements& extra) {
    if (extra.empty()) return;
    for (const auto& [i, word] : extra) {
      r.edits.push_back(
          text::replace_token(tokens[i], text::transfer_case(tokens[i].surface(text), word)));
      r.changes.push_back({i, i + 1, {word}});
    }
    std::sort(r.changes.begin(), r.changes.end(),
              [](const LmChange& a, const LmChange& b) { return a.from < b.from; });
  };
  // Two words a text contrasts ("and", "or", "not", "but", "than", over commas and an article)
  // that a perturbation would make the same ("the actor and the actress" → "the actress and
  // the actress", "gays and lesbians" → "bisexuals and bisexuals", "British, not American" →
  // "American, not American") lose the contrast: the word they would share, or "".
  auto contrast_conflict = [&](const Realised& r) -> std::string {
    static constexpr std::string_view kContrast[] = {"and", "or",   "&",  "not",    "nor",
                                                     "but", "than", "vs", "versus", "n't"};
    auto connective = [&](std::size_t u) {
      return std::find(std::begin(kContrast), std::end(kContrast), words[u]) != std::end(kContrast);
    };
    auto skippable = [&](std::size_t u) {
      return connective(u) || words[u] == "," || words[u] == "the" || is_article(u);
    };
    // The last word a token reads after the perturbation.
    auto word_after = [&](std::size_t u) -> std::string {
      for (const auto& c : r.changes) {
        if (u >= c.from && u < c.end) return c.words.empty() ? "" : c.words.back();
      }
      return words[u];
    };
    for (const auto& c : r.changes) {
      if (c.words.empty()) continue;
      const std::string& now = c.words.back();
      const std::size_t si = sentence_of[c.end - 1];
      // To the right.
      std::size_t u = c.end;
      bool contrast = false;
      while (u < tokens.size() && u < c.end + 4 && sentence_of[u] == si && skippable(u)) {
        contrast |= connective(u);
        ++u;
      }
      if (contrast && u < tokens.size() && sentence_of[u] == si && word_after(u) == now) return now;
      // To the left (from before a repaired article).
      std::size_t v = c.from;
      contrast = false;
      while (v > 0 && v + 4 > c.from && sentence_of[v - 1] == si && skippable(v - 1)) {
        contrast |= connective(v - 1);
        --v;
      }
      if (contrast && v > 0 && sentence_of[v - 1] == si && word_after(v - 1) == now) return now;
    }
    return "";
  };
  auto occ_word = [&](std::size_t k) { return std::string(tokens[occ_token[k]].surface(text)); };
  auto propose_analogy = [&](const NounInfo& info, std::size_t g,
                             const std::vector<std::size_t>& occs, const Replacements& extra = {}) {
    const auto& list = info.candidates[g];
    if (list.empty()) return;
    std::size_t pick = info.chosen[g];
    Realised best;
    Fluency best_fluency;
    if (options_.choice == CounterpartChoice::kContext && list.size() > 1) {
      std::vector<double> f(list.size());
      for (std::size_t c = 0; c < list.size(); ++c) {
        auto r = realise(MutationKind::kAnalogy, occs, list[c].word);
        add_replacements(r, extra);
        const Fluency fc = fluency_of(r);
        f[c] = fc.ratio;
        if (c == 0 || f[c] > f[pick]) {
          pick = c;
          best = std::move(r);
          best_fluency = fc;
        }
      }
    } else {
      best = realise(MutationKind::kAnalogy, occs, list[pick].word);
      add_replacements(best, extra);
      best_fluency = fluency_of(best);
    }
    if (list.size() > 1 && noted_choice.insert(info.lemma + "\t" + std::to_string(g)).second) {
      for (std::size_t c = 0; c < list.size(); ++c) {
        if (c == pick) continue;
        out.dropped.push_back({MutationKind::kAnalogy, attribute_.groups[g].name, info.lemma,
                               list[c].word,
                               "not chosen: '" + list[pick].word + "' preferred by " +
                                   std::string(to_string(options_.choice))});
      }
    }
    if (const auto same = contrast_conflict(best); !same.empty()) {
      out.dropped.push_back({MutationKind::kAnalogy, attribute_.groups[g].name, occ_word(occs[0]),
                             best.new_word,
                             "two words in contrast would both read '" + same + "'"});
      return;
    }
    // The counterpart already names other people of the sentence, who keep their word
    // ("while puerile men dominate the story , the women shine": women and women).
    for (const auto& c : best.changes) {
      if (c.words.empty()) continue;
      const std::size_t si = sentence_of[c.end - 1];
      for (const std::size_t u : occ_token) {
        const bool changed = std::any_of(best.changes.begin(), best.changes.end(),
                                         [&](const LmChange& d) { return u >= d.from && u < d.end; });
        if (sentence_of[u] != si || changed || words[u] != c.words.back()) continue;
        out.dropped.push_back({MutationKind::kAnalogy, attribute_.groups[g].name,
                               occ_word(occs[0]), best.new_word,
                               "'" + words[u] + "' already names others in its sentence"});
        return;
      }
    }
    emit(MutationKind::kAnalogy, g, occ_word(occs[0]), best, best_fluency, list[pick].evidence);
  };
  auto propose_active = [&](std::size_t g, const std::vector<std::size_t>& occs,
                            const Replacements& extra = {}) {
    auto r = realise(MutationKind::kActive, occs, attribute_.groups[g].active);
    add_replacements(r, extra);
    emit(MutationKind::kActive, g, occ_word(occs[0]), r, fluency_of(r), "insert");
  };

  const std::size_t n_groups = attribute_.groups.size();
  // File attributes with `names` rows: the name of group `to` and the same gender that replaces
  // the name at token t ("" when the group has none), picked by hash(name, seed) as gender's
  // names are.
  const std::set<std::string> text_words(words.begin(), words.end());
  auto group_name = [&](std::size_t t, std::size_t to) -> std::string {
    const auto hit = attribute_.find_name(tokens[t].surface(text));
    if (!hit) return "";
    const auto& pool =
        hit->female ? attribute_.groups[to].female_names : attribute_.groups[to].male_names;
    if (pool.empty()) return "";
    return pick_name(pool, tokens[t].surface(text), options_.seed, text_words);
  };
  // Group words: every mention of a group in the text moves to each other group at once
  // ("Muslims … a Muslim family" → "Jews … a Jewish family"), a/an repaired; the mentions of
  // the other group, if the text has any, move the other way ("the black nurse and the white
  // doctor" → "the white nurse and the black doctor").
  for (std::size_t s = 0; s < n_groups && !full(); ++s) {
    const GroupMention* first_of_s = nullptr;
    for (const auto& m : group_mentions) {
      if (m.group == s && !first_of_s) first_of_s = &m;
    }
    if (!first_of_s) continue;
    for (std::size_t g = 0; g < n_groups; ++g) {
      if (g == s) continue;
      Realised r;
      for (const GroupMention& mention : group_mentions) {
        if (mention.group != s && mention.group != g) continue;
        const GroupMention* m = &mention;
        const std::size_t to = m->group == s ? g : s;
        const std::size_t i = m->first;
        const std::size_t begin = tokens[i].begin, end = tokens[m->end - 1].end;
        const std::string_view surface = text.substr(begin, end - begin);
        std::string written = impl_->group_words->replacement(*m, to);
        // The spelling the file gives, the case of the text kept: all capitals, a capital
        // that the file's word lacks ("Black" → "White"; "Asian" → "white"), a sentence's
        // first word, lower-cased text ("the asian filmmakers").
        const std::string own = impl_->group_words->replacement(*m, m->group);
        if (all_upper(surface) && surface.size() > 1) {
          written = to_upper_ascii(written);
        } else if (upper_first(surface) && (sentence_start[i] || !upper_first(own))) {
          written = text::upper_first(written);
        } else if (!upper_first(surface) && !context.case_informative()) {
          written = text::to_lower(written);
        }
        if (m == first_of_s) r.new_word = written;
        std::vector<std::string> lm_words = lower_words(written);
        std::size_t lm_from = i;
        if (i > 0 && is_article(i - 1)) {
          const std::string want(text::indefinite_article(written));
          if (want != words[i - 1]) {
            const auto& art = tokens[i - 1];
            r.edits.push_back(
                text::replace_token(art, text::transfer_case(art.surface(text), want)));
            lm_words.insert(lm_words.begin(), want);
            lm_from = i - 1;
          }
        }
        r.edits.push_back(text::TextEdit{begin, end, written});
        r.changes.push_back({lm_from, m->end, std::move(lm_words)});
      }
      // First names of either group move with it ("Jamal, a black teacher" → "Greg, a white
      // teacher"); a group without names of that gender keeps the name.
      for (const auto& [t, gender] : names) {
        const auto hit = attribute_.find_name(tokens[t].surface(text));
        if (!hit || (hit->group != s && hit->group != g)) continue;
        const std::string name = group_name(t, hit->group == s ? g : s);
        if (name.empty()) continue;
        r.edits.push_back(text::replace_token(
            tokens[t], text::transfer_case(tokens[t].surface(text), text::to_lower(name))));
        r.changes.push_back({t, t + 1, {text::to_lower(name)}});
      }
      for (const MemberAt& at : members_at) {
        const auto& row = (*at.rows)[at.row];
        const std::string& word = row[g];
        const std::size_t t = at.token;
        if (word.empty() || text::to_lower(tokens[t].surface(text)) ==
                                (at.plural ? r_.inflector->pluralize(word) : word))
          continue;
        const std::string written = text::transfer_case(
            tokens[t].surface(text), at.plural ? r_.inflector->pluralize(word) : word);
        std::size_t lm_from = t;
        std::vector<std::string> lm_words = lower_words(written);
        const bool article_done =
            t > 0 && std::any_of(r.edits.begin(), r.edits.end(), [&](const text::TextEdit& e) {
              return e.begin == tokens[t - 1].begin;
            });
        if (t > 0 && is_article(t - 1) && !article_done) {
          const std::string want(text::indefinite_article(written));
          if (want != words[t - 1]) {
            r.edits.push_back(text::replace_token(
                tokens[t - 1], text::transfer_case(tokens[t - 1].surface(text), want)));
            lm_words.insert(lm_words.begin(), want);
            lm_from = t - 1;
          }
        }
        r.edits.push_back(text::replace_token(tokens[t], written));
        r.changes.push_back({lm_from, t + 1, std::move(lm_words)});
      }
      std::sort(r.changes.begin(), r.changes.end(),
                [](const LmChange& a, const LmChange& b) { return a.from < b.from; });
      if (const auto same = contrast_conflict(r); !same.empty()) {
        out.dropped.push_back({MutationKind::kGroup, attribute_.groups[g].name,
                               std::string(text.substr(tokens[first_of_s->first].begin,
                                                       tokens[first_of_s->end - 1].end -
                                                           tokens[first_of_s->first].begin)),
                               r.new_word, "two words in contrast would both read '" + same + "'"});
        continue;
      }
      const GroupMention& m0 = *first_of_s;
      emit(MutationKind::kGroup, g,
           std::string(text.substr(tokens[m0.first].begin,
                                   tokens[m0.end - 1].end - tokens[m0.first].begin)),
           r, fluency_of(r), "group");
    }
  }
  // File attributes: a first name of a group in a text that names no group becomes a name of
  // each other group that has names of the same gender, in every mention.
  if (!attribute_.uses_gender_finder && group_mentions.empty() && !names.empty()) {
    std::map<std::string, std::vector<std::size_t>> mentions_of;  // lower-case name → tokens
    std::vector<std::string> order;
    for (const auto& [t, gender] : names) {
      auto& v = mentions_of[words[t]];
      if (v.empty()) order.push_back(words[t]);
      v.push_back(t);
    }
    for (const auto& key : order) {
      const auto& at = mentions_of[key];
      const auto hit = attribute_.find_name(tokens[at[0]].surface(text));
      for (std::size_t g = 0; g < n_groups && !full(); ++g) {
        if (g == hit->group) continue;
        const std::string name = group_name(at[0], g);
        if (name.empty()) continue;
        Replacements change;
        for (const std::size_t t : at) change.emplace_back(t, text::to_lower(name));
        Realised r;
        r.new_word = text::transfer_case(tokens[at[0]].surface(text), text::to_lower(name));
        add_replacements(r, change);
        emit(MutationKind::kName, g, std::string(tokens[at[0]].surface(text)), r, fluency_of(r),
             "names");
      }
    }
  }
  if (coref) {
    // Persons: every mention of the same noun (and number) is one, so is every mention of
    // the same first name.
    struct Person {
      std::vector<std::size_t> occs;         // person-noun occurrences (indices of occ_*)
      std::vector<std::size_t> name_tokens;  // or the tokens of a first name
      std::string written;                   // the first mention as written
      std::set<std::string> surnames;        // a first name's, lower case
      knowledge::Gender gender = knowledge::Gender::kNone;
    };
    std::vector<Person> persons;
    std::map<std::string, std::size_t> person_of;
    std::vector<PersonMention> mentions;
    // Nouns that describe a person another word names (coreference.h: "she was a … woman",
    // "John Chrichton, an astronaut", "actor oliver martinez"); described[a]: the token of the
    // word occurrence a describes.
    std::map<std::size_t, std::size_t> name_at;  // a first name's token, or its surname's → name
    for (const auto& [t, gender] : names) {
      name_at[t] = t;
      if (name_follows(text, tagged, sentence_start, context, t, false)) name_at[t + 1] = t;
    }
    std::vector<std::optional<std::size_t>> described;
    {
      const auto& tables = r_.tagger->tables();
      DescriptionContext dc{words, sentence_of, name_at, {}, {}, {}, {}};
      dc.tag = [&](std::size_t t) { return tables.tag_name(tagged.tags[t]); };
      dc.capitalised = [&](std::size_t t) { return upper_first(tokens[t].surface(text)); };
      dc.proper_noun = [&](std::size_t t) {
        return context.case_informative() && !sentence_start[t] &&
               upper_first(tokens[t].surface(text)) &&
               (tagged.tags[t] == impl_->nnp || tagged.tags[t] == impl_->nnps);
      };
      // A first name the rules do not take for a person's name here ("evil uncle ralph", a
      // character).
      dc.unnamed_first_name = [&](std::size_t t) {
        return r_.first_names && impl_->nominal[tagged.tags[t]] &&
               r_.first_names->gender_of(tokens[t].surface(text)) != knowledge::Gender::kNone;
      };
      std::vector<DescribingNoun> nouns;
      for (std::size_t a = 0; a < occ_token.size(); ++a)
        nouns.push_back({occ_token[a], static_cast<bool>(occ_plural[a]), !occ_info[a]->neutral});
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
        // bonding"; the rule of ActiveMutate) is no antecedent of a pronoun.
        const std::size_t t = occ_token[a];
        if (!modifies_next_noun(tagged, words, sentence_of, t, occ_plural[a]) && !described[a])
          mentions.push_back({t, e, info.gender, static_cast<bool>(occ_plural[a])});
        ++a;
      } else {
        const auto [t, gender] = names[b];
        const auto e = person("\tname\t" + words[t], t);
        persons[e].name_tokens.push_back(t);
        if (name_follows(text, tagged, sentence_start, context, t, false))
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
            taken.count(t) || (context.case_informative() && !upper_first(tokens[t].surface(text))))
          continue;
        mentions.push_back({t, it->second, persons[it->second].gender, false});
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
        const bool name_like = context.case_informative()
                                   ? upper_first(tokens[t].surface(text)) && !sentence_start[t]
                                   : reads_as_name(words[t]);
        if (!name_like) continue;
        persons.emplace_back();
        persons.back().written = std::string(tokens[t].surface(text));
        mentions.push_back({t, persons.size() - 1, knowledge::Gender::kNone, false});
      }
      if (mentions.size() != before) {
        std::sort(mentions.begin(), mentions.end(),
                  [](const PersonMention& a, const PersonMention& b) { return a.token < b.token; });
      }
    }
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
          "when",   "while", "after", "before", "if",    "although", "though", "because",
          "since",  "as",    "once",  "until",  "unless", "whenever", "whether"};
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
        nominal =
            is_noun_tag(i + 1) || (in_sentence(i, i + 2) && impl_->nominal[tagged.tags[i + 2]]);
      }
      auto p = classify_pronoun(words[i], i, nominal);
      if (!p) continue;
      if (p->form == PronounForm::kIndependent && i >= 2 && words[i - 1] == "of")
        p->not_token = i - 2;  // "a friend of his" is not the friend
      p->clause_end = opening_clause_end(i);
      pronouns.push_back(*p);
    }
    const auto refs = resolve_pronouns(mentions, pronouns, sentence_of);
    auto gender_of_group = [](std::size_t g) {
      return g == 0 ? knowledge::Gender::kMale : knowledge::Gender::kFemale;
    };
    constexpr std::size_t kNobody = std::numeric_limits<std::size_t>::max();
    std::map<std::size_t, std::size_t> pronoun_at;  // token → index in pronouns
    for (std::size_t k = 0; k < pronouns.size(); ++k) pronoun_at[pronouns[k].token] = k;
    // The person whom the word a described noun describes refers to (kNobody: undecided).
    auto described_person = [&](std::size_t a) {
      const std::size_t subject = *described[a];
      if (const auto it = pronoun_at.find(subject); it != pronoun_at.end())
        return refs[it->second].size() == 1 ? refs[it->second][0] : kNobody;
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
        if (info.candidates[g].empty())
          return "'" + occ_word(a) + "' describes '" + persons[e].written +
                 "' and has no counterpart";
        const std::string& word = info.candidates[g][info.chosen[g]].word;
        change.emplace_back(t, word);
        if (t > 0 && is_article(t - 1)) {
          const std::string want(text::indefinite_article(word));
          if (want != words[t - 1]) change.emplace_back(t - 1, want);
        }
      }
      return "";
    };
    for (std::size_t e = 0; e < persons.size() && !full(); ++e) {
      const Person& who = persons[e];
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
        for (const std::size_t k : ambiguous) {
          if (to != knowledge::Gender::kNone && pronouns[k].gender == to) continue;
          std::string others;
          for (const auto c : refs[k]) {
            others += (others.empty() ? "" : " or ") +
                      (c == kUnnamed ? std::string("someone unnamed")
                                     : "'" + persons[c].written + "'");
          }
          return "ambiguous co-reference: '" +
                 std::string(tokens[pronouns[k].token].surface(text)) + "' may refer to " + others;
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
        for (auto& p : pronouns_to(to)) change.push_back(std::move(p));
        Realised r;
        r.new_word = text::transfer_case(who.written, name);
        add_replacements(r, change);
        emit(MutationKind::kName, g, who.written, r, fluency_of(r), "names");
        continue;
      }
      const NounInfo& info = *occ_info[who.occs[0]];
      // A noun that describes a person named otherwise changes with that person.
      if (const auto d = std::find_if(who.occs.begin(), who.occs.end(),
                                      [&](std::size_t a) { return described[a].has_value(); });
          d != who.occs.end()) {
        out.dropped.push_back(
            {info.neutral ? MutationKind::kActive : MutationKind::kAnalogy, "", who.written, "",
             "describes '" + std::string(tokens[*described[*d]].surface(text)) +
                 "': it takes that person's gender"});
        continue;
      }
      if (options_.analogy) {
        for (std::size_t g = 0; g < n_groups; ++g) {
          if (info.candidates[g].empty()) continue;
          auto why = ambiguity(knowledge::Gender::kNone);
          Replacements extra = pronouns_to(gender_of_group(g));
          if (why.empty()) why = descriptions_to(e, g, gender_of_group(g), extra);
          if (!why.empty()) {
            out.dropped.push_back({MutationKind::kAnalogy, attribute_.groups[g].name, who.written,
                                   info.candidates[g][info.chosen[g]].word, why});
            continue;
          }
          propose_analogy(info, g, who.occs, extra);
        }
      }
      if (options_.active && info.neutral) {
        // The adjective goes before the first mention that takes one (every such mention with
        // all_occurrences); the pronouns follow the inserted gender.
        std::vector<std::size_t> at;
        for (const std::size_t k : who.occs) {
          if (!active_ok(k)) continue;
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
  } else if (!options_.all_occurrences) {
    for (std::size_t k = 0; k < occ_token.size() && !full(); ++k) {
      const NounInfo& info = *occ_info[k];
      if (options_.analogy) {
        for (std::size_t g = 0; g < n_groups; ++g) propose_analogy(info, g, {k});
      }
      if (options_.active && info.neutral && active_ok(k)) {
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
          if (active_ok(k)) applicable.push_back(k);
        }
        if (!applicable.empty()) {
          for (std::size_t g = 0; g < n_groups; ++g) propose_active(g, applicable);
        }
      }
    }
  }

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
  return out;
}

}  // namespace assay::fairness
