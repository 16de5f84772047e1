#include "wordnet/lexicon.h"

#include <filesystem>
#include <limits>

#include "core/error.h"
#include "core/line_reader.h"
#include "wordnet/database.h"
#include "wordnet/wndb_parser.h"

namespace assay::wordnet {

std::string require_database_file(const std::string& dir, const std::string& name) {
  const std::string path = (std::filesystem::path(dir) / name).string();
  if (!std::filesystem::is_regular_file(path)) {
    throw core::MissingResourceError(
        core::SourceLocation(path),
        std::string("WordNet database file not found; install the Debian package ") +
            kDebianPackage + " (apt-get install " + kDebianPackage +
            ") or pass the directory holding data.noun, index.noun, ...");
  }
  return path;
}

std::unique_ptr<Lexicon> Lexicon::load(const std::string& dir) {
  std::array<std::string, kNumPartsOfSpeech> index_paths, exception_paths;
  for (PartOfSpeech pos : kAllPartsOfSpeech) {
    const auto p = static_cast<std::size_t>(pos);
    index_paths[p] = require_database_file(dir, std::string("index.") + file_suffix(pos));
    exception_paths[p] = require_database_file(dir, std::string(file_suffix(pos)) + ".exc");
  }
  std::unique_ptr<Lexicon> lex(new Lexicon());
  lex->dir_ = dir;
  lex->offsets_.reserve(210000);  // WordNet 3.0: 206,941 senses
  for (PartOfSpeech pos : kAllPartsOfSpeech) {
    const auto p = static_cast<std::size_t>(pos);
    lex->pos_first_[p] = lex->offsets_.size();
    lex->read_index(index_paths[p], pos);
    lex->read_exceptions(exception_paths[p], pos);
  }
  lex->pos_first_[kNumPartsOfSpeech] = lex->offsets_.size();
  return lex;
}

void Lexicon::read_index(const std::string& path, PartOfSpeech file_pos) {
  core::LineReader reader(path);
  std::string_view line;
  auto& index = index_[static_cast<std::size_t>(file_pos)];
  // About 36 bytes a line in WordNet 3.0's index files: no rehashing while reading.
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (!ec) index.reserve(static_cast<std::size_t>(size / 36));
  wndb::IndexRecord r;
  while (reader.next(line)) {
    if (line.empty() || wndb::is_preamble(line)) continue;
    wndb::parse_index_line(line, reader.location(), &r);
    if (r.pos != file_pos) {
      throw core::ParseError(
          reader.location(),
          std::string("lemma of another part of speech in index.") + file_suffix(file_pos));
    }
    if (r.offsets.size() > std::numeric_limits<std::uint16_t>::max()) {
      throw core::ParseError(reader.location(),
                             "more than 65,535 senses of '" + std::string(r.lemma) + "'");
    }
    const Entry entry{static_cast<std::uint32_t>(offsets_.size()),
                      static_cast<std::uint16_t>(r.offsets.size()),
                      static_cast<std::uint16_t>(r.n_tagged)};
    if (!index.emplace(std::string(r.lemma), entry).second) {
      throw core::ParseError(reader.location(), "duplicate lemma '" + std::string(r.lemma) + "'");
    }
    offsets_.insert(offsets_.end(), r.offsets.begin(), r.offsets.end());
  }
}

void Lexicon::read_exceptions(const std::string& path, PartOfSpeech pos) {
  core::LineReader reader(path);
  std::string_view line;
  auto& exceptions = exceptions_[static_cast<std::size_t>(pos)];
  auto& forms = exception_forms_[static_cast<std::size_t>(pos)];
  while (reader.next(line)) {
    if (line.empty()) continue;
    const auto fields = wndb::parse_exception_line(line, reader.location());
    std::vector<std::string> bases(fields.begin() + 1, fields.end());
    for (const std::string& b : bases) forms[b].emplace_back(fields[0]);
    auto it = exceptions.find(fields[0]);
    if (it == exceptions.end())
      it = exceptions.emplace(std::string(fields[0]), ExceptionLines{}).first;
    it->second.push_back(std::move(bases));
    ++n_exception_lines_[static_cast<std::size_t>(pos)];
  }
}

const Lexicon::Entry* Lexicon::find(std::string_view lemma, PartOfSpeech pos) const {
  const auto& index = index_[static_cast<std::size_t>(pos)];
  const auto it = index.find(lemma);
  return it == index.end() ? nullptr : &it->second;
}

const Lexicon::ExceptionLines* Lexicon::exception_lines(std::string_view form,
                                                        PartOfSpeech pos) const {
  const auto& map = exceptions_[static_cast<std::size_t>(pos)];
  const auto it = map.find(form);
  return it == map.end() ? nullptr : &it->second;
}

const std::vector<std::string>* Lexicon::exception_forms(std::string_view base,
                                                         PartOfSpeech pos) const {
  const auto& map = exception_forms_[static_cast<std::size_t>(pos)];
  const auto it = map.find(base);
  return it == map.end() ? nullptr : &it->second;
}

PartOfSpeech Lexicon::pos_of_offset(std::size_t i) const {
  std::size_t p = 0;
  while (p + 1 < kNumPartsOfSpeech && i >= pos_first_[p + 1]) ++p;
  return static_cast<PartOfSpeech>(p);
}

std::string Lexicon::index_path(PartOfSpeech pos) const {
  return (std::filesystem::path(dir_) / (std::string("index.") + file_suffix(pos))).string();
}

std::string_view Lexicon::lemma_of_offset(std::size_t i, std::uint64_t* line) const {
  const PartOfSpeech pos = pos_of_offset(i);
  *line = 0;
  for (const auto& [lemma, e] : index_[static_cast<std::size_t>(pos)]) {
    if (i < e.first || i >= e.first + e.n_senses) continue;
    core::LineReader reader(index_path(pos));
    std::string_view text;
    while (reader.next(text)) {
      if (text.size() > lemma.size() && text.substr(0, lemma.size()) == lemma &&
          text[lemma.size()] == ' ') {
        *line = reader.line_number();
        break;
      }
    }
    return lemma;
  }
  return {};
}

std::size_t Lexicon::n_lemmas() const {
  std::size_t n = 0;
  for (const auto& index : index_) n += index.size();
  return n;
}

std::size_t Lexicon::n_exception_lines(PartOfSpeech pos) const {
  return n_exception_lines_[static_cast<std::size_t>(pos)];
}

}  // namespace assay::wordnet
