#include "lm/bpe_tokenizer.h"

#include <utf8proc.h>

#include <algorithm>
#include <array>
#include <limits>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/json_file.h"
#include "core/line_reader.h"

namespace assay::lm {
namespace {

void append_utf8(char32_t c, std::string& out) {
  std::array<utf8proc_uint8_t, 4> buf{};
  const auto n = utf8proc_encode_char(static_cast<utf8proc_int32_t>(c), buf.data());
  out.append(reinterpret_cast<const char*>(buf.data()), static_cast<std::size_t>(n));
}

// GPT-2's bytes_to_unicode(): byte → the UTF-8 of the code point that stands for it.
const std::array<std::string, 256>& byte_symbols() {
  static const std::array<std::string, 256> table = [] {
    std::array<std::string, 256> t;
    char32_t next = 256;
    for (int b = 0; b < 256; ++b) {
      const bool printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || b >= 0xAE;
      append_utf8(printable ? static_cast<char32_t>(b) : next++, t[static_cast<std::size_t>(b)]);
    }
    return t;
  }();
  return table;
}

enum class Kind { kSpace, kLetter, kNumber, kOther };

// One code point of the text: its class for the pattern and its bytes in the text.
struct Char {
  char32_t cp;
  Kind kind;
  std::size_t begin, end;
};

bool is_white_space(char32_t c) {  // Unicode White_Space, what the regex module's \s matches
  return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F ||
         c == 0x3000;
}

Kind classify(char32_t c) {
  if (is_white_space(c)) return Kind::kSpace;
  switch (utf8proc_category(static_cast<utf8proc_int32_t>(c))) {
    case UTF8PROC_CATEGORY_LU:
    case UTF8PROC_CATEGORY_LL:
    case UTF8PROC_CATEGORY_LT:
    case UTF8PROC_CATEGORY_LM:
    case UTF8PROC_CATEGORY_LO:
      return Kind::kLetter;
    case UTF8PROC_CATEGORY_ND:
    case UTF8PROC_CATEGORY_NL:
    case UTF8PROC_CATEGORY_NO:
      return Kind::kNumber;
    default:
      return Kind::kOther;
  }
}

std::vector<Char> decode(std::string_view s) {
  std::vector<Char> out;
  out.reserve(s.size());
  const auto* p = reinterpret_cast<const utf8proc_uint8_t*>(s.data());
  std::size_t i = 0;
  while (i < s.size()) {
    utf8proc_int32_t c = 0;
    const auto n = utf8proc_iterate(p + i, static_cast<utf8proc_ssize_t>(s.size() - i), &c);
    if (n <= 0) {  // an invalid byte: one punctuation-like character that keeps its byte
      out.push_back({0xFFFD, Kind::kOther, i, i + 1});
      ++i;
      continue;
    }
    const auto cp = static_cast<char32_t>(c);
    out.push_back({cp, classify(cp), i, i + static_cast<std::size_t>(n)});
    i += static_cast<std::size_t>(n);
  }
  return out;
}

// The length in characters of the GPT-2 pattern's match at `i` (always ≥ 1).
std::size_t match_length(const std::vector<Char>& c, std::size_t i) {
  const std::size_t n = c.size();
  auto is = [&](std::size_t k, char32_t cp) { return k < n && c[k].cp == cp; };
  // 's 't 're 've 'm 'll 'd
  if (c[i].cp == U'\'') {
    if (is(i + 1, U's') || is(i + 1, U't') || is(i + 1, U'm') || is(i + 1, U'd')) return 2;
    if ((is(i + 1, U'r') && is(i + 2, U'e')) || (is(i + 1, U'v') && is(i + 2, U'e')) ||
        (is(i + 1, U'l') && is(i + 2, U'l'))) {
      return 3;
    }
  }
  // ' ?\p{L}+', ' ?\p{N}+', ' ?[^\s\p{L}\p{N}]+', in that order.
  for (Kind k : {Kind::kLetter, Kind::kNumber, Kind::kOther}) {
    std::size_t j = i;
    if (c[j].cp == U' ' && j + 1 < n && c[j + 1].kind == k) ++j;
    if (c[j].kind != k) continue;
    while (j < n && c[j].kind == k) ++j;
    return j - i;
  }
  // '\s+(?!\S)' then '\s+': a run of white space gives its last character to what follows.
  std::size_t j = i;
  while (j < n && c[j].kind == Kind::kSpace) ++j;
  if (j == n || j - i == 1) return j - i;
  return j - i - 1;
}

std::int32_t require_special(const std::unordered_map<std::string, std::int32_t>& vocab,
                             const std::string& token, const std::string& path) {
  const auto it = vocab.find(token);
  if (it == vocab.end()) {
    throw core::ParseError(core::SourceLocation(path),
                           "vocabulary lacks the special token " + token);
  }
  return it->second;
}

void read_vocab(const nlohmann::json& j, const std::string& path,
                std::unordered_map<std::string, std::int32_t>& vocab) {
  if (!j.is_object() || j.empty()) {
    throw core::ParseError(core::SourceLocation(path),
                           "the vocabulary must be a non-empty JSON object token → id");
  }
  std::vector<bool> seen;
  for (const auto& [token, id] : j.items()) {
    if (!id.is_number_unsigned() ||
        id.get<std::uint64_t>() >=
            static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max())) {
      throw core::ParseError(core::SourceLocation(path),
                             "vocabulary entry \"" + token + "\": " + id.dump() +
                                 " is not a token id (a non-negative integer)");
    }
    const auto v = static_cast<std::size_t>(id.get<std::uint64_t>());
    if (v >= seen.size()) seen.resize(v + 1, false);
    if (seen[v]) {
      throw core::ParseError(core::SourceLocation(path), "vocabulary entry \"" + token + "\": id " +
                                                             std::to_string(v) +
                                                             " is given to another token too");
    }
    seen[v] = true;
    vocab.emplace(token, static_cast<std::int32_t>(v));
  }
}

}  // namespace

void BpeTokenizer::add_merge(std::string left, const std::string& right, const std::string& where) {
  if (left.empty() || right.empty() || left.find(' ') != std::string::npos ||
      right.find(' ') != std::string::npos) {
    throw core::ParseError(core::SourceLocation(where),
                           "a merge must be two non-empty symbols without spaces, got '" + left +
                               "' and '" + right + "'");
  }
  left += ' ';
  left += right;
  // A repeated pair keeps its first (highest) priority, as a dict built in order keeps the
  // last: both only matter for malformed files; first is what BPE's min() would pick.
  ranks_.emplace(std::move(left), static_cast<std::int32_t>(ranks_.size()));
}

void BpeTokenizer::finish(const std::string& path, const TokenizerConfig& config) {
  for (const auto& [token, id] : vocab_) {
    id_limit_ = std::max(id_limit_, static_cast<std::size_t>(id) + 1);
  }
  pad_ = require_special(vocab_, config.specials.pad, path);
  unk_ = require_special(vocab_, config.specials.unk, path);
  cls_ = require_special(vocab_, config.specials.cls, path);
  sep_ = require_special(vocab_, config.specials.sep, path);
}

BpeTokenizer BpeTokenizer::load(const std::string& vocab_json, const std::string& merges_txt,
                                const TokenizerConfig& config) {
  BpeTokenizer t;
  t.add_prefix_space_ = config.add_prefix_space;
  read_vocab(core::read_json_file(vocab_json), vocab_json, t.vocab_);
  core::LineReader lines(merges_txt);
  std::string_view line;
  while (lines.next(line)) {
    if (line.empty() || (lines.location().line == 1 && line.rfind("#version", 0) == 0)) continue;
    const auto space = line.find(' ');
    if (space == std::string_view::npos || line.find(' ', space + 1) != std::string_view::npos) {
      throw core::ParseError(lines.location(),
                             "expected a merge: two symbols separated by one space");
    }
    const core::SourceLocation where = lines.location();
    t.add_merge(std::string(line.substr(0, space)), std::string(line.substr(space + 1)),
                where.path + ":" + std::to_string(where.line));
  }
  t.finish(vocab_json, config);
  return t;
}

BpeTokenizer BpeTokenizer::load_tokenizer_json(const std::string& path,
                                               const TokenizerConfig& config) {
  const nlohmann::json j = core::read_json_file(path);
  const auto model = j.is_object() ? j.find("model") : j.end();
  if (!j.is_object() || model == j.end() || !model->is_object()) {
    throw core::ParseError(core::SourceLocation(path), "no \"model\" object");
  }
  const auto type = model->find("type");
  if (type == model->end() || !type->is_string() || type->get<std::string>() != "BPE") {
    throw core::ParseError(core::SourceLocation(path),
                           "model type " +
                               (type == model->end() ? std::string("(none)") : type->dump()) +
                               " is not supported here (expected \"BPE\", byte-level)");
  }
  BpeTokenizer t;
  t.add_prefix_space_ = config.add_prefix_space;
  if (const auto pre = j.find("pre_tokenizer");
      pre != j.end() && pre->is_object() && pre->value("type", "") == "ByteLevel") {
    if (const auto aps = pre->find("add_prefix_space"); aps != pre->end() && aps->is_boolean()) {
      t.add_prefix_space_ = aps->get<bool>();
    }
  }
  const auto vocab = model->find("vocab");
  if (vocab == model->end()) throw core::ParseError(core::SourceLocation(path), "no model.vocab");
  read_vocab(*vocab, path, t.vocab_);
  const auto merges = model->find("merges");
  if (merges == model->end() || !merges->is_array()) {
    throw core::ParseError(core::SourceLocation(path), "model.merges must be an array");
  }
  for (std::size_t i = 0; i < merges->size(); ++i) {
    const auto& m = (*merges)[i];
    const std::string where = path + ": model.merges[" + std::to_string(i) + "]";
    if (m.is_string()) {
      const std::string s = m.get<std::string>();
      const auto space = s.find(' ');
      if (space == std::string::npos || s.find(' ', space + 1) != std::string::npos) {
        throw core::ParseError(core::SourceLocation(where),
                               "expected two symbols separated by one space, got \"" + s + "\"");
      }
      t.add_merge(s.substr(0, space), s.substr(space + 1), where);
    } else if (m.is_array() && m.size() == 2 && m[0].is_string() && m[1].is_string()) {
      t.add_merge(m[0].get<std::string>(), m[1].get<std::string>(), where);
    } else {
      throw core::ParseError(core::SourceLocation(where),
                             "expected \"left right\" or [\"left\", \"right\"], got " + m.dump());
    }
  }
  t.finish(path, config);
  return t;
}

void BpeTokenizer::merge_word(const std::string& mapped, std::vector<std::string>& out) const {
  std::vector<std::string> word;
  for (std::size_t i = 0; i < mapped.size();) {  // one symbol per code point
    std::size_t j = i + 1;
    while (j < mapped.size() && (static_cast<unsigned char>(mapped[j]) & 0xC0) == 0x80) ++j;
    word.emplace_back(mapped, i, j - i);
    i = j;
  }
  std::string key;
  while (word.size() > 1) {
    std::int32_t best = std::numeric_limits<std::int32_t>::max();
    std::size_t best_at = 0;
    for (std::size_t i = 0; i + 1 < word.size(); ++i) {
      key.assign(word[i]).append(1, ' ').append(word[i + 1]);
      const auto it = ranks_.find(key);
      if (it != ranks_.end() && it->second < best) {
        best = it->second;
        best_at = i;
      }
    }
    if (best == std::numeric_limits<std::int32_t>::max()) break;
    const std::string first = word[best_at], second = word[best_at + 1];
    std::vector<std::string> merged;
    merged.reserve(word.size());
    for (std::size_t i = 0; i < word.size();) {
      if (i + 1 < word.size() && word[i] == first && word[i + 1] == second) {
        merged.push_back(first + second);
        i += 2;
      } else {
        merged.push_back(std::move(word[i]));
        ++i;
      }
    }
    word = std::move(merged);
  }
  for (auto& s : word) out.push_back(std::move(s));
}

std::vector<std::string> BpeTokenizer::tokenize(std::string_view text) const {
  std::string prefixed;
  if (add_prefix_space_ && !text.empty() &&
      decode(text.substr(0, 4)).front().kind != Kind::kSpace) {
    prefixed.reserve(text.size() + 1);
    prefixed.append(1, ' ').append(text);
    text = prefixed;
  }
  const std::vector<Char> chars = decode(text);
  const auto& symbols = byte_symbols();
  std::vector<std::string> out;
  std::string mapped;
  for (std::size_t i = 0; i < chars.size();) {
    const std::size_t len = match_length(chars, i);
    mapped.clear();
    for (std::size_t b = chars[i].begin; b < chars[i + len - 1].end; ++b) {
      mapped += symbols[static_cast<unsigned char>(text[b])];
    }
    merge_word(mapped, out);
    i += len;
  }
  return out;
}

std::vector<std::int32_t> BpeTokenizer::encode(std::string_view text) const {
  std::vector<std::int32_t> ids;
  for (const auto& piece : tokenize(text)) {
    const auto it = vocab_.find(piece);
    ids.push_back(it == vocab_.end() ? unk_ : it->second);
  }
  return ids;
}

std::vector<std::int32_t> BpeTokenizer::wrap(const std::vector<std::int32_t>& ids,
                                             std::size_t max_length) const {
  std::vector<std::int32_t> out;
  const std::size_t keep = max_length >= 2 ? std::min(ids.size(), max_length - 2) : 0;
  out.reserve(keep + 2);
  out.push_back(cls_);
  out.insert(out.end(), ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(keep));
  out.push_back(sep_);
  return out;
}

}  // namespace assay::lm
