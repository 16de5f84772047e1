#include "lm/arpa_model.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>
#include <optional>

#include "core/check.h"
#include "core/error.h"
#include "core/fields.h"
#include "core/line_reader.h"
#include "core/number_parse.h"

namespace assay::lm {
namespace {

constexpr float kMissingUnkLog10 = -100.0f;
constexpr std::size_t kMaxOrder = 15;

using core::Field;
using core::split_fields;

bool is_blank(std::string_view line) {
  return line.find_first_not_of(" \t") == std::string_view::npos;
}

std::string section_header(std::size_t n) {
  // Appending (not operator+ on a temporary) avoids a GCC 12 -Wrestrict false positive.
  std::string out = "\\";
  out += std::to_string(n);
  out += "-grams:";
  return out;
}

}  // namespace

// Reads one ARPA file into an ArpaModel; holds the parsing state so the steps stay small.
class ArpaReader {
 public:
  explicit ArpaReader(const std::string& path) : lines_(path) {}

  std::unique_ptr<ArpaModel> read() {
    model_.reset(new ArpaModel());
    model_->name_ = "arpa:" + lines_.path();
    read_counts();
    for (std::size_t n = 1; n <= counts_.size(); ++n) read_section(n);
    expect_end();
    finish();
    return std::move(model_);
  }

 private:
  [[noreturn]] void fail(std::uint64_t column, const std::string& message) const {
    throw core::ParseError(lines_.location(column), message);
  }

  // Next non-blank line, or nullopt at end of file.
  std::optional<std::string_view> next_content() {
    std::string_view line;
    while (lines_.next(line)) {
      if (!is_blank(line)) return line;
    }
    return std::nullopt;
  }

  void read_counts() {
    auto line = next_content();
    if (!line) {
      throw core::ParseError(
          core::SourceLocation{lines_.path()},
          "empty file, expected an ARPA language model starting with '\\data\\'");
    }
    if (*line != "\\data\\")
      fail(1,
           "expected '\\data\\' (the ARPA header), got '" + std::string(line->substr(0, 40)) + "'");
    std::string_view text;
    while (lines_.next(text)) {
      if (is_blank(text)) {
        if (!counts_.empty()) break;
        continue;
      }
      if (text.substr(0, 6) != "ngram ") {
        if (text.front() == '\\') {
          if (counts_.empty()) fail(1, "the \\data\\ section declares no 'ngram N=count' lines");
          pending_ = std::string(text);  // a section header right after the counts
          break;
        }
        fail(1, "expected 'ngram N=count' in the \\data\\ section, got '" +
                    std::string(text.substr(0, 40)) + "'");
      }
      const std::string_view spec = text.substr(6);
      const std::size_t eq = spec.find('=');
      if (eq == std::string_view::npos) fail(7, "expected 'ngram N=count', missing '='");
      const auto n = core::parse_int64(spec.substr(0, eq));
      const auto count = core::parse_int64(spec.substr(eq + 1));
      if (!n) fail(7, "expected an n-gram order, got '" + std::string(spec.substr(0, eq)) + "'");
      if (!count || *count < 0) {
        fail(8 + eq, "expected a non-negative n-gram count, got '" +
                         std::string(spec.substr(eq + 1)) + "'");
      }
      if (*n != static_cast<std::int64_t>(counts_.size()) + 1) {
        fail(7, "expected 'ngram " + std::to_string(counts_.size() + 1) +
                    "=...' (orders must be "
                    "consecutive from 1), got order " +
                    std::to_string(*n));
      }
      if (counts_.size() == kMaxOrder) {
        fail(7, "n-gram orders above " + std::to_string(kMaxOrder) + " are not supported");
      }
      counts_.push_back(static_cast<std::uint64_t>(*count));
    }
    if (counts_.empty()) fail(0, "the \\data\\ section declares no 'ngram N=count' lines");
    if (counts_[0] == 0) fail(0, "the \\data\\ section declares no unigrams");
  }

  void read_section(std::size_t n) {
    std::string header;
    if (pending_) {
      header = std::move(*pending_);
      pending_.reset();
    } else {
      auto line = next_content();
      if (!line) {
        fail(0, "file ends before the " + section_header(n) + " section (truncated file?)");
      }
      header = std::string(*line);
    }
    while (!header.empty() && (header.back() == ' ' || header.back() == '\t')) header.pop_back();
    if (header != section_header(n)) {
      fail(1, "expected '" + section_header(n) + "', got '" + header.substr(0, 40) + "'");
    }
    if (n >= 2) model_->ngrams_.emplace_back().reserve(counts_[n - 1]);
    const bool highest = n == counts_.size();
    std::vector<Field> fields;
    std::vector<WordId> ids(n);
    for (std::uint64_t i = 0; i < counts_[n - 1]; ++i) {
      std::string_view line;
      if (!lines_.next(line)) {
        fail(0, "file ends after " + std::to_string(i) + " of the " +
                    std::to_string(counts_[n - 1]) + " " + std::to_string(n) +
                    "-grams declared in \\data\\ (truncated file?)");
      }
      split_fields(line, fields);
      if (fields.empty() || fields[0].text.front() == '\\') {
        fail(1, "the " + std::to_string(n) + "-gram section ends after " + std::to_string(i) +
                    " entries, but \\data\\ declares " + std::to_string(counts_[n - 1]));
      }
      const std::size_t max_fields = highest ? n + 1 : n + 2;
      if (fields.size() != n + 1 && fields.size() != max_fields) {
        fail(fields[0].column,
             "expected " +
                 (highest ? std::to_string(n + 1)
                          : std::to_string(n + 1) + " or " + std::to_string(n + 2)) +
                 " fields (log10 probability, " + std::to_string(n) +
                 (n == 1 ? " word" : " words") + (highest ? "" : ", optional backoff") + "), got " +
                 std::to_string(fields.size()));
      }
      ArpaModel::Entry entry;
      entry.log10_prob = parse_log10(fields[0], "probability");
      if (entry.log10_prob > 0) {
        fail(fields[0].column,
             "log10 probability must be <= 0, got " + std::string(fields[0].text));
      }
      if (fields.size() == n + 2) entry.log10_backoff = parse_log10(fields[n + 1], "backoff");
      if (n == 1) {
        add_unigram(fields[1], entry);
        continue;
      }
      for (std::size_t k = 0; k < n; ++k) {
        const WordId id = model_->find(fields[k + 1].text);
        if (id == kNoWord) {
          fail(fields[k + 1].column, "word '" + std::string(fields[k + 1].text) + "' of this " +
                                         std::to_string(n) + "-gram is not among the unigrams");
        }
        ids[k] = id;
      }
      std::string key(reinterpret_cast<const char*>(ids.data()), n * sizeof(WordId));
      if (!model_->ngrams_[n - 2].emplace(std::move(key), entry).second) {
        fail(fields[1].column, "duplicate " + std::to_string(n) + "-gram");
      }
    }
  }

  float parse_log10(const Field& field, const char* what) const {
    const auto value = core::parse_double(field.text);
    // Stored as a float: a number beyond its range would become infinity.
    if (!value || !std::isfinite(*value) || std::abs(*value) > std::numeric_limits<float>::max()) {
      fail(field.column,
           std::string("expected a log10 ") + what + ", got '" + std::string(field.text) + "'");
    }
    return static_cast<float>(*value);
  }

  void add_unigram(const Field& word, const ArpaModel::Entry& entry) {
    const auto id = static_cast<WordId>(model_->words_.size());
    if (!model_->ids_.emplace(std::string(word.text), id).second) {
      fail(word.column, "duplicate 1-gram '" + std::string(word.text) + "'");
    }
    model_->words_.emplace_back(word.text);
    model_->unigrams_.push_back(entry);
  }

  void expect_end() {
    auto line = next_content();
    if (!line) fail(0, "file ends without '\\end\\' (truncated file?)");
    std::string_view text = *line;
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
    if (text != "\\end\\") {
      if (text.front() != '\\') {
        fail(1, "more " + std::to_string(counts_.size()) + "-grams than the " +
                    std::to_string(counts_.back()) + " declared in \\data\\");
      }
      fail(1, "expected '\\end\\' after the " + std::to_string(counts_.size()) + "-grams, got '" +
                  std::string(text.substr(0, 40)) + "'");
    }
  }

  void finish() {
    ArpaModel& m = *model_;
    m.begin_ = m.find("<s>");
    m.end_ = m.find("</s>");
    if (m.end_ == kNoWord) {
      throw core::ParseError(core::SourceLocation{lines_.path()},
                             "the model has no '</s>' unigram, so sentences cannot be scored");
    }
    if (m.begin_ == kNoWord) {
      throw core::ParseError(core::SourceLocation{lines_.path()},
                             "the model has no '<s>' unigram, so sentences cannot be scored");
    }
    m.unknown_ = m.find("<unk>");
    if (m.unknown_ == kNoWord) m.unknown_ = m.find("<UNK>");
    if (m.unknown_ == kNoWord) {
      m.unknown_ = static_cast<WordId>(m.words_.size());
      m.words_.emplace_back("<unk>");
      m.ids_.emplace("<unk>", m.unknown_);
      m.unigrams_.push_back({kMissingUnkLog10, 0.0f});
    }
  }

  core::LineReader lines_;
  std::unique_ptr<ArpaModel> model_;
  std::vector<std::uint64_t> counts_;
  std::optional<std::string> pending_;
};

std::unique_ptr<ArpaModel> ArpaModel::load(const std::string& path) {
  return ArpaReader(path).read();
}

std::string_view ArpaModel::word(WordId id) const {
  ASSAY_CHECK(id >= 0 && id < vocabulary_size());
  return words_[static_cast<std::size_t>(id)];
}

WordId ArpaModel::find(std::string_view w) const {
  const auto it = ids_.find(w);
  return it == ids_.end() ? kNoWord : it->second;
}

const ArpaModel::Entry* ArpaModel::lookup(const WordId* ids, std::size_t n) const {
  if (n < 2 || n - 2 >= ngrams_.size()) return nullptr;
  const NgramMap& map = ngrams_[n - 2];
  const auto it =
      map.find(std::string_view(reinterpret_cast<const char*>(ids), n * sizeof(WordId)));
  return it == map.end() ? nullptr : &it->second;
}

double ArpaModel::log10_prob(WordId w, std::span<const WordId> context) const {
  ASSAY_CHECK(w >= 0 && w < vocabulary_size());
  // The usable history: at most order-1 words, and none before the last OOV (kNoWord).
  const std::size_t max_history = static_cast<std::size_t>(order() - 1);
  std::size_t begin = context.size() > max_history ? context.size() - max_history : 0;
  for (std::size_t i = context.size(); i > begin; --i) {
    if (context[i - 1] == kNoWord) {
      begin = i;
      break;
    }
  }
  // ids = history followed by w, so every suffix is one contiguous n-gram.
  WordId ids[kMaxOrder + 1];
  const std::size_t h = context.size() - begin;
  ASSAY_CHECK(h + 1 <= std::size(ids));
  for (std::size_t i = 0; i < h; ++i) ids[i] = context[begin + i];
  ids[h] = w;
  double backoff = 0;
  for (std::size_t start = 0; start < h; ++start) {
    const std::size_t n = h - start + 1;
    if (const Entry* e = lookup(ids + start, n)) return backoff + e->log10_prob;
    // Not listed: back off through the context ids[start..h).
    if (n - 1 == 1) {
      backoff += unigrams_[static_cast<std::size_t>(ids[start])].log10_backoff;
    } else if (const Entry* c = lookup(ids + start, n - 1)) {
      backoff += c->log10_backoff;
    }
  }
  return backoff + unigrams_[static_cast<std::size_t>(w)].log10_prob;
}

double ArpaModel::log_prob(WordId w, std::span<const WordId> context) const {
  return log10_prob(w, context) * std::numbers::ln10;
}

}  // namespace assay::lm
