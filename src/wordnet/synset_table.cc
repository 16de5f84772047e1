#include "wordnet/synset_table.h"

#include <algorithm>

#include "core/error.h"
#include "core/line_reader.h"

namespace assay::wordnet {

// Reads the data files in two passes: synsets with their raw pointers, then pointer resolution
// (offset -> synset) once every file is in.
class SynsetTable::Loader {
 public:
  Loader(SynsetTable& t, std::string dir) : t_(t), dir_(std::move(dir)) {}

  void run() {
    std::array<std::string, kNumPartsOfSpeech> paths;
    for (PartOfSpeech pos : kAllPartsOfSpeech) {
      paths[static_cast<std::size_t>(pos)] =
          require_database_file(dir_, std::string("data.") + file_suffix(pos));
    }
    t_.synsets_.reserve(118000);  // WordNet 3.0: 117,659 synsets
    for (PartOfSpeech pos : kAllPartsOfSpeech) read_data(paths[static_cast<std::size_t>(pos)], pos);
    build_offset_maps(paths);
    resolve_pointers(paths);
  }

 private:
  struct RawTarget {
    std::uint32_t offset;
    PartOfSpeech pos;
  };

  void read_data(const std::string& path, PartOfSpeech file_pos) {
    core::LineReader reader(path);
    std::string_view line;
    while (reader.next(line)) {
      if (line.empty() || wndb::is_preamble(line)) continue;
      const wndb::DataRecord r = wndb::parse_data_line(line, reader.location());
      if (r.pos != file_pos) {
        throw core::ParseError(core::SourceLocation(path, reader.line_number()),
                               std::string("synset of part of speech '") + pos_letter(r.pos) +
                                   "' in data." + file_suffix(file_pos));
      }
      Synset s;
      s.offset = r.offset;
      s.pos = r.pos;
      s.satellite = r.satellite;
      s.lex_filenum = r.lex_filenum;
      s.first_word = static_cast<std::uint32_t>(t_.word_spans_.size());
      s.n_words = static_cast<std::uint32_t>(r.words.size());
      for (const auto& w : r.words) t_.word_spans_.push_back(append_text(w.lemma));
      s.first_pointer = static_cast<std::uint32_t>(t_.pointers_.size());
      s.n_pointers = static_cast<std::uint32_t>(r.pointers.size());
      for (const auto& p : r.pointers) {
        t_.pointers_.push_back({p.kind, p.source_word, p.target_word, 0});
        raw_targets_.push_back({p.target_offset, p.target_pos});
        pointer_lines_.push_back(reader.line_number());
      }
      const Span gloss = append_text(r.gloss);
      s.gloss_begin = gloss.begin;
      s.gloss_size = gloss.size;
      t_.synsets_.push_back(s);
      synset_lines_.push_back(reader.line_number());
    }
  }

  Span append_text(std::string_view s) {
    const Span r{static_cast<std::uint32_t>(t_.text_.size()), static_cast<std::uint32_t>(s.size())};
    t_.text_.append(s);
    return r;
  }

  void build_offset_maps(const std::array<std::string, kNumPartsOfSpeech>& paths) {
    for (SynsetId n = 0; n < t_.synsets_.size(); ++n) {
      t_.by_offset_[static_cast<std::size_t>(t_.synsets_[n].pos)].emplace_back(
          t_.synsets_[n].offset, n);
    }
    for (auto& m : t_.by_offset_) std::sort(m.begin(), m.end());
    for (std::size_t p = 0; p < kNumPartsOfSpeech; ++p) {
      const auto& m = t_.by_offset_[p];
      for (std::size_t i = 1; i < m.size(); ++i) {
        if (m[i].first == m[i - 1].first) {
          throw core::ParseError(core::SourceLocation(paths[p], synset_lines_[m[i].second]),
                                 "duplicate synset offset " + std::to_string(m[i].first) +
                                     " (first on line " +
                                     std::to_string(synset_lines_[m[i - 1].second]) + ")");
        }
      }
    }
  }

  void resolve_pointers(const std::array<std::string, kNumPartsOfSpeech>& paths) {
    for (SynsetId n = 0; n < t_.synsets_.size(); ++n) {
      const Synset& s = t_.synsets_[n];
      const std::string& path = paths[static_cast<std::size_t>(s.pos)];
      for (std::uint32_t i = s.first_pointer; i < s.first_pointer + s.n_pointers; ++i) {
        const RawTarget t = raw_targets_[i];
        const auto target = t_.find(t.offset, t.pos);
        if (!target) {
          throw core::ParseError(core::SourceLocation(path, pointer_lines_[i]),
                                 "pointer to synset offset " + std::to_string(t.offset) +
                                     " which is not in data." + file_suffix(t.pos));
        }
        const std::uint8_t tw = t_.pointers_[i].target_word;
        if (tw > t_.synsets_[*target].n_words) {
          throw core::ParseError(core::SourceLocation(path, pointer_lines_[i]),
                                 "pointer names word " + std::to_string(tw) + " of synset " +
                                     std::to_string(t.offset) + ", which has " +
                                     std::to_string(t_.synsets_[*target].n_words) + " words");
        }
        t_.pointers_[i].target = *target;
      }
    }
  }

  SynsetTable& t_;
  std::string dir_;
  std::vector<RawTarget> raw_targets_;
  std::vector<std::uint64_t> pointer_lines_;
  std::vector<std::uint64_t> synset_lines_;
};

std::unique_ptr<SynsetTable> SynsetTable::load(const std::string& dir) {
  std::unique_ptr<SynsetTable> t(new SynsetTable());
  Loader(*t, dir).run();
  return t;
}

std::optional<SynsetId> SynsetTable::find(std::uint32_t offset, PartOfSpeech pos) const {
  const auto& m = by_offset_[static_cast<std::size_t>(pos)];
  const auto it = std::lower_bound(m.begin(), m.end(), std::make_pair(offset, SynsetId{0}));
  if (it == m.end() || it->first != offset) return std::nullopt;
  return it->second;
}

void SynsetTable::resolve_index(const Lexicon& lexicon) {
  const auto& offsets = lexicon.all_offsets();
  index_synsets_.resize(offsets.size());
  for (std::size_t i = 0; i < offsets.size(); ++i) {
    const PartOfSpeech pos = lexicon.pos_of_offset(i);
    const auto id = find(offsets[i], pos);
    if (!id) {
      std::uint64_t line = 0;
      const std::string lemma(lexicon.lemma_of_offset(i, &line));
      throw core::ParseError(core::SourceLocation(lexicon.index_path(pos), line),
                             "lemma '" + lemma + "' names synset offset " +
                                 std::to_string(offsets[i]) + ", which is not in data." +
                                 file_suffix(pos));
    }
    index_synsets_[i] = *id;
  }
}

}  // namespace assay::wordnet
