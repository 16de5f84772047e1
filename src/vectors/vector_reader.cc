#include "vectors/vector_reader.h"

#include <charconv>
#include <cmath>
#include <filesystem>
#include <optional>
#include <unordered_set>
#include <vector>

#include "core/error.h"
#include "core/fields.h"
#include "core/line_reader.h"
#include "core/number_parse.h"
#include "vectors/word2vec_binary_reader.h"

namespace assay::vectors {
namespace {

using core::Field;
using core::split_fields;

// Parsed as double and rounded to float, as numpy's float32(str) does (gensim's reader).
std::optional<float> parse_value(std::string_view s) {
  double v = 0;
  const char* begin = s.data();
  if (!s.empty() && s.front() == '+') ++begin;
  const auto [ptr, ec] = std::from_chars(begin, s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size() || begin == s.data() + s.size()) {
    return std::nullopt;
  }
  return static_cast<float>(v);
}

std::optional<std::uint64_t> parse_positive(std::string_view s) {
  const auto v = core::parse_int64(s);
  if (!v || *v <= 0) return std::nullopt;
  return static_cast<std::uint64_t>(*v);
}

class TextVectorReader {
 public:
  TextVectorReader(const std::string& path, VectorFormat format, const ReadOptions& options,
                   ReadStats* stats)
      : lines_(path), format_(format), options_(options), stats_(stats) {}

  EmbeddingMatrix read() {
    std::string_view line;
    const bool has_header = format_ != VectorFormat::kGlove;
    if (!lines_.next(line)) {
      throw core::ParseError(core::SourceLocation{lines_.path()},
                             "empty file, expected word vectors");
    }
    std::uint64_t declared = 0;
    if (has_header) {
      read_header(line, declared);
    } else {
      split_fields(line, fields_);
      if (fields_.size() == 2 && parse_positive(fields_[0].text) &&
          parse_positive(fields_[1].text)) {
        fail(1,
             "this looks like a word2vec/fastText header ('count dimension'); read the file "
             "with the word2vec or fasttext format");
      }
      if (fields_.size() < 2) fail(1, "expected a word followed by its vector values");
      dim_ = fields_.size() - 1;
      add_line(line);
    }
    while (lines_.next(line) && !full()) {
      if (has_header && n_read_ == declared) {
        if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
        fail(1, "more vectors than the " + std::to_string(declared) + " declared in the header");
      }
      add_line(line);
    }
    if (has_header && !full() && n_read_ < declared) {
      fail(0, "file ends after " + std::to_string(n_read_) + " of the " + std::to_string(declared) +
                  " vectors declared in the header (truncated file?)");
    }
    return EmbeddingMatrix(std::move(words_), std::move(values_), dim_);
  }

 private:
  [[noreturn]] void fail(std::uint64_t column, const std::string& message) const {
    throw core::ParseError(lines_.location(column), message);
  }

  bool full() const { return options_.limit > 0 && words_.size() >= options_.limit; }

  void read_header(std::string_view line, std::uint64_t& declared) {
    split_fields(line, fields_);
    std::optional<std::uint64_t> count, dim;
    if (fields_.size() == 2) {
      count = parse_positive(fields_[0].text);
      dim = parse_positive(fields_[1].text);
    }
    if (!count || !dim) {
      fail(1, std::string("expected the header 'count dimension' of the ") +
                  std::string(to_string(format_)) +
                  " format; a text file without a header is GloVe (format glove)");
    }
    if (*dim > 1'000'000) fail(fields_[1].column, "implausible dimension " + std::to_string(*dim));
    declared = *count;
    dim_ = *dim;
    std::uint64_t reserve =
        options_.limit ? std::min<std::uint64_t>(declared, options_.limit) : declared;
    // The header is not trusted with memory: a line of `dim` values takes at least 2 * dim + 1
    // bytes, so no more lines are reserved than the file can hold (none for a pipe).
    std::error_code error;
    const std::uint64_t file_bytes = std::filesystem::is_regular_file(lines_.path(), error)
                                         ? std::filesystem::file_size(lines_.path(), error)
                                         : 0;
    reserve = std::min<std::uint64_t>(reserve, error ? 0 : file_bytes / (2 * dim_ + 1));
    if (reserve <= 10'000'000) {
      words_.reserve(reserve);
      values_.reserve(reserve * dim_);
    }
  }

  void add_line(std::string_view line) {
    split_fields(line, fields_);
    ++n_read_;
    if (fields_.size() != dim_ + 1) {
      if (fields_.empty())
        fail(1, "empty line, expected a word and " + std::to_string(dim_) + " values");
      fail(fields_.size() > 1 ? fields_[1].column : 1,
           "expected " + std::to_string(dim_) + " values after the word '" +
               std::string(fields_[0].text.substr(0, 40)) + "', got " +
               std::to_string(fields_.size() - 1));
    }
    const std::string_view word = fields_[0].text;
    const std::size_t base = values_.size();
    values_.resize(base + dim_);
    for (std::size_t k = 0; k < dim_; ++k) {
      const Field& f = fields_[k + 1];
      const auto v = parse_value(f.text);
      if (!v) fail(f.column, "expected a number, got '" + std::string(f.text.substr(0, 40)) + "'");
      if (!std::isfinite(*v)) fail(f.column, "value '" + std::string(f.text) + "' is not finite");
      values_[base + k] = *v;
    }
    if (!seen_.emplace(word).second) {
      values_.resize(base);
      if (stats_) {
        if (stats_->n_duplicates++ == 0) {
          stats_->first_duplicate = lines_.location().to_string() + ": " + std::string(word);
        }
      }
      return;
    }
    words_.emplace_back(word);
  }

  core::LineReader lines_;
  VectorFormat format_;
  ReadOptions options_;
  ReadStats* stats_;
  std::vector<Field> fields_;
  std::size_t dim_ = 0;
  std::uint64_t n_read_ = 0;
  std::vector<std::string> words_;
  std::vector<float> values_;
  std::unordered_set<std::string> seen_;
};

}  // namespace

VectorFormat parse_vector_format(std::string_view name) {
  if (name == "word2vec") return VectorFormat::kWord2vecText;
  if (name == "word2vec-bin") return VectorFormat::kWord2vecBinary;
  if (name == "glove") return VectorFormat::kGlove;
  if (name == "fasttext") return VectorFormat::kFasttext;
  throw core::UsageError("unknown vector format '" + std::string(name) +
                         "': expected glove, word2vec, word2vec-bin or fasttext");
}

std::string_view to_string(VectorFormat format) {
  switch (format) {
    case VectorFormat::kWord2vecText:
      return "word2vec";
    case VectorFormat::kWord2vecBinary:
      return "word2vec-bin";
    case VectorFormat::kGlove:
      return "glove";
    case VectorFormat::kFasttext:
      return "fasttext";
  }
  return "?";
}

EmbeddingMatrix read_vectors(const std::string& path, VectorFormat format,
                             const ReadOptions& options, ReadStats* stats) {
  if (stats) *stats = ReadStats{};
  if (format == VectorFormat::kWord2vecBinary) {
    return detail::read_word2vec_binary(path, options, stats);
  }
  return TextVectorReader(path, format, options, stats).read();
}

}  // namespace assay::vectors
