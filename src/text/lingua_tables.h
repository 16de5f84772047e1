// The tables of Lingua::EN::Tagger 0.31 (Debian liblingua-en-tagger-perl), read at run time
// from the installed files: words.yml (word -> tag counts), unknown.yml (counts of the
// unknown-word classes such as "-ing-"), tags.yml (tag -> next-tag probabilities) and the
// abbreviation lists of Tagger.pm's sentence splitter. The package is GPL: nothing of it is
// copied into this repository.
//
// The YAML files use one flow mapping per line (`word: { nn: 7, vb: 1 }`); a dedicated reader
// for that subset (through core::LineReader) loads words.yml in a few tens of milliseconds.
// It accepts the lines the Perl module's own loader accepts and, unlike it, rejects anything
// else with a ParseError naming file:line instead of skipping it.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/string_hash.h"

namespace assay::text {

using TagId = std::uint8_t;

struct TagCount {
  TagId tag = 0;
  double count = 0;
};

class LinguaTables {
 public:
  static constexpr const char* kDefaultDir = "/usr/share/perl5/Lingua/EN/Tagger";
  static constexpr const char* kDebianPackage = "liblingua-en-tagger-perl";

  // Loads words.yml, unknown.yml and tags.yml from `dir` and the abbreviations from
  // `dir`/../Tagger.pm. Throws core::MissingResourceError (naming the Debian package) when a
  // file is absent, core::ParseError with file:line for a malformed line.
  static LinguaTables load(const std::string& dir = kDefaultDir);

  std::size_t n_tags() const { return tag_names_.size(); }
  std::string_view tag_name(TagId tag) const { return tag_names_[tag]; }
  std::optional<TagId> find_tag(std::string_view name) const;

  // Tag counts of a lexicon key (a word or an unknown-word class), nullptr when absent.
  const std::vector<TagCount>* find_word(std::string_view word) const {
    const auto it = lexicon_.find(word);
    return it == lexicon_.end() ? nullptr : &it->second;
  }
  std::size_t n_words() const { return lexicon_.size(); }

  // P(to | from) as listed in tags.yml; has_transition is false for pairs the file omits.
  bool has_transition(TagId from, TagId to) const { return present_[index(from, to)] != 0; }
  double transition(TagId from, TagId to) const { return transition_[index(from, to)]; }
  // Whether tags.yml has a row for `from` (the Perl tagger falls back to "nn" otherwise).
  bool has_row(TagId from) const { return has_row_[from] != 0; }

  const std::unordered_set<std::string>& abbreviations() const { return abbreviations_; }

 private:
  LinguaTables() = default;
  std::size_t index(TagId from, TagId to) const { return std::size_t{from} * n_tags() + to; }
  TagId intern_tag(std::string_view name, const std::string& where);
  void load_words(const std::string& path);
  void load_tags(const std::string& path);
  void load_abbreviations(const std::string& path);

  std::vector<std::string> tag_names_;
  std::unordered_map<std::string, TagId, core::StringHash, std::equal_to<>> tag_ids_;
  std::unordered_map<std::string, std::vector<TagCount>, core::StringHash, std::equal_to<>>
      lexicon_;
  std::vector<double> transition_;
  std::vector<std::uint8_t> present_;
  std::vector<std::uint8_t> has_row_;
  std::unordered_set<std::string> abbreviations_;
};

}  // namespace assay::text
