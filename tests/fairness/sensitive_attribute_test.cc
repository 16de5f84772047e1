#include "fairness/sensitive_attribute.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "core/error.h"
#include "fairness_test_support.h"
#include "support/temp_dir.h"

namespace assay::fairness {
namespace {

using ::testing::HasSubstr;

std::string error_of(const std::string& path) {
  try {
    read_attribute_file(path);
  } catch (const core::ParseError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(SensitiveAttribute, GenderIsBuiltIn) {
  const auto g = load_attribute("gender", testing::kAttributes);
  EXPECT_TRUE(g.uses_gender_finder);
  ASSERT_EQ(g.groups.size(), 2u);
  EXPECT_EQ(g.groups[0].active, "male");
  EXPECT_EQ(g.groups[1].active, "female");
  EXPECT_EQ(g.groups[1].anchors, std::vector<std::string>{"woman"});
}

TEST(SensitiveAttribute, ShippedFilesParse) {
  for (const char* name : {"religion", "sexual-orientation", "race", "nationality", "age"}) {
    const auto a = load_attribute(name, testing::kAttributes);
    EXPECT_EQ(a.name, name);
    EXPECT_GE(a.groups.size(), 2u) << name;
    for (const auto& g : a.groups) EXPECT_FALSE(g.active.empty()) << name;
  }
  // Homosexual (gay, with "lesbian" among its words), bisexual and heterosexual subjects.
  const auto orientation = load_attribute("sexual-orientation", testing::kAttributes);
  ASSERT_EQ(orientation.groups.size(), 3u);
  EXPECT_EQ(orientation.groups[0].name, "gay");
  EXPECT_EQ(orientation.groups[2].name, "straight");
  ASSERT_GE(orientation.adjectives.size(), 2u);
  EXPECT_EQ(orientation.adjectives[1][0], "lesbian");
  const auto religion = load_attribute("religion", testing::kAttributes);
  const auto hit = religion.find_member("Imam");
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(religion.groups[hit->group].name, "muslim");
  EXPECT_EQ(religion.members[hit->row][0], "priest");
  EXPECT_TRUE(religion.is_attribute_word("jewish"));
  EXPECT_FALSE(religion.is_attribute_word("actor"));
  ASSERT_FALSE(religion.nouns.empty());
  EXPECT_EQ(religion.nouns[0][2], "Jew");  // group words keep their spelling
  const auto race = load_attribute("race", testing::kAttributes);
  ASSERT_FALSE(race.adjectives.empty());
  EXPECT_EQ(race.adjectives[0][1], "African American");  // "_" stands for a space
  EXPECT_EQ(race.nouns[0][1], "African American");
  EXPECT_EQ(race.groups[4].active, "Native American");
  const auto jamal = race.find_name("JAMAL");  // Bertrand and Mullainathan's names, any case
  ASSERT_TRUE(jamal.has_value());
  EXPECT_EQ(race.groups[jamal->group].name, "black");
  EXPECT_FALSE(jamal->female);
  EXPECT_TRUE(race.find_name("Emily")->female);
  EXPECT_FALSE(race.find_name("Mark").has_value());
  EXPECT_TRUE(race.has_names());
  EXPECT_FALSE(religion.has_names());
  const auto age = load_attribute("age", testing::kAttributes);
  EXPECT_NE(std::find(age.excepts.begin(), age.excepts.end(), "old friend"), age.excepts.end());
}

TEST(SensitiveAttribute, MalformedFilesNameFileAndLine) {
  assay::testing::TempDir dir;
  const auto p1 = dir.write("a.attr", "attribute x\ngroups a b\nactive A\n");
  EXPECT_THAT(error_of(p1), HasSubstr("a.attr:3"));
  EXPECT_THAT(error_of(p1), HasSubstr("expected 2 fields after 'active'"));
  const auto p2 = dir.write("b.attr", "# c\nattribute x\ngroups a b\nactive A B\nsynonym c d\n");
  EXPECT_THAT(error_of(p2), HasSubstr("b.attr:5"));
  EXPECT_THAT(error_of(p2), HasSubstr("unknown keyword 'synonym'"));
  const auto p3 = dir.write("c.attr", "groups a b\n");
  EXPECT_THAT(error_of(p3), HasSubstr("c.attr:1"));
  const auto p4 = dir.write("d.attr", "attribute x\ngroups a\n");
  EXPECT_THAT(error_of(p4), HasSubstr("d.attr:2"));
  const auto p5 = dir.write("e.attr", "attribute x\ngroups a b a\n");
  EXPECT_THAT(error_of(p5), HasSubstr("listed twice"));
  const auto p6 = dir.write("f.attr", "attribute x\ngroups a b\nanchor c d\n");
  EXPECT_THAT(error_of(p6), HasSubstr("no 'active' row"));
  const auto p7 = dir.write("g.attr", "attribute x\ngroups a b\nactive A \xff\n");
  EXPECT_THAT(error_of(p7), HasSubstr("g.attr:3"));
  EXPECT_THAT(error_of(p7), HasSubstr("invalid UTF-8"));
  const auto p8 = dir.write("h.attr", "attribute x\ngroups a b\nactive A B\nnoun c\n");
  EXPECT_THAT(error_of(p8), HasSubstr("h.attr:4"));
  EXPECT_THAT(error_of(p8), HasSubstr("expected 2 fields after 'noun'"));
  const auto p9 = dir.write("i.attr", "attribute x\ngroups a b\nactive A B\nexcept\n");
  EXPECT_THAT(error_of(p9), HasSubstr("i.attr:4"));
  EXPECT_THAT(error_of(p9), HasSubstr("expected at least one word after 'except'"));
  const auto p10 = dir.write("j.attr", "attribute x\ngroups a b\nactive A B\nnames c male Al\n");
  EXPECT_THAT(error_of(p10), HasSubstr("j.attr:4:7: unknown group 'c' after 'names'"));
  const auto p11 = dir.write("k.attr", "attribute x\ngroups a b\nactive A B\nnames a boy Al\n");
  EXPECT_THAT(error_of(p11), HasSubstr("k.attr:4:9: expected female or male, got 'boy'"));
  const auto p12 = dir.write("l.attr", "attribute x\ngroups a b\nactive A B\nnames a male\n");
  EXPECT_THAT(error_of(p12), HasSubstr("expected 'names GROUP female|male NAME...'"));
  EXPECT_THROW(load_attribute("caste", testing::kAttributes), core::UsageError);
}

}  // namespace
}  // namespace assay::fairness
