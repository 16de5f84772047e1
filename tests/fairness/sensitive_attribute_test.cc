#include "fairness/sensitive_attribute.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "core/error.h"
#include "fairness_test_support.h"
#include "support/temp_dir.h"

namespace assay::fairness {
namespace {

using ::testing::HasSubstr;

// A file of two groups a and b (lines 1–3) followed by `rows`.
std::string two_groups(const std::string& rows) {
  return "attribute x\ngroups a b\nactive A B\n" + rows;
}

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
    EXPECT_GE(a.targets, 2u) << name;
    for (std::size_t g = 0; g < a.targets; ++g) EXPECT_FALSE(a.groups[g].active.empty()) << name;
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
  // An attribute file (--name-groups) is a file or a shipped file's name; gender is neither.
  EXPECT_EQ(attribute_file_path("race", "D"), "D/race.attr");
  const auto file_error = [](const std::string& name) {
    try {
      attribute_file_path(name, testing::kAttributes);
    } catch (const core::UsageError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_THAT(file_error("gender"), HasSubstr("(gender is built in, not a file)"));
  EXPECT_THAT(file_error("caste"), HasSubstr("'caste' is neither a file nor one of religion,"));
}

// Every row the perturbator could read two ways is refused where it stands: a word given for
// two groups would be replaced by itself or moved into the wrong group, an empty word inserts
// nothing.
TEST(SensitiveAttribute, AmbiguousFilesNameFileAndLine) {
  assay::testing::TempDir dir;
  auto error = [&](const std::string& name, const std::string& content) {
    return error_of(dir.write(name, content));
  };
  // A word mapped to itself, within a row and across rows.
  EXPECT_THAT(error("m1.attr", two_groups("member priest priest\n")),
              HasSubstr("m1.attr:4:15: 'priest' is given for groups a and b: it would be "
                        "replaced by itself"));
  EXPECT_THAT(error("m2.attr", two_groups("member priest imam\n# c\nmember imam priest\n")),
              HasSubstr("m2.attr:6:8: 'imam' stands for group a here and for group b on line 4: "
                        "a word may stand for one group only"));
  EXPECT_THAT(error("m3.attr", two_groups("anchor man man\n")),
              HasSubstr("m3.attr:4:12: 'man' is given for groups a and b"));
  // Group words of every kind share one table, case and hyphens aside.
  EXPECT_THAT(error("g1.attr", two_groups("noun b -\n")),
              HasSubstr("g1.attr:4:6: 'b' stands for group a here and for group b on line 3"));
  EXPECT_THAT(error("g2.attr", two_groups("adjective Afro-Cuban -\nplural - afro_cuban\n")),
              HasSubstr("g2.attr:5:10: 'afro_cuban' stands for group b here and for group a on "
                        "line 4"));
  EXPECT_THAT(error("g3.attr", two_groups("adjective Gray gray\n")),
              HasSubstr("g3.attr:4:16: 'gray' is given for groups a and b"));
  // Empty words and rows that give none.
  EXPECT_THAT(error("e1.attr", "attribute x\ngroups a b\nactive _ B\n"),
              HasSubstr("e1.attr:3:8: expected a word, got '_' ('_' stands for a space between "
                        "two words)"));
  EXPECT_THAT(error("e2.attr", two_groups("adjective Afro_ -\n")),
              HasSubstr("e2.attr:4:11: expected a word, got 'Afro_'"));
  EXPECT_THAT(error("e3.attr", two_groups("noun a__b -\n")),
              HasSubstr("e3.attr:4:6: expected a word, got 'a__b'"));
  EXPECT_THAT(error("e4.attr", two_groups("adjective - -\n")),
              HasSubstr("e4.attr:4:1: this 'adjective' row gives no word (every field is '-')"));
  EXPECT_THAT(error("e5.attr", two_groups("except old_friend -\n")),
              HasSubstr("e5.attr:4:19: expected a word, got '-'"));
  EXPECT_THAT(error("e6.attr", two_groups("names a female Ann -\n")),
              HasSubstr("e6.attr:4:20: expected a first name, got '-'"));
  // Groups: one name each, case aside.
  EXPECT_THAT(error("n1.attr", "attribute x\ngroups a b A\n"),
              HasSubstr("n1.attr:2:12: group 'A' listed twice"));
  EXPECT_THAT(error("n2.attr", "attribute x\ngroups a -\n"),
              HasSubstr("n2.attr:2:10: expected a group name, got '-'"));
  EXPECT_THAT(error("n3.attr", two_groups("active B A\n")),
              HasSubstr("n3.attr:4:1: 'active' given twice"));
  // Associated words: one row each, and a row must change something.
  EXPECT_THAT(error("a1.attr", two_groups("associated church church\n")),
              HasSubstr("a1.attr:4:1: every word of this 'associated' row is 'church': it would "
                        "be replaced by itself"));
  EXPECT_THAT(error("a2.attr", two_groups("associated church mosque\nassociated - church\n")),
              HasSubstr("a2.attr:5:14: 'church' is an associated word on line 4 already"));
  // First names: one group and gender each.
  EXPECT_THAT(error("f1.attr", two_groups("names a female Ann\nnames b male ANN\n")),
              HasSubstr("f1.attr:5:14: first name 'ANN' is listed on line 4 already (a, female): "
                        "a name may stand for one group and gender only"));
  EXPECT_THAT(error("f2.attr", two_groups("names a male Al Bo Al\n")),
              HasSubstr("f2.attr:4:20: first name 'Al' is listed in this row already (a, male)"));

  // What stays allowed: a word repeated for its own group (the first row gives its
  // counterparts), an associated word shared by some groups of its row, one-word member rows.
  const auto ok = dir.write("ok.attr",
                            "attribute x\ngroups a b c\nactive A B C\nadjective A - -\n"
                            "member priest imam -\nmember pastor imam -\nmember child - -\n"
                            "associated church temple temple\n");
  const auto a = read_attribute_file(ok);
  ASSERT_EQ(a.members.size(), 3u);
  EXPECT_EQ(a.find_member("imam")->row, 0u);
  ASSERT_EQ(a.associated.size(), 1u);
  EXPECT_EQ(a.associated[0][2], "temple");
}

// Source groups: recognised where a text names them, never a target. Their words join the
// group words (one table with the targets'), their fields of the aligned rows are empty.
TEST(SensitiveAttribute, SourceGroupsAreNamedButNeverTargets) {
  assay::testing::TempDir dir;
  const auto a = read_attribute_file(dir.write(
      "s.attr", two_groups("noun Ay Be\nmember priest imam\nsource kenyan Kenyan Kenyan -\n"
                           "source swiss Swiss - Swiss\nsource icelander - Icelander -\n")));
  EXPECT_EQ(a.targets, 2u);
  ASSERT_EQ(a.groups.size(), 5u);
  EXPECT_EQ(a.groups[2].name, "kenyan");
  EXPECT_EQ(a.groups[2].active, "Kenyan");
  EXPECT_EQ(a.groups[4].active, "");  // a noun only
  ASSERT_EQ(a.nouns.size(), 2u);      // the file's row, then the source groups' nouns
  EXPECT_EQ(a.nouns[0], (std::vector<std::string>{"Ay", "Be", "", "", ""}));
  EXPECT_EQ(a.nouns[1], (std::vector<std::string>{"", "", "Kenyan", "", "Icelander"}));
  ASSERT_EQ(a.plurals.size(), 1u);
  EXPECT_EQ(a.plurals[0][3], "Swiss");
  EXPECT_EQ(a.members[0].size(), 5u);
  EXPECT_TRUE(a.is_attribute_word("kenyan"));

  // The shipped nationality file: seven targets, every other sovereign state's demonym.
  const auto nationality = load_attribute("nationality", testing::kAttributes);
  EXPECT_EQ(nationality.targets, 7u);
  EXPECT_GE(nationality.groups.size(), 180u);

  auto error = [&](const std::string& name, const std::string& content) {
    return error_of(dir.write(name, content));
  };
  EXPECT_THAT(error("s1.attr", "attribute x\nsource k Kenyan - -\n"),
              HasSubstr("s1.attr:2:1: expected 'groups' before 'source'"));
  EXPECT_THAT(error("s2.attr", two_groups("source k Kenyan -\n")),
              HasSubstr("s2.attr:4:1: expected 'source GROUP ADJECTIVE NOUN PLURAL'"));
  EXPECT_THAT(error("s3.attr", two_groups("source k - - -\n")),
              HasSubstr("s3.attr:4:1: this 'source' row gives no word"));
  EXPECT_THAT(error("s4.attr", two_groups("source B Kenyan - -\n")),
              HasSubstr("s4.attr:4:8: group 'B' listed twice"));
  EXPECT_THAT(error("s5.attr", two_groups("source k - b -\n")),
              HasSubstr("s5.attr:4:12: 'b' stands for group b on line 3 already"));
  EXPECT_THAT(error("s6.attr", two_groups("source k Kenyan - -\nnoun Ay Be\n")),
              HasSubstr("s6.attr:5:1: 'noun' after a 'source' row (the source rows come last)"));
  EXPECT_THAT(error("s7.attr", two_groups("source k Kenyan_ - -\n")),
              HasSubstr("s7.attr:4:10: expected a word, got 'Kenyan_'"));
}

// The command refuses a degenerate file before it perturbs anything: exit 2, file:line, no
// output.
TEST(SensitiveAttribute, CommandRefusesADegenerateFile) {
  assay::testing::TempDir dir;
  const auto in = dir.write("in.txt", "The priest spoke.\n");
  const auto attr = dir.write("deg.attr", two_groups("member priest priest\n"));
  const auto out = dir.file("out.jsonl");
  const auto r = assay::testing::run_assay(
      dir, "fair perturb --input " + in + " --attribute " + attr + " --out " + out);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("deg.attr:4:15: 'priest' is given for groups a and b"));
  EXPECT_EQ(r.out, "");
  EXPECT_FALSE(std::filesystem::exists(out));
}

}  // namespace
}  // namespace assay::fairness
