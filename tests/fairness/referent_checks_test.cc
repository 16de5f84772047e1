// Each check of referent_checks.h on the smallest text that makes it fire, and on the nearest
// text that must pass it: the checks read only words, tags, sentences and case.
#include "fairness/referent_checks.h"

#include <gtest/gtest.h>

#include <cctype>
#include <sstream>
#include <string>
#include <vector>

namespace assay::fairness {
namespace {

// A text as "word/tag" tokens ("Wendy/nnp"); "|" starts a new sentence; a token ending in "*"
// is a person noun; the candidate is the token at `at`.
struct Text {
  explicit Text(const std::string& tokens) {
    std::istringstream in(tokens);
    std::string t;
    std::size_t sentence = 0;
    while (in >> t) {
      if (t == "|") {
        ++sentence;
        continue;
      }
      const bool person = t.back() == '*';
      if (person) t.pop_back();
      const auto slash = t.rfind('/');
      std::string word = t.substr(0, slash);
      capital.push_back(std::isupper(static_cast<unsigned char>(word[0])) != 0);
      for (char& c : word) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      words.push_back(word);
      tags.push_back(t.substr(slash + 1));
      persons.push_back(person);
      sentence_of.push_back(sentence);
    }
  }
  TokenView view() const {
    return {words, sentence_of, [this](std::size_t i) { return std::string_view(tags[i]); },
            [this](std::size_t i) { return static_cast<bool>(capital[i]); },
            [this](std::size_t i) { return static_cast<bool>(persons[i]); }};
  }
  std::vector<std::string> words, tags;
  std::vector<std::size_t> sentence_of;
  std::vector<char> capital, persons;
};

// The name of the first check of `checks` the candidate fails, or "".
std::string failed(std::span<const Check> checks, const std::string& tokens, std::size_t at,
                   bool plural = false, std::set<std::string, std::less<>> disabled = {}) {
  const Text t(tokens);
  const auto* c = first_failed(checks, t.view(), {at, plural}, disabled);
  return c ? std::string(c->name) : "";
}

TEST(ReferentChecks, PeopleInGeneralTakeNoInsertedGroup) {
  const auto checks = insertion_checks();
  EXPECT_EQ(failed(checks, "Each/dt user/nn* can/md log/vb in/in", 1), "quantified");
  EXPECT_EQ(failed(checks, "Students/nns* should/md bring/vb lunch/nn", 0, true), "bare-plural");
  EXPECT_EQ(failed(checks, "The/dt victims/nns* are/vbp typically/rb asked/vbn", 1, true),
            "habitual");
  EXPECT_EQ(failed(checks, "A/dt user/nn* can/md configure/vb it/prp", 1), "modal-statement");
  EXPECT_EQ(failed(checks, "Can/md a/dt tenant/nn* refuse/vb ?/pp", 2), "modal-statement");
  EXPECT_EQ(failed(checks, "She/prp called/vbd me/prp an/dt idiot/nn*", 4), "epithet");
  EXPECT_EQ(failed(checks, "what/wp a/dt jerk/nn*", 2), "epithet");
  EXPECT_EQ(failed(checks, "she/prp wants/vbz to/to become/vb a/dt nurse/nn*", 5), "role");
  EXPECT_EQ(failed(checks, "the/dt kids/nns* '/pos menu/nn", 1, true), "kind-possessive");
  EXPECT_EQ(failed(checks, "it/prp leaves/vbz the/dt viewer/nn* haunted/vbn", 3), "audience");
  EXPECT_EQ(failed(checks, "one/cd of/in those/dt films/nns where/wrb the/dt hero/nn* wins/vbz", 6),
            "kind-of-story");
  EXPECT_EQ(failed(checks, "the/dt kind/nn of/in film/nn where/wrb the/dt wife/nn* leaves/vbz", 6),
            "kind-of-story");
  // Specific people pass every check.
  EXPECT_EQ(failed(checks, "my/prp$ readers/nns* wrote/vbd to/to me/prp", 1, true), "");
  EXPECT_EQ(failed(checks, "one/cd of/in the/dt actors/nns* smiled/vbd", 3, true), "");
  EXPECT_EQ(failed(checks, "The/dt doctor/nn* talked/vbd with/in me/prp", 1), "");
  EXPECT_EQ(failed(checks, "Two/cd boys/nns* are/vbp playing/vbg", 1, true), "");
  // A bare plural in an event (past or progressive) names the people who took part.
  EXPECT_EQ(failed(checks, "Local/jj firefighters/nns* rescued/vbd a/dt couple/nn", 1, true), "");
  EXPECT_EQ(failed(checks, "Boys/nns* are/vbp playing/vbg outside/rb", 0, true), "");
  EXPECT_EQ(failed(checks, "Shoppers/nns* love/vbp this/dt mall/nn", 0, true), "bare-plural");
  EXPECT_EQ(failed(checks, "A/dt group/nn of/in students/nns* sits/vbz here/rb", 3, true), "");
  EXPECT_EQ(failed(checks, "the/dt tradition/nn of/in men/nns* in/in drag/nn", 3, true),
            "bare-plural");
  EXPECT_EQ(failed(checks, "My/prp$ neighbor/nn* can/md fix/vb it/prp", 1), "");
  EXPECT_EQ(failed(checks, "my/prp$ kids/nns* always/rb eat/vbp here/rb", 1, true), "");
  EXPECT_EQ(failed(checks, "my/prp$ kids/nns* '/pos toys/nns", 1, true), "");
  EXPECT_EQ(failed(checks, "I/prp called/vbd the/dt plumber/nn*", 3), "");
  // A habitual word in another sentence says nothing of this one.
  EXPECT_EQ(failed(checks, "We/prp always/rb go/vbp ./pp | The/dt waiter/nn* smiled/vbd", 5), "");
}

TEST(ReferentChecks, OneOfACoupleWhoseOtherHalfIsNamedKeepsItsGender) {
  const auto checks = gender_swap_checks();
  EXPECT_EQ(failed(checks, "Her/prp$ husband/nn* often/rb drinks/vbz", 1), "partner");
  EXPECT_EQ(failed(checks, "while/in his/prp$ wife/nn* cooked/vbd", 2), "partner");
  EXPECT_EQ(failed(checks, "My/prp$ husband/nn* ordered/vbd the/dt steak/nn", 1), "");
  EXPECT_EQ(failed(checks, "his/prp$ brother/nn* cooked/vbd", 1), "");
}

TEST(ReferentChecks, NamesInsideTheNameOfAThingStay) {
  const auto checks = name_checks();
  EXPECT_EQ(failed(checks, "We/prp met/vbd in/in May/nnp", 3), "calendar");
  EXPECT_EQ(failed(checks, "June/nnp Carter/nnp sang/vbd", 0), "");
  EXPECT_EQ(failed(checks, "We/prp ordered/vbd eggs/nns Benedict/nnp", 3), "thing-name");
  EXPECT_EQ(failed(checks, "the/dt talented/nn robert/nn", 2), "");  // lower-cased text: no case
  EXPECT_EQ(failed(checks, "the/dt actor/nn* Tom/nnp Hanks/nnp", 2), "");
  EXPECT_EQ(failed(checks, "the/dt main/jj character/nn Travis/nnp", 3), "");
  EXPECT_EQ(failed(checks, "of/in me/prp ./nn Bernard/nnp Herrman/nnp", 3), "");
  EXPECT_EQ(failed(checks, "we/prp walked/vbd in/in Victoria/nnp Park/nnp", 3), "place-name");
  EXPECT_EQ(failed(checks, "lunch/nn at/in Wendy/nnp 's/pos ./pp", 2), "business");
  EXPECT_EQ(failed(checks, "lunch/nn at/in Wendy/nnp 's/pos house/nn", 2), "");
  EXPECT_EQ(failed(checks, "Wendy/nnp 's/pos dog/nn barked/vbd", 0), "");
  EXPECT_EQ(failed(checks, "they/prp beat/vbd Wendy/nnp 's/pos by/in a/dt mile/nn", 2), "business");
  EXPECT_EQ(failed(checks, "a/dt friend/nn* of/in Mary/nnp 's/pos ./pp", 3), "");
  EXPECT_EQ(failed(checks, "Mary/nnp 's/pos new/jj car/nn", 0), "");
}

TEST(ReferentChecks, ADisabledCheckIsSkippedAndEveryNameIsFound) {
  EXPECT_EQ(failed(insertion_checks(), "Students/nns* should/md bring/vb lunch/nn", 0, true,
                   {"bare-plural"}),
            "modal-statement");
  EXPECT_EQ(failed(insertion_checks(), "Students/nns* should/md bring/vb lunch/nn", 0, true,
                   {"bare-plural", "modal-statement"}),
            "");
  for (const auto list : {insertion_checks(), gender_swap_checks(), name_checks()}) {
    for (const auto& c : list) {
      EXPECT_EQ(find_check(c.name), &c);
      EXPECT_FALSE(c.reason.empty());
    }
  }
  EXPECT_EQ(find_check("no-such-check"), nullptr);
}

}  // namespace
}  // namespace assay::fairness
