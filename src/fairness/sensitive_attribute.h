// SensitiveAttribute: the attribute A of the MT-NLP perturbator (../shared/spec/fairness.md) —
// its subpopulations (groups), the adjective ActiveMutate inserts for each group ("female
// actor"), the anchor words whose vectors stand for each group in AnalogyMutate (man / woman,
// christianity / islam), and member nouns aligned across groups (priest / imam / rabbi) that
// make a noun non-neutral and serve as counterparts when no word vectors are given.
//
// Gender is built in (gender_attribute()); it gets its counterparts from the knowledge graph's
// GenderCounterpartFinder. Every other attribute is a text file (docs/fairness.md, shipped
// examples in data/attributes/):
//
//   # comment                          blank lines and '#' comments are ignored
//   attribute religion                 the name (once, first)
//   groups christian muslim jewish     two or more group names (once)
//   active Christian Muslim Jewish     one adjective per group (once, required)
//   anchor christianity islam judaism  one anchor word per group (any number of rows)
//   member priest imam rabbi           aligned member nouns, "-" for none (any number of rows)
//   adjective Christian Muslim Jewish  group words (group_words.h): adjectives, singular nouns
//   noun Christian Muslim Jew          and plural nouns naming each group, aligned, "-" for
//   plural Christians Muslims Jews     none (any number of rows; `active` is an adjective too)
//   associated church mosque synagogue words that change with the group in a text that names
//                                      one (any number of rows)
//   except old_friend old_flame        phrases whose group word names no group (any number)
//   other African_American             phrases naming people by a group of another kind: no
//                                      group here, and no inserted adjective in their text
//   exempt child kid                   person nouns that take no inserted adjective (any number)
//   names white female Emily Anne      first names associated with a group, by gender (any
//                                      number of rows; group words, docs/fairness.md)
//   source polish Polish - -           a group that texts are perturbed from, never to: its
//                                      name, adjective, singular noun and plural ("-" for
//                                      none; after every aligned row, any number of rows)
//
// A row has exactly one field per group; "_" inside a field stands for a space
// (African_American). Words are matched case-insensitively; the active adjective is inserted as
// written (capitalised at the start of a sentence).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace assay::fairness {

struct AttributeGroup {
  std::string name;
  std::string active;                // adjective inserted by ActiveMutate
  std::vector<std::string> anchors;  // vector anchors (first row first)
  // First names associated with the group (`names` rows), as written, by gender.
  std::vector<std::string> female_names, male_names;
};

struct SensitiveAttribute {
  std::string name;
  // The groups of the `groups` row, then those of the `source` rows.
  std::vector<AttributeGroup> groups;
  // Groups [0, targets) are the ones a perturbation moves a text to (the `groups` row); the
  // rest, of `source` rows, are recognised where a text names them and only moved from ("A
  // Kenyan runner" -> "An American runner"). Their fields in the aligned rows are empty.
  std::size_t targets = 0;
  // members[row][group]: aligned member nouns, lower case; empty string for "-".
  std::vector<std::vector<std::string>> members;
  // Group words, as written in the file ("" for "-"): rows[row][group]. The active adjectives
  // are group words too (group_words.h adds them as the first adjective row).
  std::vector<std::vector<std::string>> adjectives, nouns, plurals;
  // Words that change with the group in a text that names one (church / mosque / synagogue),
  // lower case, "" for "-": associated[row][group].
  std::vector<std::vector<std::string>> associated;
  // Lower-case phrases in which a group word names no group ("old friend").
  std::vector<std::string> excepts;
  // Lower-case phrases that name people by a group this attribute does not swap ("african
  // american" for nationality): their group word names no group, like an `except`, and a text
  // that has one takes no inserted adjective, which could contradict it.
  std::vector<std::string> others;
  // Person nouns (lemmas, lower case) that take no inserted adjective of this attribute
  // ("child" for sexual orientation).
  std::vector<std::string> exempt;
  // Gender: counterparts and neutrality come from the knowledge graph's gender finder.
  bool uses_gender_finder = false;
  std::string source;  // "built-in" or the file path

  // Index of the group whose member (lower-case lemma) `noun` is, and the row, if any.
  struct MemberHit {
    std::size_t row = 0, group = 0;
  };
  std::optional<MemberHit> find_member(std::string_view noun) const;
  // Whether `word` (any case) is one of the groups' active adjectives or names.
  bool is_attribute_word(std::string_view word) const;
  // The group and gender of a first name of the `names` rows (any case), if listed.
  struct NameHit {
    std::size_t group = 0;
    bool female = false;
  };
  std::optional<NameHit> find_name(std::string_view first_name) const;
  bool has_names() const;
};

// The built-in gender attribute: groups male / female, adjectives male / female, anchors
// man / woman.
SensitiveAttribute gender_attribute();

// Reads an attribute file. Throws core::IoError when it cannot be read and core::ParseError
// naming file:line:column for a malformed or ambiguous one (unknown keyword, wrong field count,
// missing or repeated rows, fewer than two groups, duplicate group names, an empty word, a row
// of '-' only, a word given for two groups or mapped to itself, an associated word in two rows,
// a first name listed twice), so that no perturbation leaves its text unchanged.
SensitiveAttribute read_attribute_file(const std::string& path);

// "gender" → the built-in; an existing file path → read_attribute_file; otherwise a shipped
// name (religion, sexual-orientation, race, nationality, age) looked up as
// `<data_dir>/<name>.attr`. Throws core::UsageError naming the choices when nothing matches.
SensitiveAttribute load_attribute(const std::string& name_or_path, const std::string& data_dir);
// The file load_attribute reads for `name_or_path` (not "gender"): the path itself when it is a
// file, else the shipped file of that name. Throws core::UsageError as load_attribute does.
std::string attribute_file_path(const std::string& name_or_path, const std::string& data_dir);

// The directory of the shipped attribute files (the repository's data/attributes).
std::string default_attribute_dir();

}  // namespace assay::fairness
