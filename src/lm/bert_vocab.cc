#include "lm/bert_vocab.h"

#include "core/error.h"
#include "core/line_reader.h"

namespace assay::lm {

BertVocab BertVocab::load(const std::string& path, const TokenizerConfig& config) {
  core::LineReader lines(path);
  std::vector<std::string> tokens;
  std::string_view line;
  while (lines.next(line)) {
    if (line.empty()) {
      throw core::ParseError(lines.location(), "empty line in vocab.txt (expected one token)");
    }
    tokens.emplace_back(line);
  }
  return from_tokens(std::move(tokens), path, config);
}

BertVocab BertVocab::from_tokens(std::vector<std::string> tokens, const std::string& path,
                                 const TokenizerConfig& config) {
  BertVocab v;
  v.path_ = path;
  v.config_ = config;
  v.tokens_ = std::move(tokens);
  if (v.tokens_.empty()) throw core::ParseError(core::SourceLocation(path), "vocabulary is empty");
  if (v.tokens_.size() > static_cast<std::size_t>(INT32_MAX)) {
    throw core::ParseError(core::SourceLocation(path), "vocabulary too large");
  }
  v.index();
  return v;
}

void BertVocab::index() {
  ids_.reserve(tokens_.size());
  for (std::size_t i = 0; i < tokens_.size(); ++i) ids_[tokens_[i]] = static_cast<std::int32_t>(i);
  auto special = [&](const std::string& name) {
    const auto id = find(name);
    if (!id) {
      throw core::ParseError(core::SourceLocation(path_),
                             "vocabulary lacks the special token " + name);
    }
    return *id;
  };
  const SpecialTokens& s = config_.specials;
  pad_ = special(s.pad);
  unk_ = special(s.unk);
  cls_ = special(s.cls);
  sep_ = special(s.sep);
  mask_ = special(s.mask);
}

std::optional<std::int32_t> BertVocab::find(std::string_view token) const {
  const auto it = ids_.find(std::string(token));
  if (it == ids_.end()) return std::nullopt;
  return it->second;
}

}  // namespace assay::lm
