#include "text/inflector.h"

#include <gtest/gtest.h>

namespace assay::text {
namespace {

const Inflector& inflector() {
  static const WordNetLemmatizer lemmatizer;
  static const Inflector inflector(lemmatizer);
  return inflector;
}

TEST(Inflector, PluralizeRegularAndIrregular) {
  const auto& i = inflector();
  EXPECT_EQ(i.pluralize("actor"), "actors");
  EXPECT_EQ(i.pluralize("actress"), "actresses");
  EXPECT_EQ(i.pluralize("church"), "churches");
  EXPECT_EQ(i.pluralize("lady"), "ladies");
  EXPECT_EQ(i.pluralize("boy"), "boys");
  EXPECT_EQ(i.pluralize("child"), "children");  // noun.exc
  EXPECT_EQ(i.pluralize("mouse"), "mice");      // noun.exc
  EXPECT_EQ(i.pluralize("wife"), "wives");      // noun.exc
  EXPECT_EQ(i.pluralize("hero"), "heroes");     // noun.exc
  EXPECT_EQ(i.pluralize("woman"), "women");     // -man rule
  EXPECT_EQ(i.pluralize("policeman"), "policemen");
  EXPECT_EQ(i.pluralize("human"), "humans");
  EXPECT_EQ(i.pluralize("brother"), "brothers");  // not the archaic "brethren"
  EXPECT_EQ(i.pluralize("person"), "people");
}

TEST(Inflector, SingularizeThroughWordNet) {
  const auto& i = inflector();
  EXPECT_EQ(i.singularize("actresses"), "actress");
  EXPECT_EQ(i.singularize("women"), "woman");
  EXPECT_EQ(i.singularize("children"), "child");
  EXPECT_EQ(i.singularize("people"), "person");
  EXPECT_EQ(i.singularize("waitresses"), "waitress");
  EXPECT_EQ(i.singularize("blorfies"), "blorfy");  // unknown to WordNet: rules
  EXPECT_EQ(i.singularize("actor"), "actor");
}

TEST(Inflector, RoundTripsAndKeepsCase) {
  const auto& i = inflector();
  for (const char* w : {"actor", "actress", "king", "queen", "uncle", "aunt", "child", "man",
                        "woman", "waiter", "waitress", "policewoman", "boy", "girl", "wife"}) {
    EXPECT_EQ(i.singularize(i.pluralize(w)), w) << w;
  }
  EXPECT_EQ(i.pluralize("Actress"), "Actresses");
  EXPECT_EQ(i.pluralize("CHILD"), "CHILDREN");
  EXPECT_EQ(i.singularize("Women"), "Woman");
}

TEST(Inflector, IndefiniteArticle) {
  EXPECT_EQ(indefinite_article("actor"), "an");
  EXPECT_EQ(indefinite_article("boy"), "a");
  EXPECT_EQ(indefinite_article("hour"), "an");
  EXPECT_EQ(indefinite_article("honest"), "an");
  EXPECT_EQ(indefinite_article("unicorn"), "a");
  EXPECT_EQ(indefinite_article("user"), "a");
  EXPECT_EQ(indefinite_article("umbrella"), "an");
  EXPECT_EQ(indefinite_article("one-time"), "a");
  EXPECT_EQ(indefinite_article("European"), "a");
  EXPECT_EQ(indefinite_article("FBI"), "an");
  EXPECT_EQ(indefinite_article("NBA"), "an");
  EXPECT_EQ(indefinite_article("CEO"), "a");
  EXPECT_EQ(indefinite_article("8-year-old"), "an");
  EXPECT_EQ(indefinite_article("11"), "an");
  EXPECT_EQ(indefinite_article("12"), "a");
  EXPECT_EQ(indefinite_article("\"elegant\""), "an");
}

TEST(Inflector, TransferCase) {
  EXPECT_EQ(transfer_case("Actor", "actress"), "Actress");
  EXPECT_EQ(transfer_case("ACTOR", "actress"), "ACTRESS");
  EXPECT_EQ(transfer_case("actor", "actress"), "actress");
  EXPECT_EQ(transfer_case("actor", "McQueen"), "McQueen");
  EXPECT_EQ(transfer_case("Émile", "éric"), "Éric");
  EXPECT_EQ(transfer_case("I", "we"), "We");
}

}  // namespace
}  // namespace assay::text
