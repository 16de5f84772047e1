#include "fairness/sensitive_attribute.h"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <set>
#include <unordered_map>

#include "core/error.h"
#include "core/fields.h"
#include "core/line_reader.h"
#include "text/unicode_props.h"

#ifndef ASSAY_ATTRIBUTE_DIR
#define ASSAY_ATTRIBUTE_DIR "data/attributes"
#endif

namespace assay::fairness {
namespace {

// A word between single quotes, for messages (built by appending: GCC 12 -O3 warns, wrongly,
// about "'" + std::string(...)).
std::string quoted(std::string_view w) {
  std::string out(1, '\'');
  out.append(w);
  out.push_back('\'');
  return out;
}

const char* const kShipped[] = {"religion", "sexual-orientation", "race", "nationality", "age"};

std::string field_word(std::string_view field) {
  std::string w(field);
  std::replace(w.begin(), w.end(), '_', ' ');
  return w;
}

// "_" alone, at an end or doubled stands for no word between two spaces.
bool is_word(std::string_view word) {
  return !word.empty() && word.front() != ' ' && word.back() != ' ' &&
         word.find("  ") == std::string_view::npos;
}

// Group words match ignoring case, and a hyphen matches a space ("African-American").
std::string group_word_key(std::string_view field) {
  std::string key = text::to_lower(field_word(field));
  std::replace(key.begin(), key.end(), '-', ' ');
  return key;
}

// Which group (or, for associated words, which row) each word of one kind stands for, with the
// line that first gave it. The perturbator looks a word up in one table per kind and takes the
// first entry, so a word given for two groups would be replaced by itself ("member priest
// priest") or moved into the wrong group.
struct Claim {
  std::size_t owner = 0;
  std::uint64_t line = 0;
};
using Claims = std::unordered_map<std::string, Claim>;

// Records that `key` stands for `owner`; returns the earlier claim when another owner has it.
std::optional<Claim> claim(Claims& claims, std::string key, std::size_t owner, std::uint64_t line) {
  const auto [it, fresh] = claims.try_emplace(std::move(key), Claim{owner, line});
  if (fresh || it->second.owner == owner) return std::nullopt;
  return it->second;
}

}  // namespace

std::optional<SensitiveAttribute::MemberHit> SensitiveAttribute::find_member(
    std::string_view noun) const {
  const std::string lower = text::to_lower(noun);
  for (std::size_t r = 0; r < members.size(); ++r) {
    for (std::size_t g = 0; g < members[r].size(); ++g) {
      if (!members[r][g].empty() && members[r][g] == lower) return MemberHit{r, g};
    }
  }
  return std::nullopt;
}

bool SensitiveAttribute::is_attribute_word(std::string_view word) const {
  const std::string lower = text::to_lower(word);
  for (const auto& g : groups) {
    if (text::to_lower(g.active) == lower || text::to_lower(g.name) == lower) return true;
  }
  return false;
}

std::optional<SensitiveAttribute::NameHit> SensitiveAttribute::find_name(
    std::string_view first_name) const {
  const std::string lower = text::to_lower(first_name);
  for (std::size_t g = 0; g < groups.size(); ++g) {
    for (const bool female : {true, false}) {
      for (const auto& n : female ? groups[g].female_names : groups[g].male_names) {
        if (text::to_lower(n) == lower) return NameHit{g, female};
      }
    }
  }
  return std::nullopt;
}

bool SensitiveAttribute::has_names() const {
  return std::any_of(groups.begin(), groups.end(), [](const AttributeGroup& g) {
    return !g.female_names.empty() || !g.male_names.empty();
  });
}

SensitiveAttribute gender_attribute() {
  SensitiveAttribute a;
  a.name = "gender";
  a.groups = {{"male", "male", {"man"}, {}, {}}, {"female", "female", {"woman"}, {}, {}}};
  a.targets = 2;
  a.uses_gender_finder = true;
  a.source = "built-in";
  return a;
}

namespace {

// The source groups' fields of the aligned rows are empty. A source group's adjective is its
// active adjective (never inserted, since only targets are, but the word that names it); its
// noun and plural go to one more noun and plural row (where some source group has one).
void add_source_groups(SensitiveAttribute& a,
                       const std::vector<std::vector<std::string>>& source_forms) {
  if (source_forms.empty()) return;
  const std::size_t n = a.groups.size();
  for (auto* table : {&a.adjectives, &a.nouns, &a.plurals, &a.members, &a.associated})
    for (auto& row : *table) row.resize(n);
  std::vector<std::string> nouns(n), plurals(n);
  for (std::size_t k = 0; k < source_forms.size(); ++k) {
    const std::size_t g = a.targets + k;
    a.groups[g].active = source_forms[k][0];
    nouns[g] = source_forms[k][1];
    plurals[g] = source_forms[k][2];
  }
  const auto has_word = [](const std::vector<std::string>& row) {
    return std::any_of(row.begin(), row.end(), [](const std::string& w) { return !w.empty(); });
  };
  if (has_word(nouns)) a.nouns.push_back(std::move(nouns));
  if (has_word(plurals)) a.plurals.push_back(std::move(plurals));
}

}  // namespace

namespace {

// An attribute file read row by row: each keyword's row by its own member, the claims that keep
// a word to one group (and a first name to one group and gender) across rows.
class AttributeFileReader {
 public:
  explicit AttributeFileReader(const std::string& path) : reader_(path) { a_.source = path; }
  SensitiveAttribute read();

 private:
  [[noreturn]] void fail_at(std::size_t i, const std::string& what) const {
    throw core::ParseError(reader_.location(fields_[i].column), what);
  }
  [[noreturn]] void fail(const std::string& what) const { fail_at(0, what); }
  void check_word(std::size_t i) const {
    const std::string_view f = fields_[i].text;
    if (f == "-" || !is_word(field_word(f))) {
      fail_at(i, "expected a word, got '" + std::string(f) + "'" +
                     (f.find('_') == std::string_view::npos
                          ? ""
                          : " ('_' stands for a space between two words)"));
    }
  }
  std::string where(const Claim& earlier) const {
    return earlier.line == reader_.line_number() ? std::string("in this row")
                                                 : "on line " + std::to_string(earlier.line);
  }
  void read_groups();
  void read_source();
  void read_names();
  void read_word_list(std::string_view key);
  void read_group_row(std::string_view key);
  // Claims field i's word (of group g) in a row of `key`; fails when it stands elsewhere.
  void claim_group_word(std::string_view key, std::size_t i, std::size_t g,
                        const std::string& lower);
  void store_group_row(std::string_view key);

  core::LineReader reader_;
  std::vector<core::Field> fields_;
  SensitiveAttribute a_;
  bool have_active_ = false;
  // Group words (active, adjective, noun, plural), member nouns and anchors → group; associated
  // words → row; first names → group and gender.
  Claims group_words_, members_, anchors_, associated_, names_;
  // Adjective, noun and plural of each `source` row ("" for "-").
  std::vector<std::vector<std::string>> source_forms_;
};

void AttributeFileReader::read_groups() {
  if (!a_.groups.empty()) fail("'groups' given twice");
  if (fields_.size() < 3) fail("expected at least two group names after 'groups'");
  std::set<std::string> seen;
  for (std::size_t i = 1; i < fields_.size(); ++i) {
    const std::string name(fields_[i].text);
    if (name == "-") fail_at(i, "expected a group name, got '-'");
    if (!seen.insert(text::to_lower(name)).second) fail_at(i, "group '" + name + "' listed twice");
    a_.groups.push_back({name, "", {}, {}, {}});
  }
  a_.targets = a_.groups.size();
}

void AttributeFileReader::read_source() {
  if (a_.groups.empty()) fail("expected 'groups' before 'source'");
  if (fields_.size() != 5) fail("expected 'source GROUP ADJECTIVE NOUN PLURAL' ('-' for none)");
  const std::string group(fields_[1].text);
  if (group == "-") fail_at(1, "expected a group name, got '-'");
  for (const auto& g : a_.groups) {
    if (text::to_lower(g.name) == text::to_lower(group))
      fail_at(1, "group '" + group + "' listed twice");
  }
  const std::size_t owner = a_.groups.size();
  a_.groups.push_back({group, "", {}, {}, {}});
  source_forms_.emplace_back(3);
  for (std::size_t i = 2; i < 5; ++i) {
    if (fields_[i].text == "-") continue;
    check_word(i);
    if (const auto earlier =
            claim(group_words_, group_word_key(fields_[i].text), owner, reader_.line_number()))
      fail_at(i, quoted(fields_[i].text) + " stands for group " + a_.groups[earlier->owner].name +
                     " " + where(*earlier) + " already: a word may stand for one group only");
    source_forms_.back()[i - 2] = field_word(fields_[i].text);
  }
  if (fields_[2].text == "-" && fields_[3].text == "-" && fields_[4].text == "-")
    fail("this 'source' row gives no word (adjective, noun and plural are '-')");
}

void AttributeFileReader::read_names() {
  if (a_.groups.empty()) fail("expected 'groups' before 'names'");
  if (fields_.size() < 4) fail("expected 'names GROUP female|male NAME...'");
  const std::string group(fields_[1].text);
  auto it = std::find_if(a_.groups.begin(), a_.groups.end(),
                         [&](const AttributeGroup& g) { return g.name == group; });
  if (it == a_.groups.end()) fail_at(1, "unknown group '" + group + "' after 'names'");
  const std::string_view gender = fields_[2].text;
  if (gender != "female" && gender != "male")
    fail_at(2, "expected female or male, got '" + std::string(gender) + "'");
  const std::size_t owner =
      static_cast<std::size_t>(it - a_.groups.begin()) * 2 + (gender == "female" ? 1 : 0);
  auto& list = gender == "female" ? it->female_names : it->male_names;
  for (std::size_t i = 3; i < fields_.size(); ++i) {
    if (fields_[i].text == "-") fail_at(i, "expected a first name, got '-'");
    const std::string name(fields_[i].text);
    const auto [seen, fresh] =
        names_.try_emplace(text::to_lower(name), Claim{owner, reader_.line_number()});
    if (!fresh) {
      const Claim& earlier = seen->second;
      fail_at(i, "first name '" + name + "' is listed " + where(earlier) + " already (" +
                     a_.groups[earlier.owner / 2].name + ", " +
                     (earlier.owner % 2 ? "female" : "male") +
                     "): a name may stand for one group and gender only");
    }
    list.push_back(name);
  }
}

void AttributeFileReader::read_word_list(std::string_view key) {
  if (fields_.size() == 1) fail("expected at least one word after '" + std::string(key) + "'");
  auto& list = key == "except" ? a_.excepts : key == "exempt" ? a_.exempt : a_.others;
  for (std::size_t i = 1; i < fields_.size(); ++i) {
    check_word(i);
    list.push_back(text::to_lower(field_word(fields_[i].text)));
  }
}

void AttributeFileReader::claim_group_word(std::string_view key, std::size_t i, std::size_t g,
                                           const std::string& lower) {
  if (key == "associated") {
    if (const auto earlier = claim(associated_, lower, a_.associated.size(), reader_.line_number()))
      fail_at(i, quoted(fields_[i].text) + " is an associated word on line " +
                     std::to_string(earlier->line) +
                     " already: a word may stand in one 'associated' row only");
    return;
  }
  Claims& claims = key == "member" ? members_ : key == "anchor" ? anchors_ : group_words_;
  const auto earlier =
      claim(claims, key == "member" || key == "anchor" ? lower : group_word_key(fields_[i].text), g,
            reader_.line_number());
  if (!earlier) return;
  if (earlier->line == reader_.line_number()) {
    fail_at(i, quoted(fields_[i].text) + " is given for groups " + a_.groups[earlier->owner].name +
                   " and " + a_.groups[g].name +
                   ": it would be replaced by itself (write '-' where a group has no word of "
                   "its own)");
  }
  fail_at(i, quoted(fields_[i].text) + " stands for group " + a_.groups[g].name +
                 " here and for group " + a_.groups[earlier->owner].name + " " + where(*earlier) +
                 ": a word may stand for one group only");
}

// A row with one field per group: active, adjective, noun, plural, member, associated, anchor.
void AttributeFileReader::read_group_row(std::string_view key) {
  if (a_.groups.empty()) fail("expected 'groups' before '" + std::string(key) + "'");
  if (!source_forms_.empty())
    fail("'" + std::string(key) + "' after a 'source' row (the source rows come last)");
  const std::size_t n_values = fields_.size() - 1;
  if (n_values != a_.groups.size()) {
    fail("expected " + std::to_string(a_.groups.size()) + " fields after '" + std::string(key) +
         "' (one per group), got " + std::to_string(n_values));
  }
  if (key == "active" && have_active_) fail("'active' given twice");
  std::size_t n_words = 0;
  std::set<std::string> distinct;
  for (std::size_t g = 0; g < a_.groups.size(); ++g) {
    const std::size_t i = g + 1;
    if (fields_[i].text == "-") {
      if (key == "active") fail_at(i, "every group needs an active adjective");
      continue;
    }
    check_word(i);
    ++n_words;
    const std::string lower = text::to_lower(field_word(fields_[i].text));
    distinct.insert(lower);
    claim_group_word(key, i, g, lower);
  }
  if (n_words == 0) fail("this '" + std::string(key) + "' row gives no word (every field is '-')");
  if (key == "associated" && n_words > 1 && distinct.size() == 1) {
    fail("every word of this 'associated' row is '" + *distinct.begin() +
         "': it would be replaced by itself");
  }
  store_group_row(key);
}

void AttributeFileReader::store_group_row(std::string_view key) {
  const auto word = [&](std::size_t g) { return field_word(fields_[g + 1].text); };
  const auto given = [&](std::size_t g) { return fields_[g + 1].text != "-"; };
  if (key == "active") {
    have_active_ = true;
    for (std::size_t g = 0; g < a_.groups.size(); ++g) a_.groups[g].active = word(g);
  } else if (key == "anchor") {
    for (std::size_t g = 0; g < a_.groups.size(); ++g) {
      if (given(g)) a_.groups[g].anchors.push_back(text::to_lower(word(g)));
    }
  } else if (key == "member" || key == "associated") {
    std::vector<std::string> row;
    for (std::size_t g = 0; g < a_.groups.size(); ++g)
      row.push_back(given(g) ? text::to_lower(word(g)) : std::string());
    (key == "member" ? a_.members : a_.associated).push_back(std::move(row));
  } else {
    // Group words keep their spelling (the case a word takes in normally cased text).
    std::vector<std::string> row;
    for (std::size_t g = 0; g < a_.groups.size(); ++g)
      row.push_back(given(g) ? word(g) : std::string());
    auto& rows = key == "adjective" ? a_.adjectives : key == "noun" ? a_.nouns : a_.plurals;
    rows.push_back(std::move(row));
  }
}

SensitiveAttribute AttributeFileReader::read() {
  std::string_view line;
  while (reader_.next(line)) {
    core::split_fields(line, fields_);
    if (fields_.empty() || fields_[0].text.front() == '#') continue;
    const std::string_view key = fields_[0].text;
    if (key == "attribute") {
      if (!a_.name.empty()) fail("'attribute' given twice");
      if (fields_.size() != 2) fail("expected one name after 'attribute'");
      a_.name = std::string(fields_[1].text);
    } else if (a_.name.empty()) {
      fail("expected 'attribute NAME' first, got '" + std::string(key) + "'");
    } else if (key == "groups") {
      read_groups();
    } else if (key == "source") {
      read_source();
    } else if (key == "names") {
      read_names();
    } else if (key == "except" || key == "exempt" || key == "other") {
      read_word_list(key);
    } else if (key == "active" || key == "anchor" || key == "member" || key == "adjective" ||
               key == "noun" || key == "plural" || key == "associated") {
      read_group_row(key);
    } else {
      fail("unknown keyword '" + std::string(key) +
           "' (expected attribute, groups, active, adjective, noun, plural, member, associated, "
           "anchor, names, except, other, exempt or source)");
    }
  }
  const core::SourceLocation file(a_.source);
  if (a_.name.empty()) throw core::ParseError(file, "empty attribute file");
  if (a_.groups.empty()) throw core::ParseError(file, "no 'groups' row");
  if (!have_active_) throw core::ParseError(file, "no 'active' row");
  add_source_groups(a_, source_forms_);
  return std::move(a_);
}

}  // namespace

SensitiveAttribute read_attribute_file(const std::string& path) {
  return AttributeFileReader(path).read();
}

std::string default_attribute_dir() {
  return ASSAY_ATTRIBUTE_DIR;
}

namespace {

// "a, b, c": the shipped attribute files' names, after `first` when given.
std::string shipped_names(const std::string& first) {
  std::string out = first;
  for (const char* name : kShipped) out += (out.empty() ? "" : ", ") + std::string(name);
  return out;
}

// The file `name_or_path` names: itself when it is a file, else the shipped file of that name.
std::optional<std::string> find_attribute_file(const std::string& name_or_path,
                                               const std::string& data_dir) {
  std::error_code ec;
  if (std::filesystem::is_regular_file(name_or_path, ec)) return name_or_path;
  for (const char* name : kShipped) {
    if (name_or_path == name) return data_dir + "/" + name + ".attr";
  }
  return std::nullopt;
}

}  // namespace

std::string attribute_file_path(const std::string& name_or_path, const std::string& data_dir) {
  if (auto path = find_attribute_file(name_or_path, data_dir)) return *path;
  throw core::UsageError("the attribute file '" + name_or_path + "' is neither a file nor one of " +
                         shipped_names("") +
                         (name_or_path == "gender" ? " (gender is built in, not a file)" : ""));
}

SensitiveAttribute load_attribute(const std::string& name_or_path, const std::string& data_dir) {
  if (name_or_path == "gender") return gender_attribute();
  const auto path = find_attribute_file(name_or_path, data_dir);
  if (!path) {
    throw core::UsageError("the attribute '" + name_or_path + "' is neither a file nor one of " +
                           shipped_names("gender"));
  }
  return read_attribute_file(*path);
}

}  // namespace assay::fairness
