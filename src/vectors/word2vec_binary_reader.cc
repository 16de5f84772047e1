#include "vectors/word2vec_binary_reader.h"

#include <cmath>
#include <cstring>
#include <memory>
#include <unordered_set>
#include <vector>

#include "core/error.h"
#include "core/mapped_file.h"
#include "core/number_parse.h"
#include "core/utf8.h"

namespace assay::vectors::detail {
namespace {

constexpr std::size_t kMaxHeader = 128;
constexpr std::size_t kMaxWord = 4096;

// Sequential reads over the mapped file that know their byte offset and the file size.
class CheckedFile {
 public:
  explicit CheckedFile(const std::string& path)
      : path_(path), file_(core::MappedFile::open(path)), cursor_(file_) {}

  [[noreturn]] void fail(std::uint64_t at, const std::string& message) const {
    throw core::ParseError(core::SourceLocation{path_, 0, 0, at}, message);
  }

  std::uint64_t offset() const { return cursor_.offset(); }
  std::uint64_t remaining() const { return cursor_.remaining(); }
  std::uint64_t size() const { return file_.size(); }

  // -1 at end of file.
  int get() { return cursor_.get(); }
  int peek() const { return cursor_.peek(); }
  void read(void* out, std::size_t n) {
    if (n > remaining()) fail(offset(), "unexpected end of file");
    std::memcpy(out, cursor_.take(n, "vector"), n);
  }

 private:
  std::string path_;
  core::MappedFile file_;
  core::ByteCursor cursor_;
};

}  // namespace

EmbeddingMatrix read_word2vec_binary(const std::string& path, const ReadOptions& options,
                                     ReadStats* stats) {
  CheckedFile in(path);
  if (in.size() == 0) in.fail(0, "empty file, expected word2vec binary vectors");
  std::string header;
  for (;;) {
    const int c = in.get();
    if (c == -1) in.fail(in.offset(), "file ends inside the header 'count dimension'");
    if (c == '\n') break;
    if (header.empty() && c == 0x1f && in.peek() == 0x8b) {
      in.fail(0, "this is gzip-compressed data; decompress it first (gunzip)");
    }
    header.push_back(static_cast<char>(c));
    if (header.size() > kMaxHeader)
      in.fail(0, "expected the header 'count dimension' and a newline");
  }
  const std::size_t space = header.find(' ');
  const auto count = core::parse_int64(header.substr(0, space == std::string::npos ? 0 : space));
  const auto dim =
      space == std::string::npos ? std::nullopt : core::parse_int64(header.substr(space + 1));
  if (!count || !dim || *count <= 0 || *dim <= 0 || *dim > 1'000'000) {
    in.fail(0, "expected the header 'count dimension' with positive numbers, got '" +
                   header.substr(0, 40) + "'");
  }
  const auto n = static_cast<std::uint64_t>(*count);
  const auto d = static_cast<std::uint64_t>(*dim);
  const std::uint64_t row_bytes = d * sizeof(float);
  // Each entry needs at least a one-byte word, a space and its floats: check before allocating.
  if (n > in.remaining() / (row_bytes + 2)) {
    in.fail(in.offset(), "the header declares " + std::to_string(n) + " vectors of " +
                             std::to_string(d) + " floats (at least " +
                             std::to_string(n * (row_bytes + 2)) + " bytes) but only " +
                             std::to_string(in.remaining()) +
                             " bytes follow (truncated file, or not the binary format?)");
  }
  const std::uint64_t wanted = options.limit ? std::min<std::uint64_t>(n, options.limit) : n;
  std::vector<std::string> words;
  std::vector<float> values;
  words.reserve(wanted);
  values.reserve(wanted * d);
  std::vector<float> row(d);
  std::unordered_set<std::string> seen;
  std::string word;
  for (std::uint64_t i = 0; i < wanted; ++i) {
    word.clear();
    const std::uint64_t word_start = in.offset();
    for (;;) {
      const int c = in.get();
      if (c == -1) {
        in.fail(in.offset(), "file ends inside word " + std::to_string(i + 1) + " of " +
                                 std::to_string(n) + " (truncated file)");
      }
      if (c == ' ') break;
      if (c == '\n' && word.empty()) continue;  // the newline after the previous vector
      word.push_back(static_cast<char>(c));
      if (word.size() > kMaxWord) {
        in.fail(word_start, "word " + std::to_string(i + 1) + " is longer than " +
                                std::to_string(kMaxWord) + " bytes (not the binary format?)");
      }
    }
    if (word.empty()) in.fail(word_start, "empty word " + std::to_string(i + 1));
    if (const auto bad = core::find_invalid_utf8(word)) {
      in.fail(word_start + *bad, "invalid UTF-8 in word " + std::to_string(i + 1));
    }
    if (in.remaining() < row_bytes) {
      in.fail(in.offset(), "truncated file: the vector of '" + word.substr(0, 40) + "' (" +
                               std::to_string(i + 1) + " of " + std::to_string(n) + ") needs " +
                               std::to_string(row_bytes) + " bytes, only " +
                               std::to_string(in.remaining()) + " remain");
    }
    const std::uint64_t row_start = in.offset();
    in.read(row.data(), row_bytes);  // little-endian float32, as word2vec writes on x86
    for (std::uint64_t k = 0; k < d; ++k) {
      if (!std::isfinite(row[k])) {
        in.fail(row_start + k * sizeof(float),
                "non-finite value in the vector of '" + word.substr(0, 40) + "'");
      }
    }
    if (!seen.insert(word).second) {
      if (stats && stats->n_duplicates++ == 0) {
        stats->first_duplicate = path + " at byte " + std::to_string(word_start) + ": " + word;
      }
      continue;
    }
    words.push_back(word);
    values.insert(values.end(), row.begin(), row.end());
  }
  if (wanted == n) {
    // Only newlines may follow the last vector.
    for (int c = in.get(); c != -1; c = in.get()) {
      if (c != '\n' && c != '\r' && c != ' ') {
        in.fail(in.offset() - 1, "unexpected data after the " + std::to_string(n) +
                                     " vectors declared in the header");
      }
    }
  }
  return EmbeddingMatrix(std::move(words), std::move(values), d);
}

}  // namespace assay::vectors::detail
