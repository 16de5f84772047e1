// The pieces of gender perturbation on their own: the pair lexicon and the first-name file
// (formats, first row wins, file:line errors), the replacement of a name (deterministic,
// seeded, avoiding the text's words), and the co-reference rule on hand-built mentions.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cctype>
#include <set>

#include "core/error.h"
#include "fairness/coreference.h"
#include "fairness/first_names.h"
#include "fairness/gender_lexicon.h"
#include "fairness/sensitive_attribute.h"
#include "support/temp_dir.h"

namespace assay::fairness {
namespace {

using knowledge::Gender;
using ::testing::HasSubstr;

template <typename F>
std::string parse_error(F&& f) {
  try {
    f();
  } catch (const core::ParseError& e) {
    return e.what();
  }
  return "no error";
}

TEST(GenderLexicon, FirstRowWinsInEitherColumn) {
  assay::testing::TempDir dir;
  const auto path = dir.write("g.tsv",
                              "# comment\n\nmr\tms\taddress\tcurated\nmr\tmrs\taddress\tcurated\n"
                              "gentleman\tlady\tgeneral\tx\nlord\tlady\tnobility\tx\n"
                              "best_man\tmaid_of_honor\tpartner\tx\n");
  const auto lex = GenderLexicon::load(path);
  ASSERT_NE(lex.find("mr"), nullptr);
  EXPECT_EQ(lex.find("mr")->counterpart, "ms");
  EXPECT_EQ(lex.find("mr")->gender, Gender::kMale);
  EXPECT_EQ(lex.find("mrs")->counterpart, "mr");
  EXPECT_EQ(lex.find("mrs")->gender, Gender::kFemale);
  EXPECT_EQ(lex.find("lady")->counterpart, "gentleman");
  EXPECT_EQ(lex.find("lord")->counterpart, "lady");
  EXPECT_EQ(lex.find("best man")->counterpart, "maid of honor");
  EXPECT_EQ(lex.find("lord")->category, "nobility");
  EXPECT_EQ(lex.find("actor"), nullptr);
}

TEST(GenderLexicon, MalformedRowsNameFileAndLine) {
  assay::testing::TempDir dir;
  EXPECT_THAT(parse_error([&] { GenderLexicon::load(dir.write("a.tsv", "mr\tms\taddress\n")); }),
              HasSubstr("a.tsv:1"));
  EXPECT_THAT(parse_error([&] {
                GenderLexicon::load(dir.write("b.tsv", "# x\nking\tqueen\tn\ts\nMr\tMs\ta\ts\n"));
              }),
              HasSubstr("b.tsv:3"));
  EXPECT_THAT(parse_error([&] { GenderLexicon::load(dir.write("c.tsv", "kid\tkid\tage\ts\n")); }),
              HasSubstr("paired with itself"));
  EXPECT_THROW(GenderLexicon::load(dir.file("missing.tsv")), core::IoError);
}

TEST(GenderLexicon, ShippedFileLoads) {
  const auto lex = GenderLexicon::load(GenderLexicon::default_path());
  EXPECT_GE(lex.size(), 300u);
  EXPECT_EQ(lex.find("uncle")->counterpart, "aunt");
  EXPECT_EQ(lex.find("boyfriend")->counterpart, "girlfriend");
  EXPECT_EQ(lex.find("nun")->counterpart, "monk");
  EXPECT_EQ(lex.find("mama")->counterpart, "papa");
}

TEST(FirstNames, ReplacementIsSeededStableAndAvoidsTheText) {
  assay::testing::TempDir dir;
  const auto path = dir.write("n.tsv",
                              "# names\nAnna\tfemale\t1\nBen\tmale\t1\nCarl\tmale\t1\n"
                              "Dora\tfemale\t1\nEve\tfemale\t0\n");
  const auto names = FirstNames::load(path);
  EXPECT_EQ(names.gender_of("ben"), Gender::kMale);
  EXPECT_EQ(names.gender_of("EVE"), Gender::kFemale);
  EXPECT_EQ(names.gender_of("Zed"), Gender::kNone);
  const auto a = names.replacement("Eve", Gender::kFemale, 7, {});
  EXPECT_TRUE(a == "Ben" || a == "Carl") << a;
  EXPECT_EQ(names.replacement("Eve", Gender::kFemale, 7, {}), a);  // same name, same seed
  const std::string other = a == "Ben" ? "Carl" : "Ben";
  std::string lower = a;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  EXPECT_EQ(names.replacement("Eve", Gender::kFemale, 7, {lower}), other);
  // Over several seeds both male pool names are chosen (the seed matters).
  std::set<std::string> seen;
  for (std::uint64_t seed = 0; seed < 16; ++seed)
    seen.insert(names.replacement("Eve", Gender::kFemale, seed, {}));
  EXPECT_EQ(seen.size(), 2u);
}

TEST(FirstNames, MalformedRowsNameFileAndLine) {
  assay::testing::TempDir dir;
  EXPECT_THAT(parse_error([&] { FirstNames::load(dir.write("a.tsv", "Anna\tfemale\n")); }),
              HasSubstr("a.tsv:1"));
  EXPECT_THAT(parse_error([&] { FirstNames::load(dir.write("b.tsv", "Anna\twoman\t1\n")); }),
              HasSubstr("'male' or 'female'"));
  EXPECT_THAT(
      parse_error([&] {
        FirstNames::load(dir.write("c.tsv", "Anna\tfemale\t1\nBen\tmale\t1\nanna\tfemale\t0\n"));
      }),
      HasSubstr("c.tsv:3"));
  EXPECT_THAT(parse_error([&] { FirstNames::load(dir.write("d.tsv", "Anna\tfemale\t1\n")); }),
              HasSubstr("both genders"));
  EXPECT_THAT(parse_error([&] { FirstNames::load(dir.write("e.tsv", "Ann4\tfemale\t1\n")); }),
              HasSubstr("e.tsv:1"));
}

// Names of the race attribute's `names` rows keep their group when their gender is swapped
// (Jamal → a Black woman's name of the list, Emily → a white man's), are recognised even where
// the Moby lists lack them, and every other name still comes from the pool.
TEST(FirstNames, LinkedGroupsKeepTheirGroupAcrossGenders) {
  auto names = FirstNames::load(FirstNames::default_path());
  const auto race = read_attribute_file(default_attribute_dir() + "/race.attr");
  EXPECT_EQ(names.gender_of("Lakisha"), Gender::kNone);
  EXPECT_EQ(names.link_groups(race), 36u);
  EXPECT_EQ(names.gender_of("Lakisha"), Gender::kFemale);
  EXPECT_EQ(names.linked_group("JAMAL"), "black");
  EXPECT_EQ(names.linked_group("Mary"), "");
  std::size_t checked = 0;
  for (const auto& group : race.groups) {
    for (const bool female : {true, false}) {
      const auto& own = female ? group.female_names : group.male_names;
      const auto& other = female ? group.male_names : group.female_names;
      for (const auto& name : own) {
        for (std::uint64_t seed = 0; seed < 3; ++seed) {
          const auto to =
              names.replacement(name, female ? Gender::kFemale : Gender::kMale, seed, {});
          EXPECT_THAT(other, ::testing::Contains(to)) << name << " → " << to;
          EXPECT_EQ(names.gender_of(to), female ? Gender::kMale : Gender::kFemale) << to;
          ++checked;
        }
      }
    }
  }
  EXPECT_EQ(checked, 36u * 3);
  const auto mary = names.replacement("Mary", Gender::kFemale, 0, {});
  EXPECT_EQ(names.linked_group(mary), "");  // the pool, not a linked group
}

// The co-reference rule of coreference.h on mentions built by hand (tokens are positions).
TEST(Coreference, NearestSentenceGenderedFirstAmbiguousAndCataphora) {
  const auto he = [](std::size_t t) { return *classify_pronoun("he", t, false); };
  const auto she = [](std::size_t t) { return *classify_pronoun("she", t, false); };
  // Sentence 0: tokens 0-9, sentence 1: 10-19, sentence 2: 20-29.
  std::vector<std::size_t> sentence_of(30);
  for (std::size_t t = 0; t < 30; ++t) sentence_of[t] = t / 10;
  // uncle(0, male) doctor(3, neutral) | king(12, male) prince(14, male) | girls(21, plural f)
  const std::vector<PersonMention> m = {{0, 0, Gender::kMale, false},
                                        {3, 1, Gender::kNone, false},
                                        {12, 2, Gender::kMale, false},
                                        {14, 3, Gender::kMale, false},
                                        {21, 4, Gender::kFemale, true}};
  const auto refs = resolve_pronouns(m, {he(5), she(6), he(16), she(25), he(1)}, sentence_of);
  EXPECT_EQ(refs[0], (std::vector<std::size_t>{0}));     // the uncle, not the neutral doctor
  EXPECT_EQ(refs[1], (std::vector<std::size_t>{1}));     // only the doctor may be "she"
  EXPECT_EQ(refs[2], (std::vector<std::size_t>{2, 3}));  // king or prince: ambiguous
  // Not the plural girls, nor the king or prince: the neutral doctor two sentences back.
  EXPECT_EQ(refs[3], (std::vector<std::size_t>{1}));
  EXPECT_EQ(refs[4], (std::vector<std::size_t>{0}));  // after the uncle in its sentence
  // Cataphora: nothing before, the mention after the comma that ends its opening clause in
  // its own sentence; none without such a clause.
  auto opening = she(1);
  opening.clause_end = 3;
  const auto cat = resolve_pronouns({{4, 0, Gender::kFemale, false}}, {opening}, sentence_of);
  EXPECT_EQ(cat[0], (std::vector<std::size_t>{0}));
  EXPECT_TRUE(resolve_pronouns({{4, 0, Gender::kFemale, false}}, {she(1)}, sentence_of)[0].empty());
  opening.clause_end = 5;  // the mention is inside the clause
  EXPECT_TRUE(
      resolve_pronouns({{4, 0, Gender::kFemale, false}}, {opening}, sentence_of)[0].empty());
  // An earlier "he" of the sentence names nobody: a later "he" may be that person too.
  const auto unnamed =
      resolve_pronouns({{4, 0, Gender::kNone, false}}, {he(2), he(6)}, sentence_of);
  EXPECT_TRUE(unnamed[0].empty());
  EXPECT_EQ(unnamed[1], (std::vector<std::size_t>{0, kUnnamed}));
  // "a friend of his": not the friend.
  auto his = *classify_pronoun("his", 5, false);
  EXPECT_EQ(his.form, PronounForm::kIndependent);
  his.not_token = 3;
  const auto of = resolve_pronouns({{0, 0, Gender::kMale, false}, {3, 1, Gender::kNone, false}},
                                   {his}, sentence_of);
  EXPECT_EQ(of[0], (std::vector<std::size_t>{0}));
  // More than kLookBack sentences back: unnamed.
  std::vector<std::size_t> long_text(60);
  for (std::size_t t = 0; t < 60; ++t) long_text[t] = t / 10;
  EXPECT_TRUE(resolve_pronouns({{0, 0, Gender::kMale, false}}, {he(55)}, long_text)[0].empty());
}

TEST(Coreference, FormsSwapByRole) {
  const auto swapped = [](std::string_view w, bool before_nominal) {
    return std::string(swap_pronoun(
        *classify_pronoun(w, 0, before_nominal),
        classify_pronoun(w, 0, false)->gender == Gender::kMale ? Gender::kFemale : Gender::kMale));
  };
  EXPECT_EQ(swapped("he", false), "she");
  EXPECT_EQ(swapped("him", false), "her");
  EXPECT_EQ(swapped("his", true), "her");    // his book
  EXPECT_EQ(swapped("his", false), "hers");  // the choice was his
  EXPECT_EQ(swapped("her", true), "his");    // her book
  EXPECT_EQ(swapped("her", false), "him");   // saw her
  EXPECT_EQ(swapped("hers", false), "his");
  EXPECT_EQ(swapped("herself", false), "himself");
  EXPECT_FALSE(classify_pronoun("they", 0, false).has_value());
}

}  // namespace
}  // namespace assay::fairness
