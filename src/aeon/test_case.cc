#include "aeon/test_case.h"

#include "aeon/sentence_splitter.h"
#include "core/jsonl.h"
#include "core/line_reader.h"

namespace assay::aeon {

std::vector<TestCase> read_line_pairs(const std::string& original_path,
                                      const std::string& generated_path, bool strip_markers) {
  core::LineReader ori(original_path), gen(generated_path);
  std::vector<TestCase> cases;
  std::string_view a, b;
  while (true) {
    const bool has_a = ori.next(a);
    const bool has_b = gen.next(b);
    if (!has_a && !has_b) break;
    if (has_a != has_b) {
      const core::LineReader& shorter = has_a ? gen : ori;
      throw core::ParseError(core::SourceLocation(shorter.path(), shorter.line_number()),
                             "ends after " + std::to_string(shorter.line_number()) +
                                 " lines, but the other file of the pair has more (expected one "
                                 "generated line per original line)");
    }
    TestCase c;
    c.original = strip_markers ? strip_mutation_markers(a) : std::string(a);
    c.generated = strip_markers ? strip_mutation_markers(b) : std::string(b);
    c.where = gen.location();
    cases.push_back(std::move(c));
  }
  return cases;
}

std::vector<TestCase> read_jsonl_pairs(const std::string& path, bool strip_markers) {
  core::JsonlReader reader(path);
  std::vector<TestCase> cases;
  nlohmann::json j;
  while (reader.next(j)) {
    auto get = [&](const char* key, const char* alt) {
      const char* found = j.is_object() && j.contains(key) ? key : alt;
      if (!j.is_object() || !j.contains(found) || !j[found].is_string()) {
        throw core::ParseError(reader.location(), std::string("expected a string field '") + key +
                                                      "' (or '" + alt + "')");
      }
      const std::string s = j[found].get<std::string>();
      return strip_markers ? strip_mutation_markers(s) : s;
    };
    TestCase c;
    c.original = get("original", "ori_text");
    c.generated = get("generated", "adv_text");
    c.where = reader.location();
    cases.push_back(std::move(c));
  }
  return cases;
}

std::string csv_field(const std::string& value) {
  if (value.find_first_of(",\"\r\n") == std::string::npos) return value;
  std::string out = "\"";
  for (char c : value) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + '"';
}

}  // namespace assay::aeon
