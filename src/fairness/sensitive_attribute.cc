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

SensitiveAttribute read_attribute_file(const std::string& path) {
  core::LineReader reader(path);
  SensitiveAttribute a;
  a.source = path;
  bool have_active = false;
  // Group words (active, adjective, noun, plural), member nouns and anchors → group; associated
  // words → row; first names → group and gender.
  Claims group_words, members, anchors, associated, names;
  // Adjective, noun and plural of each `source` row ("" for "-").
  std::vector<std::vector<std::string>> source_forms;
  std::string_view line;
  std::vector<core::Field> fields;
  while (reader.next(line)) {
    core::split_fields(line, fields);
    if (fields.empty() || fields[0].text.front() == '#') continue;
    const std::string_view key = fields[0].text;
    const std::size_t n_values = fields.size() - 1;
    auto fail_at = [&](std::size_t i, const std::string& what) {
      throw core::ParseError(reader.location(fields[i].column), what);
    };
    auto fail = [&](const std::string& what) { fail_at(0, what); };
    auto check_word = [&](std::size_t i) {
      const std::string_view f = fields[i].text;
      if (f == "-" || !is_word(field_word(f))) {
        fail_at(i, "expected a word, got '" + std::string(f) + "'" +
                       (f.find('_') == std::string_view::npos
                            ? ""
                            : " ('_' stands for a space between two words)"));
      }
    };
    auto where = [&](const Claim& earlier) {
      return earlier.line == reader.line_number() ? std::string("in this row")
                                                  : "on line " + std::to_string(earlier.line);
    };
    if (key == "attribute") {
      if (!a.name.empty()) fail("'attribute' given twice");
      if (n_values != 1) fail("expected one name after 'attribute'");
      a.name = std::string(fields[1].text);
      continue;
    }
    if (a.name.empty()) fail("expected 'attribute NAME' first, got '" + std::string(key) + "'");
    if (key == "groups") {
      if (!a.groups.empty()) fail("'groups' given twice");
      if (n_values < 2) fail("expected at least two group names after 'groups'");
      std::set<std::string> seen;
      for (std::size_t i = 1; i < fields.size(); ++i) {
        const std::string name(fields[i].text);
        if (name == "-") fail_at(i, "expected a group name, got '-'");
        if (!seen.insert(text::to_lower(name)).second)
          fail_at(i, "group '" + name + "' listed twice");
        a.groups.push_back({name, "", {}, {}, {}});
      }
      a.targets = a.groups.size();
      continue;
    }
    if (key == "source") {
      if (a.groups.empty()) fail("expected 'groups' before 'source'");
      if (n_values != 4) fail("expected 'source GROUP ADJECTIVE NOUN PLURAL' ('-' for none)");
      const std::string group(fields[1].text);
      if (group == "-") fail_at(1, "expected a group name, got '-'");
      for (const auto& g : a.groups) {
        if (text::to_lower(g.name) == text::to_lower(group))
          fail_at(1, "group '" + group + "' listed twice");
      }
      const std::size_t owner = a.groups.size();
      a.groups.push_back({group, "", {}, {}, {}});
      source_forms.emplace_back(3);
      for (std::size_t i = 2; i < 5; ++i) {
        if (fields[i].text == "-") continue;
        check_word(i);
        if (const auto earlier =
                claim(group_words, group_word_key(fields[i].text), owner, reader.line_number()))
          fail_at(i, quoted(fields[i].text) + " stands for group " + a.groups[earlier->owner].name +
                         " " + where(*earlier) + " already: a word may stand for one group only");
        source_forms.back()[i - 2] = field_word(fields[i].text);
      }
      if (fields[2].text == "-" && fields[3].text == "-" && fields[4].text == "-")
        fail("this 'source' row gives no word (adjective, noun and plural are '-')");
      continue;
    }
    if (key == "names") {
      if (a.groups.empty()) fail("expected 'groups' before 'names'");
      if (n_values < 3) fail("expected 'names GROUP female|male NAME...'");
      const std::string group(fields[1].text);
      auto it = std::find_if(a.groups.begin(), a.groups.end(),
                             [&](const AttributeGroup& g) { return g.name == group; });
      if (it == a.groups.end()) fail_at(1, "unknown group '" + group + "' after 'names'");
      const std::string_view gender = fields[2].text;
      if (gender != "female" && gender != "male")
        fail_at(2, "expected female or male, got '" + std::string(gender) + "'");
      const std::size_t owner =
          static_cast<std::size_t>(it - a.groups.begin()) * 2 + (gender == "female" ? 1 : 0);
      auto& list = gender == "female" ? it->female_names : it->male_names;
      for (std::size_t i = 3; i < fields.size(); ++i) {
        if (fields[i].text == "-") fail_at(i, "expected a first name, got '-'");
        const std::string name(fields[i].text);
        const auto [seen, fresh] =
            names.try_emplace(text::to_lower(name), Claim{owner, reader.line_number()});
        if (!fresh) {
          const Claim& earlier = seen->second;
          fail_at(i, "first name '" + name + "' is listed " + where(earlier) + " already (" +
                         a.groups[earlier.owner / 2].name + ", " +
                         (earlier.owner % 2 ? "female" : "male") +
                         "): a name may stand for one group and gender only");
        }
        list.push_back(name);
      }
      continue;
    }
    if (key == "except" || key == "exempt" || key == "other") {
      if (n_values == 0) fail("expected at least one word after '" + std::string(key) + "'");
      auto& list = key == "except" ? a.excepts : key == "exempt" ? a.exempt : a.others;
      for (std::size_t i = 1; i < fields.size(); ++i) {
        check_word(i);
        list.push_back(text::to_lower(field_word(fields[i].text)));
      }
      continue;
    }
    if (key != "active" && key != "anchor" && key != "member" && key != "adjective" &&
        key != "noun" && key != "plural" && key != "associated") {
      fail("unknown keyword '" + std::string(key) +
           "' (expected attribute, groups, active, adjective, noun, plural, member, associated, "
           "anchor, names, except, other, exempt or source)");
    }
    if (a.groups.empty()) fail("expected 'groups' before '" + std::string(key) + "'");
    if (!source_forms.empty())
      fail("'" + std::string(key) + "' after a 'source' row (the source rows come last)");
    if (n_values != a.groups.size()) {
      fail("expected " + std::to_string(a.groups.size()) + " fields after '" + std::string(key) +
           "' (one per group), got " + std::to_string(n_values));
    }
    if (key == "active" && have_active) fail("'active' given twice");
    std::size_t n_words = 0;
    std::set<std::string> distinct;
    for (std::size_t g = 0; g < a.groups.size(); ++g) {
      const std::size_t i = g + 1;
      if (fields[i].text == "-") {
        if (key == "active") fail_at(i, "every group needs an active adjective");
        continue;
      }
      check_word(i);
      ++n_words;
      const std::string lower = text::to_lower(field_word(fields[i].text));
      distinct.insert(lower);
      if (key == "associated") {
        if (const auto earlier =
                claim(associated, lower, a.associated.size(), reader.line_number()))
          fail_at(i, quoted(fields[i].text) + " is an associated word on line " +
                         std::to_string(earlier->line) +
                         " already: a word may stand in one 'associated' row only");
        continue;
      }
      Claims& claims = key == "member" ? members : key == "anchor" ? anchors : group_words;
      const auto earlier =
          claim(claims, key == "member" || key == "anchor" ? lower : group_word_key(fields[i].text),
                g, reader.line_number());
      if (!earlier) continue;
      if (earlier->line == reader.line_number()) {
        fail_at(i, quoted(fields[i].text) + " is given for groups " +
                       a.groups[earlier->owner].name + " and " + a.groups[g].name +
                       ": it would be replaced by itself (write '-' where a group has no word "
                       "of its own)");
      }
      fail_at(i, quoted(fields[i].text) + " stands for group " + a.groups[g].name +
                     " here and for group " + a.groups[earlier->owner].name + " " +
                     where(*earlier) + ": a word may stand for one group only");
    }
    if (n_words == 0)
      fail("this '" + std::string(key) + "' row gives no word (every field is '-')");
    if (key == "associated" && n_words > 1 && distinct.size() == 1) {
      fail("every word of this 'associated' row is '" + *distinct.begin() +
           "': it would be replaced by itself");
    }
    if (key == "active") {
      have_active = true;
      for (std::size_t g = 0; g < a.groups.size(); ++g)
        a.groups[g].active = field_word(fields[g + 1].text);
    } else if (key == "anchor") {
      for (std::size_t g = 0; g < a.groups.size(); ++g) {
        if (fields[g + 1].text != "-")
          a.groups[g].anchors.push_back(text::to_lower(field_word(fields[g + 1].text)));
      }
    } else if (key == "member" || key == "associated") {
      std::vector<std::string> row;
      for (std::size_t g = 0; g < a.groups.size(); ++g) {
        row.push_back(fields[g + 1].text == "-" ? std::string()
                                                : text::to_lower(field_word(fields[g + 1].text)));
      }
      (key == "member" ? a.members : a.associated).push_back(std::move(row));
    } else {
      // Group words keep their spelling (the case a word takes in normally cased text).
      std::vector<std::string> row;
      for (std::size_t g = 0; g < a.groups.size(); ++g)
        row.push_back(fields[g + 1].text == "-" ? std::string() : field_word(fields[g + 1].text));
      auto& rows = key == "adjective" ? a.adjectives : key == "noun" ? a.nouns : a.plurals;
      rows.push_back(std::move(row));
    }
  }
  if (a.name.empty()) throw core::ParseError(core::SourceLocation(path), "empty attribute file");
  if (a.groups.empty()) throw core::ParseError(core::SourceLocation(path), "no 'groups' row");
  if (!have_active) throw core::ParseError(core::SourceLocation(path), "no 'active' row");
  add_source_groups(a, source_forms);
  return a;
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
