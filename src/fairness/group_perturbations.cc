#include <algorithm>
#include <map>

#include "fairness/first_names.h"
#include "fairness/perturbation_builder.h"
#include "text/unicode_props.h"

namespace assay::fairness {

using namespace perturbator_detail;

// File attributes with `names` rows: picked by hash(name, seed) as gender's names are, avoiding
// the text's own words.
std::string PerturbationBuilder::group_name(std::size_t t, std::size_t to) const {
  const auto hit = attribute_.find_name(tokens[t].surface(text));
  if (!hit) return "";
  const auto& pool =
      hit->female ? attribute_.groups[to].female_names : attribute_.groups[to].male_names;
  if (pool.empty()) return "";
  return pick_name(pool, tokens[t].surface(text), options_.seed, text_words);
}

// Group words: every mention of a group in the text moves to each other group at once
// ("Muslims … a Muslim family" → "Jews … a Jewish family"), a/an repaired; the mentions of
// the other group, if the text has any, move the other way ("the black nurse and the white
// doctor" → "the white nurse and the black doctor").
void PerturbationBuilder::perturb_groups() {
  // From every group the text names (source groups too), to every target.
  for (std::size_t s = 0; s < attribute_.groups.size() && !full(); ++s) {
    const GroupMention* first_of_s = nullptr;
    for (const auto& m : group_mentions) {
      if (m.group == s && !first_of_s) first_of_s = &m;
    }
    if (!first_of_s) continue;
    for (std::size_t g = 0; g < attribute_.targets; ++g) {
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
        } else if (!upper_first(surface) && !context->case_informative()) {
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
      // An associated word of a group the text names moves with it: where the other group has
      // no word of that row, the text cannot become one about that group ("if jews were
      // catholics, this would be catechism"; "Christians read the bible" has no Hindu form).
      // (Member nouns may stay: age's children are young whatever the text's group words.)
      const bool g_named = std::any_of(group_mentions.begin(), group_mentions.end(),
                                       [&](const GroupMention& m) { return m.group == g; });
      // Whether the member or associated word at `at` is group `h`'s word of its row.
      const auto of_group = [&](const MemberAt& at, std::size_t h) {
        const std::string& w = (*at.rows)[at.row][h];
        return !w.empty() && (words[at.token] == w ||
                              (at.plural && words[at.token] == r_.inflector->pluralize(w)));
      };
      std::string stranded, lacking;
      for (const MemberAt& at : members_at) {
        if (at.rows != &attribute_.associated) continue;
        const auto& row = (*at.rows)[at.row];
        for (const std::size_t from : {s, g}) {
          if (from == g && !g_named) continue;
          const std::size_t to = from == s ? g : s;
          if (of_group(at, from) && row[to].empty() && stranded.empty())
            stranded = words[at.token], lacking = attribute_.groups[to].name;
        }
      }
      if (!stranded.empty()) {
        out.dropped.push_back(
            {MutationKind::kGroup, attribute_.groups[g].name,
             std::string(
                 text.substr(tokens[first_of_s->first].begin,
                             tokens[first_of_s->end - 1].end - tokens[first_of_s->first].begin)),
             r.new_word, "the text's '" + stranded + "' has no " + lacking + " counterpart"});
        continue;
      }
      // Member nouns and associated words take group g's word of their row; in a text that names
      // both groups, g's own words take s's ("the Muslim imam and the Jewish rabbi" → "the
      // Jewish rabbi and the Muslim imam"), and the words of a third group the text names stay.
      for (const MemberAt& at : members_at) {
        const auto& row = (*at.rows)[at.row];
        bool of_other_named = false;
        for (const GroupMention& m : group_mentions)
          of_other_named |= m.group != s && m.group != g && of_group(at, m.group);
        if (of_other_named) continue;
        const std::string& word = row[g_named && of_group(at, g) ? s : g];
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
      emit(MutationKind::kGroup, g, m0.group,
           std::string(text.substr(tokens[m0.first].begin,
                                   tokens[m0.end - 1].end - tokens[m0.first].begin)),
           r, fluency_of(r), "group");
    }
  }
}

// File attributes: a first name of a group in a text that names no group becomes a name of
// each other group that has names of the same gender, in every mention.
void PerturbationBuilder::perturb_group_names() {
  if (attribute_.uses_gender_finder || !group_mentions.empty() || names.empty()) return;
  const std::size_t n_groups = attribute_.targets;
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
      emit(MutationKind::kName, g, hit->group, std::string(tokens[at[0]].surface(text)), r,
           fluency_of(r), "names");
    }
  }
}

}  // namespace assay::fairness
