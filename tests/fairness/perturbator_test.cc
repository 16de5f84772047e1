#include "fairness/perturbator.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "core/error.h"
#include "fairness/first_names.h"
#include "fairness/perturbation_json.h"
#include "fairness/referent_checks.h"
#include "fairness_test_support.h"
#include "support/shared_data.h"
#include "vectors/vector_reader.h"

namespace assay::fairness {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;

std::vector<std::string> texts(const PerturbationSet& s) {
  std::vector<std::string> out;
  for (const auto& p : s.perturbations) out.push_back(p.text);
  return out;
}

std::vector<std::string> split(const std::string& s, const std::string& sep) {
  std::vector<std::string> out;
  std::size_t from = 0;
  while (true) {
    const auto at = s.find(sep, from);
    out.push_back(s.substr(from, at == std::string::npos ? std::string::npos : at - from));
    if (at == std::string::npos) return out;
    from = at + sep.size();
  }
}

// The handwritten sentences (tests/data/fairness/expected_perturbations.tsv): the share of
// expected perturbations produced exactly, overall and per category.
TEST(Perturbator, HandwrittenSentencesReproduced) {
  const Perturbator p(testing::default_resources(), gender_attribute());
  std::ifstream in(testing::kData + "/expected_perturbations.tsv");
  std::string line;
  std::map<std::string, std::pair<int, int>> by_category;
  int hit = 0, total = 0;
  std::string misses;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto f = split(line, "\t");
    ASSERT_EQ(f.size(), 3u) << line;
    const auto got = texts(p.perturb(f[1]));
    bool ok = false;
    for (const auto& want : split(f[2], " | ")) {
      ok |= std::find(got.begin(), got.end(), want) != got.end();
    }
    ++total;
    hit += ok;
    by_category[f[0]].first += ok;
    by_category[f[0]].second += 1;
    if (!ok) {
      misses += "\n  " + f[1] + " -> want " + f[2] + "; got:";
      for (const auto& g : got) misses += " [" + g + "]";
    }
  }
  for (const auto& [c, n] : by_category) std::printf("%s: %d / %d\n", c.c_str(), n.first, n.second);
  std::printf("all: %d / %d\n", hit, total);
  EXPECT_EQ(total, 47);
  // Floor under the measured share (docs/fairness.md).
  EXPECT_GE(hit, 44) << misses;
}

// The knowledge graph's counterparts (no lexicon: "actor" is then neutral and takes both
// adjectives, "dad" has several counterparts).
TEST(Perturbator, RecordsSpansFluencyAndDroppedCandidates) {
  const auto& r = testing::mutable_graph_only_resources();
  PerturbatorOptions o;
  const Perturbator p(r, gender_attribute(), o);
  // Non-ASCII before the noun: the character span counts code points.
  const std::string text = "Café scene: the actor was great.";
  const auto s = p.perturb(text);
  EXPECT_EQ(s.n_person_nouns, 1u);
  ASSERT_TRUE(s.is_mutable());
  const Perturbation* analogy = nullptr;
  for (const auto& q : s.perturbations) {
    if (q.kind == MutationKind::kAnalogy) analogy = &q;
  }
  ASSERT_NE(analogy, nullptr);
  EXPECT_EQ(analogy->text, "Café scene: the actress was great.");
  EXPECT_EQ(analogy->group, "female");
  EXPECT_EQ(analogy->old_word, "actor");
  EXPECT_EQ(analogy->new_word, "actress");
  ASSERT_EQ(analogy->spans.size(), 1u);
  EXPECT_EQ(analogy->spans[0].char_begin, 16u);
  EXPECT_EQ(analogy->spans[0].char_end, 21u);
  EXPECT_EQ(analogy->spans[0].begin, 17u);  // bytes: é is two
  EXPECT_GT(analogy->fluency, 0.0);
  // One sentence: its fluency is the text's.
  EXPECT_NEAR(analogy->fluency_ratio, analogy->fluency / s.fluency, 1e-12);
  EXPECT_EQ(s.count(MutationKind::kActive), 2u);  // female actor, male actor

  // Several counterparts: the ones not chosen are listed with the reason.
  const auto dad = p.perturb("My dad is funny.");
  bool listed = false;
  for (const auto& d : dad.dropped) listed |= d.reason.find("not chosen") != std::string::npos;
  EXPECT_TRUE(listed);

  // Empty and person-free inputs are not mutable.
  EXPECT_FALSE(p.perturb("").is_mutable());
  EXPECT_FALSE(p.perturb("The film was long.").is_mutable());
  EXPECT_THROW(p.perturb("bad \xff"), core::ParseError);
}

TEST(Perturbator, OccurrencesFluencyFilterAndCap) {
  const auto& r = testing::default_resources();
  const std::string text = "The actor met another actor.";
  PerturbatorOptions one;
  one.active = false;
  one.coreference = false;  // with it, a gender perturbation changes every mention
  const auto single = Perturbator(r, gender_attribute(), one).perturb(text);
  EXPECT_THAT(texts(single), Contains("The actress met another actor."));
  EXPECT_THAT(texts(single), Contains("The actor met another actress."));
  PerturbatorOptions all = one;
  all.all_occurrences = true;
  const auto both = Perturbator(r, gender_attribute(), all).perturb(text);
  ASSERT_EQ(both.perturbations.size(), 1u);
  EXPECT_EQ(both.perturbations[0].text, "The actress met another actress.");
  EXPECT_EQ(both.perturbations[0].spans.size(), 2u);

  // τ: a ratio above every perturbation's keeps none and says why.
  PerturbatorOptions strict;
  strict.fluency_ratio = 2.0;
  const auto none = Perturbator(r, gender_attribute(), strict).perturb("The actor was great.");
  EXPECT_FALSE(none.is_mutable());
  bool fluency_reason = false;
  for (const auto& d : none.dropped) fluency_reason |= d.reason.rfind("fluency", 0) == 0;
  EXPECT_TRUE(fluency_reason);

  // The cap keeps the most fluent ones.
  PerturbatorOptions capped;
  capped.max_per_input = 1;
  const auto full = Perturbator(r, gender_attribute()).perturb("The actor was great.");
  const auto cap = Perturbator(r, gender_attribute(), capped).perturb("The actor was great.");
  ASSERT_EQ(cap.perturbations.size(), 1u);
  double best = 0;
  for (const auto& q : full.perturbations) best = std::max(best, q.fluency_ratio);
  EXPECT_DOUBLE_EQ(cap.perturbations[0].fluency_ratio, best);
}

// ActiveMutate leaves a person noun alone when it only modifies the common noun after it (or
// is an adjective the tagger reads as a noun), and still inserts before a head: a noun at the
// end of its phrase, a title before a lower-cased name, a modifier of a person, a plural before
// a verb the tagger read as a noun. AnalogyMutate is not affected ("female characters").
TEST(Perturbator, ActiveMutateSkipsNounsThatModifyTheNextNoun) {
  // Without the lexicon, so that "actor" is neutral and takes the adjective.
  const auto& r = testing::mutable_graph_only_resources();
  const Perturbator p(r, gender_attribute());
  PerturbatorOptions every;
  every.active_noun_modifiers = true;
  const Perturbator old(r, gender_attribute(), every);
  const std::map<std::string, std::string> modifiers = {
      {"We watched a teen movie last night.", "We watched a male teen movie last night."},
      {"She wrote an erotic thriller about it.", "She wrote a male erotic thriller about it."},
      {"He ran the escort service for years.", "He ran the male escort service for years."},
  };
  for (const auto& [text, bad] : modifiers) {
    const auto s = p.perturb(text);
    EXPECT_EQ(s.count(MutationKind::kActive), 0u) << text;
    EXPECT_THAT(texts(s), Not(Contains(bad))) << text;
    // The option restores them, so the rule is what removes them.
    EXPECT_THAT(texts(old.perturb(text)), Contains(bad)) << text;
  }
  const std::map<std::string, std::string> heads = {
      {"The director said it was fine.", "The male director said it was fine."},
      {"It stars actor bill paxton as the father.",
       "It stars female actor bill paxton as the father."},
      {"The director peter sheridan made it.", "The female director peter sheridan made it."},
      {"The child actor smiled at us.", "The male child actor smiled at us."},
      {"The actors share a house in town.", "The female actors share a house in town."},
  };
  for (const auto& [text, good] : heads)
    EXPECT_THAT(texts(p.perturb(text)), Contains(good)) << text;
  EXPECT_THAT(texts(p.perturb("Her films have strong female characters.")),
              Contains("Her films have strong male characters."));
}

// perturb() is thread-safe: four threads over the handwritten sentences (cold caches, so they
// race on filling them) give the serial results byte for byte.
// The place rules of person_context.h: each refusal is listed with its reason, and
// --broad-persons (narrow_persons false) lifts the noun rules.
TEST(Perturbator, PersonNounsWhereTheyNameNoPersonAreDroppedWithTheReason) {
  const auto& r = testing::default_resources();
  const Perturbator p(r, gender_attribute());
  PerturbatorOptions broad;
  broad.narrow_persons = false;
  const Perturbator every(r, gender_attribute(), broad);
  const std::map<std::string, std::string> blocked = {
      {"We watched Gilmore Girls again last night.", "capitalised inside a sentence"},
      {"borstal boy represents the best of irish cinema .", "a singular without a determiner"},
      {"Its predecessors were much better films.", "its predecessor"},
      {"The sequel avoids the cliches that befall its brethren.", "its brethren"},
      {"Watchers is a fun movie.", "a plural with a singular verb"},
      {"What a stumblebum of a movie this is.", "'a X of a ...'"},
      {"I'm a firefighter, and it felt real.", "the speaker's own role"},
  };
  for (const auto& [text, reason] : blocked) {
    const auto s = p.perturb(text);
    EXPECT_TRUE(s.perturbations.empty()) << text;
    bool listed = false;
    for (const auto& d : s.dropped) {
      listed |= d.reason.rfind("not a person here: ", 0) == 0 &&
                d.reason.find(reason) != std::string::npos;
    }
    EXPECT_TRUE(listed) << text;
    EXPECT_FALSE(every.perturb(text).perturbations.empty()) << text;
  }
  // A kinship word may stand as a name; a plural head makes its modifier's phrase bare.
  EXPECT_THAT(texts(p.perturb("Mom said the film was too long.")),
              Contains("Dad said the film was too long."));
  EXPECT_THAT(texts(p.perturb("Her films have strong female characters.")),
              Contains("Her films have strong male characters."));
  // Names: "Dirty Harry" is a title; an inserted adjective takes the gender of the name after.
  EXPECT_TRUE(p.perturb("I loved Dirty Harry and all of its sequels.").perturbations.empty());
  const auto newcomer = p.perturb("It stars newcomer Jane Fonda in the lead.");
  EXPECT_THAT(texts(newcomer), Contains("It stars female newcomer Jane Fonda in the lead."));
  EXPECT_THAT(texts(newcomer), Not(Contains("It stars male newcomer Jane Fonda in the lead.")));
  // One first name before two surnames is two people: no swap of either.
  const auto two = p.perturb("director david fincher and writer david koepp can't sustain it .");
  bool listed = false;
  for (const auto& q : two.perturbations) EXPECT_NE(q.kind, MutationKind::kName) << q.text;
  for (const auto& d : two.dropped) listed |= d.reason == "two people named 'david': fincher koepp";
  EXPECT_TRUE(listed);
  EXPECT_THAT(texts(two),
              Contains("director david fincher and male writer david koepp can't sustain it ."));
}

// perturb(text, K) is the first K of perturb(text), for every K, with and without co-reference.
TEST(Perturbator, LimitBuildsOnlyTheFirstPerturbations) {
  const auto& r = testing::default_resources();
  PerturbatorOptions plain;
  plain.coreference = false;
  const std::string text =
      "The actor met the nurse. My uncle said he was tired, and Mary thanked the doctor. "
      "The king and the queen watched the waiter.";
  for (const auto& options : {PerturbatorOptions{}, plain}) {
    const Perturbator p(r, gender_attribute(), options);
    const auto all = p.perturb(text);
    ASSERT_GE(all.perturbations.size(), 7u);
    for (std::size_t k = 0; k <= all.perturbations.size() + 1; ++k) {
      const auto some = p.perturb(text, k);
      ASSERT_EQ(some.perturbations.size(), std::min(k, all.perturbations.size()));
      for (std::size_t i = 0; i < some.perturbations.size(); ++i)
        EXPECT_EQ(some.perturbations[i].text, all.perturbations[i].text) << k << " " << i;
    }
  }
  // With the fluency cap every perturbation is ranked, and the limit cuts the kept ones.
  PerturbatorOptions capped;
  capped.max_per_input = 3;
  const Perturbator c(r, gender_attribute(), capped);
  const auto three = c.perturb(text);
  ASSERT_EQ(three.perturbations.size(), 3u);
  const auto two = c.perturb(text, 2);
  ASSERT_EQ(two.perturbations.size(), 2u);
  EXPECT_EQ(two.perturbations[0].text, three.perturbations[0].text);
  EXPECT_EQ(two.perturbations[1].text, three.perturbations[1].text);
}

// Two words a text contrasts are never made the same word ("the king and the queen" →
// "the queen and the queen"), by an analogy or by a group swap; group mentions of both groups
// swap places instead.
TEST(Perturbator, ContrastedWordsAreNotMadeEqual) {
  const auto& r = testing::default_resources();
  const auto texts_of = [](const PerturbationSet& set) {
    std::vector<std::string> out;
    for (const auto& p : set.perturbations) out.push_back(p.text);
    return out;
  };
  const auto gender = Perturbator(r, gender_attribute()).perturb("The king and the queen waved.");
  for (const auto& t : texts_of(gender)) {
    EXPECT_EQ(t.find("queen and the queen"), std::string::npos) << t;
    EXPECT_EQ(t.find("king and the king"), std::string::npos) << t;
  }
  const Perturbator race(r, load_attribute("race", default_attribute_dir()));
  const auto swapped = texts_of(race.perturb("Whites and blacks marched together."));
  EXPECT_THAT(swapped, ::testing::Contains("Blacks and whites marched together."));
  EXPECT_THAT(swapped, ::testing::Contains("Whites and Asians marched together."));
  EXPECT_THAT(swapped, ::testing::Not(::testing::Contains("Blacks and blacks marched together.")));
  const Perturbator orientation(r, load_attribute("sexual-orientation", default_attribute_dir()));
  const auto set = orientation.perturb("Gays and lesbians marched.");
  EXPECT_TRUE(set.perturbations.empty()) << set.perturbations.front().text;
  bool listed = false;
  for (const auto& d : set.dropped) listed |= d.reason.find("in contrast") != std::string::npos;
  EXPECT_TRUE(listed);
}

// A gender swap of a name keeps its association with race (the race attribute's names, linked
// by default), and a race swap of a name keeps its gender: one attribute moves at a time.
TEST(Perturbator, NameSwapsMoveOneAttributeOnly) {
  const auto& r = testing::default_resources();
  const auto race = load_attribute("race", default_attribute_dir());
  const auto in = [&](const std::vector<std::string>& names, const std::string& text) {
    for (const auto& n : names) {
      if (text.find(n) != std::string::npos) return true;
    }
    return false;
  };
  const auto& black = race.groups[1];
  ASSERT_EQ(black.name, "black");
  const auto jamal = Perturbator(r, gender_attribute()).perturb("Jamal said he was tired.");
  ASSERT_EQ(jamal.perturbations.size(), 1u);
  EXPECT_EQ(jamal.perturbations[0].kind, MutationKind::kName);
  EXPECT_TRUE(in(black.female_names, jamal.perturbations[0].text)) << jamal.perturbations[0].text;
  EXPECT_NE(jamal.perturbations[0].text.find(" said she was tired."), std::string::npos);
  const auto lakisha = Perturbator(r, gender_attribute()).perturb("Lakisha said she was tired.");
  ASSERT_EQ(lakisha.perturbations.size(), 1u);
  EXPECT_TRUE(in(black.male_names, lakisha.perturbations[0].text)) << lakisha.perturbations[0].text;
  const auto to_white = Perturbator(r, race).perturb("Jamal said he was tired.");
  ASSERT_FALSE(to_white.perturbations.empty());
  EXPECT_TRUE(in(race.groups[0].male_names, to_white.perturbations[0].text))
      << to_white.perturbations[0].text;
  // Without linked groups (--name-groups none), a name comes from the common pool.
  const auto pool_names = FirstNames::load(FirstNames::default_path());
  const auto pooled = pool_names.replacement("Jamal", knowledge::Gender::kMale, 0, {});
  EXPECT_FALSE(in(black.female_names, pooled)) << pooled;
}

// Each perturbation lists the named checks it passed: an insertion the insertion checks, a
// first name the name checks, a co-referent gender swap the gender-swap checks; a check switched
// off is not among them, and a group word (no named checks) lists none.
TEST(Perturbator, PerturbationsListTheChecksTheyPassed) {
  const auto& r = testing::default_resources();
  const auto names_of = [](std::span<const Check> checks, std::string_view skip = {}) {
    std::vector<std::string> out;
    for (const auto& c : checks) {
      if (c.name != skip) out.emplace_back(c.name);
    }
    return out;
  };
  const auto set = Perturbator(r, gender_attribute()).perturb("My wife said the doctor met Jamal.");
  std::set<MutationKind> kinds;
  for (const auto& p : set.perturbations) {
    kinds.insert(p.kind);
    if (p.kind == MutationKind::kActive) {
      EXPECT_EQ(p.checks, names_of(insertion_checks())) << p.text;
    }
    if (p.kind == MutationKind::kName) {
      EXPECT_EQ(p.checks, names_of(name_checks())) << p.text;
    }
    if (p.kind == MutationKind::kAnalogy) {
      EXPECT_EQ(p.checks, names_of(gender_swap_checks())) << p.text;
    }
  }
  EXPECT_EQ(kinds.size(), 3u);
  EXPECT_NE(perturbation_to_json(set.perturbations[0]).dump().find("\"checks\":["),
            std::string::npos);
  PerturbatorOptions skip;
  skip.disabled_checks = {"habitual"};
  for (const auto& p :
       Perturbator(r, gender_attribute(), skip).perturb("The doctor smiled.").perturbations)
    EXPECT_EQ(p.checks, names_of(insertion_checks(), "habitual")) << p.text;
  const auto race = load_attribute("race", default_attribute_dir());
  const auto group = Perturbator(r, race).perturb("The black nurse smiled.");
  ASSERT_FALSE(group.perturbations.empty());
  for (const auto& p : group.perturbations) {
    if (p.kind == MutationKind::kGroup) {
      EXPECT_TRUE(p.checks.empty()) << p.text;
      EXPECT_EQ(perturbation_to_json(p).dump().find("checks"), std::string::npos);
    }
  }
}

// A text naming more people than max_perturbations (40 actors and 40 waiters, 5 race
// adjectives each) gets the first max_perturbations perturbations, the same as without the limit,
// and says the limit was reached; a text under the limit does not.
TEST(Perturbator, PerturbationsPerTextAreLimited) {
  const auto& r = testing::default_resources();
  const auto race = load_attribute("race", default_attribute_dir());
  std::string text;
  for (int i = 0; i < 40; ++i) text += "The actor met the waiter. ";
  PerturbatorOptions unlimited;
  unlimited.max_perturbations = 0;
  const auto all = Perturbator(r, race, unlimited).perturb(text);
  ASSERT_GT(all.perturbations.size(), 256u);
  EXPECT_FALSE(all.limit_reached);
  const auto limited = Perturbator(r, race).perturb(text);
  ASSERT_EQ(limited.perturbations.size(), 256u);
  EXPECT_TRUE(limited.limit_reached);
  for (std::size_t i = 0; i < limited.perturbations.size(); ++i)
    EXPECT_EQ(limited.perturbations[i].text, all.perturbations[i].text) << i;
  const auto json = perturbation_set_to_json(InputRecord{1, text, {}}, limited, false).dump();
  EXPECT_NE(json.find("\"limit_reached\":true"), std::string::npos);
  const auto small = Perturbator(r, race).perturb("The actor met the waiter.");
  EXPECT_FALSE(small.limit_reached);
  EXPECT_EQ(
      perturbation_set_to_json(InputRecord{1, "x", {}}, small, false).dump().find("limit_reached"),
      std::string::npos);
}

// Group words of a file attribute (group_words.h): swapped where they name people, with the
// file's spelling, the text's case and a repaired article; refused, with the reason, where
// they do not; member nouns and associated words move with the group.
TEST(Perturbator, GroupWordsSwapWhereTheyNamePeople) {
  const auto& r = testing::default_resources();
  const Perturbator race(r, load_attribute("race", default_attribute_dir()));
  const auto nurse = race.perturb("An Asian nurse smiled.");
  ASSERT_EQ(nurse.perturbations.size(), 4u);
  EXPECT_EQ(nurse.n_group_words, 1u);
  const auto& white = nurse.perturbations[0];
  EXPECT_EQ(white.text, "A white nurse smiled.");
  EXPECT_EQ(white.kind, MutationKind::kGroup);
  EXPECT_EQ(white.group, "white");
  EXPECT_EQ(white.old_word, "Asian");
  ASSERT_EQ(white.spans.size(), 2u);  // the article and the word
  EXPECT_EQ(white.spans[0].new_text, "A");
  EXPECT_EQ(white.spans[1].old_text, "Asian");
  EXPECT_EQ(white.spans[1].new_text, "white");
  EXPECT_EQ(race.perturb("the asian filmmakers deliver .").perturbations[3].text,
            "the native american filmmakers deliver .");
  EXPECT_EQ(race.perturb("THE BLACK NURSE SMILED.").perturbations[0].text,
            "THE WHITE NURSE SMILED.");
  const auto coffee = race.perturb("I drink black coffee.");
  EXPECT_TRUE(coffee.perturbations.empty());
  ASSERT_EQ(coffee.dropped.size(), 1u);
  EXPECT_EQ(coffee.dropped[0].kind, MutationKind::kGroup);
  EXPECT_EQ(coffee.dropped[0].reason, "not a group here: 'coffee' is not a person");
  // A text that names a group gets no inserted adjective.
  const auto neighbour = race.perturb("My neighbor is black.");
  ASSERT_EQ(neighbour.perturbations.size(), 4u);
  for (const auto& p : neighbour.perturbations) EXPECT_EQ(p.kind, MutationKind::kGroup);

  const Perturbator religion(r, load_attribute("religion", default_attribute_dir()));
  const auto priest = religion.perturb("A Hindu priest visited the temple.");
  std::vector<std::string> texts;
  for (const auto& p : priest.perturbations) texts.push_back(p.text);
  EXPECT_THAT(texts, ::testing::Contains("A Muslim imam visited the mosque."));
  EXPECT_THAT(texts, ::testing::Contains("A Jewish rabbi visited the synagogue."));
  EXPECT_THAT(texts, ::testing::Contains("A Christian priest visited the church."));

  const Perturbator age(r, load_attribute("age", default_attribute_dir()));
  const auto friend_ = age.perturb("He met an old friend.");
  EXPECT_TRUE(friend_.perturbations.empty());
  ASSERT_FALSE(friend_.dropped.empty());
  EXPECT_EQ(friend_.dropped[0].reason, "not a group here: 'old friend' (except)");
}

// A group of a `source` row (every nationality but the seven targets) is moved to each target,
// in every form, and never to another source group; a phrase of the `other` list names a group
// of another kind even where it holds no group word.
TEST(Perturbator, SourceGroupsMoveToEveryTargetOnly) {
  const auto& r = testing::default_resources();
  const Perturbator nationality(r, load_attribute("nationality", default_attribute_dir()));
  const auto runner = nationality.perturb("A Kenyan runner won the race.");
  EXPECT_EQ(texts(runner), (std::vector<std::string>{
                               "An American runner won the race.", "A British runner won the race.",
                               "A Chinese runner won the race.", "An Indian runner won the race.",
                               "A Mexican runner won the race.", "A German runner won the race.",
                               "A French runner won the race."}));
  for (const auto& p : runner.perturbations) {
    EXPECT_EQ(p.kind, MutationKind::kGroup);
    EXPECT_EQ(p.from_group, "kenyan");
  }
  // The noun and its derived plural; an adjective-only demonym, and its sense that is no group.
  EXPECT_THAT(texts(nationality.perturb("Two Kenyans won the race.")),
              Contains("Two Americans won the race."));
  EXPECT_THAT(texts(nationality.perturb("She hired a Polish plumber.")),
              Contains("She hired a German plumber."));
  EXPECT_TRUE(nationality.perturb("The polish on the table was dry.").perturbations.empty());
  // An adjective that is its own plural, after "the": the target's plural ("the Irish have" ->
  // "the Americans have"), but not after "a" ("a Polish immigrant" is no plural).
  EXPECT_THAT(texts(nationality.perturb("The Irish have a penchant for blarney.")),
              Contains("The Americans have a penchant for blarney."));
  EXPECT_THAT(texts(nationality.perturb("A Polish immigrant opened a bakery.")),
              Not(Contains("An Americans immigrant opened a bakery.")));
  // A source group and a target in one text swap places, as two targets do.
  EXPECT_THAT(texts(nationality.perturb("A Kenyan and a German ran.")),
              Contains("A German and a Kenyan ran."));

  const Perturbator religion(r, load_attribute("religion", default_attribute_dir()));
  const auto agnostic = religion.perturb("An agnostic teacher spoke.");
  EXPECT_TRUE(agnostic.perturbations.empty());
  ASSERT_FALSE(agnostic.dropped.empty());
  EXPECT_THAT(agnostic.dropped.back().reason,
              HasSubstr("the text names people by a group of another kind ('agnostic')"));
}

TEST(Perturbator, ConcurrentCallsEqualSerial) {
  const auto& r = testing::default_resources();
  std::vector<std::string> sentences;
  std::ifstream in(testing::kData + "/expected_perturbations.tsv");
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] != '#') sentences.push_back(split(line, "\t")[1]);
  }
  auto dump = [&](const Perturbator& p, std::size_t i) {
    return perturbation_set_to_json(InputRecord{i, sentences[i], {}}, p.perturb(sentences[i]))
        .dump();
  };
  const Perturbator serial(r, gender_attribute());
  std::vector<std::string> want;
  for (std::size_t i = 0; i < sentences.size(); ++i) want.push_back(dump(serial, i));
  const Perturbator shared(r, gender_attribute());
  std::vector<std::vector<std::string>> got(4, std::vector<std::string>(sentences.size()));
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (std::size_t k = 0; k < sentences.size(); ++k) {
        const std::size_t i = (k + t * 11) % sentences.size();  // different orders
        got[t][i] = dump(shared, i);
      }
    });
  }
  for (auto& th : threads) th.join();
  for (const auto& g : got) EXPECT_EQ(g, want);
}

TEST(Perturbator, FileAttributesAndVectors) {
  const auto& r = testing::default_resources();
  const Perturbator religion(r, load_attribute("religion", testing::kAttributes));
  const auto s = religion.perturb("The priest and the doctor talked.");
  EXPECT_THAT(texts(s), Contains("The imam and the doctor talked."));
  EXPECT_THAT(texts(s), Contains("The rabbi and the doctor talked."));
  EXPECT_THAT(texts(s), Contains("The priest and the Muslim doctor talked."));
  // "priest" is a member of a group: no "Jewish priest".
  for (const auto& t : texts(s)) EXPECT_EQ(t.find("Jewish priest"), std::string::npos);

  // Analogies by vectors (Algorithm 3) on the GloVe Twitter 25d subset, KG-validated: for
  // actor the nearest answer is "singer", the first the graph confirms "actress".
  ASSAY_REQUIRE_FILE(testing::kShared + "/word-vectors/glove.twitter.27B.25d.subset.txt");
  auto m = std::make_unique<vectors::EmbeddingMatrix>(
      vectors::read_vectors(testing::kShared + "/word-vectors/glove.twitter.27B.25d.subset.txt",
                            vectors::VectorFormat::kWord2vecText));
  PerturbatorOptions o;
  o.active = false;
  // The graph-only resources (the lexicon would answer first) with vectors added for the
  // rest of this test.
  auto& base = testing::mutable_graph_only_resources();
  base.vectors = std::move(m);
  const Perturbator analogy(base, gender_attribute(), o);
  const auto k = analogy.perturb("The king and the actor.");
  EXPECT_THAT(texts(k), Contains("The queen and the actor."));
  EXPECT_THAT(texts(k), Contains("The king and the actress."));
  bool singer = false;
  for (const auto& d : k.dropped)
    singer |= d.new_word == "singer" && d.reason.rfind("strict", 0) == 0;
  EXPECT_TRUE(singer);
  for (const auto& q : k.perturbations) EXPECT_EQ(q.evidence, "vectors");
  o.min_cosine = 0.99;
  const Perturbator demanding(base, gender_attribute(), o);
  const auto none = demanding.perturb("The king was cruel.");
  EXPECT_FALSE(none.is_mutable());
  ASSERT_FALSE(none.dropped.empty());
  EXPECT_THAT(none.dropped[0].reason, HasSubstr("cosine"));
  base.vectors.reset();
}

}  // namespace
}  // namespace assay::fairness
