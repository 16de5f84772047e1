#include <algorithm>
#include <limits>
#include <set>

#include "core/utf8.h"
#include "fairness/perturbation_builder.h"
#include "text/unicode_props.h"

namespace assay::fairness {

using namespace perturbator_detail;

bool PerturbationBuilder::is_article(std::size_t i) const {
  return i < tokens.size() && (words[i] == "a" || words[i] == "an");
}

// A possessive determiner does not block ("My" is tagged nnp at a sentence's start).
bool PerturbationBuilder::possessive_determiner(std::size_t i) const {
  static constexpr std::string_view kPossessive[] = {"my",  "your",  "his", "her",
                                                     "our", "their", "its"};
  return std::find(std::begin(kPossessive), std::end(kPossessive), words[i]) !=
         std::end(kPossessive);
}

bool PerturbationBuilder::active_ok(std::size_t k) const {
  const std::size_t i = occ_token[k];
  // "a children's TV series", "a reader's digest": the article goes with the thing after
  // the possessive, which names a kind of thing, not a person.
  if (i > 0 && is_article(i - 1) && i + 1 < tokens.size() &&
      (words[i + 1] == "'s" || words[i + 1] == "'"))
    return false;
  // "ahola is simply not an actor": an adjective inside a denied noun would change what is
  // denied.
  if (i >= 2 && is_article(i - 1) && (words[i - 2] == "not" || words[i - 2] == "n't")) return false;
  return (i == 0 || !impl_->blocks_active[tagged.tags[i - 1]] || possessive_determiner(i - 1)) &&
         !occ_modifier[k];
}

TokenView PerturbationBuilder::token_view() const {
  const auto& tables = r_.tagger->tables();
  return {
      words, sentence_of,
      [this, &tables](std::size_t t) { return tables.tag_name(tagged.tags[t]); },
      [this](std::size_t t) { return upper_first(tokens[t].surface(text)); },
      [this](std::size_t t) { return std::binary_search(occ_token.begin(), occ_token.end(), t); }};
}

bool PerturbationBuilder::insertion_allowed(std::size_t k) {
  if (!active_ok(k)) return false;
  // --broad-persons: every noun the classifier accepts, wherever it stands.
  if (!options_.narrow_persons) return true;
  const Check* failed =
      first_failed(insertion_checks(), token_view(),
                   {occ_token[k], static_cast<bool>(occ_plural[k])}, options_.disabled_checks);
  if (!failed) return true;
  out.dropped.push_back({MutationKind::kActive, "", occ_word(k), "",
                         std::string(failed->name) + ": " + std::string(failed->reason)});
  return false;
}

// Builds the edits for putting `phrase` (kind analogy: a counterpart lemma; active: an
// adjective) at the given occurrences.
Realised PerturbationBuilder::realise(MutationKind kind, const std::vector<std::size_t>& occs,
                                      const std::string& phrase) const {
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
      } else if (!context->case_informative()) {
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
}

Fluency PerturbationBuilder::fluency_of(const Realised& r) const {
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
      f = p_.fluency_.rescore(base, ch.from - sen.first_token, ch.end - sen.first_token, ch.words);
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
      f = p_.fluency_.score(w).fluency();
    }
    const double ratio = f / base.fluency();
    if (ratio < worst.ratio) worst = {f, ratio};
    c = d;
  }
  return worst;
}

void PerturbationBuilder::emit(MutationKind kind, std::size_t group,
                               std::optional<std::size_t> from, std::string old_word,
                               const Realised& r, Fluency fluency, const std::string& evidence) {
  Perturbation p;
  p.kind = kind;
  p.group = attribute_.groups[group].name;
  if (from) p.from_group = attribute_.groups[*from].name;
  p.old_word = std::move(old_word);
  p.new_word = r.new_word;
  p.evidence = evidence;
  p.fluency = fluency.value;
  p.fluency_ratio = fluency.ratio;
  // The checks this kind of candidate passed on its way here.
  std::span<const Check> passed;
  if (kind == MutationKind::kActive && options_.narrow_persons) passed = insertion_checks();
  if (kind == MutationKind::kName) passed = name_checks();
  if (kind == MutationKind::kAnalogy && swap_checked_) passed = gender_swap_checks();
  for (const auto& c : passed) {
    if (!options_.disabled_checks.count(c.name)) p.checks.emplace_back(c.name);
  }
  auto edits = r.edits;
  std::sort(edits.begin(), edits.end(),
            [](const auto& a, const auto& b) { return a.begin < b.begin; });
  // Code-point offsets counted on from the last one (the edits are in text order), so that a
  // perturbation changing every mention in a long text costs the text's length once.
  std::size_t at_byte = 0, at_char = 0;
  const auto column = [&](std::size_t byte) {
    if (byte < at_byte) at_byte = at_char = 0;
    at_char += core::utf8_column(text.substr(at_byte), byte - at_byte);
    at_byte = byte;
    return at_char;
  };
  for (const auto& e : edits) {
    ChangedSpan s;
    s.begin = e.begin;
    s.end = e.end;
    s.char_begin = column(e.begin);
    s.char_end = column(e.end);
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
}

// With a limit and no fluency cap, building stops once the first `max_perturbations` are kept
// (the cap ranks every perturbation, so with it all are built and the limit cuts after).
bool PerturbationBuilder::full() const {
  if (options_.max_perturbations > 0 && kept.size() >= options_.max_perturbations) return true;
  return options_.max_per_input == 0 && kept.size() >= max_perturbations;
}

void PerturbationBuilder::add_replacements(Realised& r, const Replacements& extra) const {
  if (extra.empty()) return;
  for (const auto& [i, word] : extra) {
    r.edits.push_back(
        text::replace_token(tokens[i], text::transfer_case(tokens[i].surface(text), word)));
    r.changes.push_back({i, i + 1, {word}});
  }
  std::sort(r.changes.begin(), r.changes.end(),
            [](const LmChange& a, const LmChange& b) { return a.from < b.from; });
}

// Two words a text contrasts ("and", "or", "not", "but", "than", over commas and an article)
// that a perturbation would make the same ("the actor and the actress" → "the actress and
// the actress", "gays and lesbians" → "bisexuals and bisexuals", "British, not American" →
// "American, not American") lose the contrast: the word they would share, or "".
std::string PerturbationBuilder::contrast_conflict(const Realised& r) const {
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
}

std::string PerturbationBuilder::occ_word(std::size_t k) const {
  return std::string(tokens[occ_token[k]].surface(text));
}

void PerturbationBuilder::propose_analogy(const NounInfo& info, std::size_t g,
                                          const std::vector<std::size_t>& occs,
                                          const Replacements& extra) {
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
                           best.new_word, "two words in contrast would both read '" + same + "'"});
    return;
  }
  // The counterpart already names other people of the sentence, who keep their word
  // ("while puerile men dominate the story , the women shine": women and women).
  // Linear in the text: the unchanged occurrences as (sentence, word) once, then one look-up
  // per change.
  std::vector<char> changed(tokens.size(), 0);
  for (const auto& d : best.changes) {
    for (std::size_t u = d.from; u < d.end && u < changed.size(); ++u) changed[u] = 1;
  }
  std::set<std::pair<std::size_t, std::string_view>> unchanged;
  for (const std::size_t u : occ_token) {
    if (!changed[u]) unchanged.emplace(sentence_of[u], words[u]);
  }
  for (const auto& c : best.changes) {
    if (c.words.empty() || !unchanged.count({sentence_of[c.end - 1], c.words.back()})) continue;
    out.dropped.push_back({MutationKind::kAnalogy, attribute_.groups[g].name, occ_word(occs[0]),
                           best.new_word,
                           "'" + c.words.back() + "' already names others in its sentence"});
    return;
  }
  // A lemma has counterparts in every group but its own: the one group without is its group.
  std::optional<std::size_t> from;
  for (std::size_t h = 0; h < info.candidates.size(); ++h) {
    if (!info.candidates[h].empty()) continue;
    if (from) {
      from.reset();
      break;
    }
    from = h;
  }
  emit(MutationKind::kAnalogy, g, from, occ_word(occs[0]), best, best_fluency, list[pick].evidence);
}

void PerturbationBuilder::propose_active(std::size_t g, const std::vector<std::size_t>& occs,
                                         const Replacements& extra) {
  auto r = realise(MutationKind::kActive, occs, attribute_.groups[g].active);
  add_replacements(r, extra);
  emit(MutationKind::kActive, g, std::nullopt, occ_word(occs[0]), r, fluency_of(r), "insert");
}

}  // namespace assay::fairness
