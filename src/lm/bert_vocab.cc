#include "lm/bert_vocab.h"

#include "core/error.h"
#include "core/line_reader.h"

namespace assay::lm {

BertVocab BertVocab::load(const std::string& path) {
  core::LineReader lines(path);
  std::vector<std::string> tokens;
  std::string_view line;
  while (lines.next(line)) {
    if (line.empty()) {
      throw core::ParseError(lines.location(), "empty line in vocab.txt (expected one token)");
    }
    tokens.emplace_back(line);
  }
  return from_tokens(std::move(tokens), path);
}

BertVocab BertVocab::from_tokens(std::vector<std::string> tokens, const std::string& path) {
  BertVocab v;
  v.path_ = path;
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
  auto special = [&](const char* name) {
    const auto id = find(name);
    if (!id) {
      throw core::ParseError(core::SourceLocation(path_),
                             std::string("vocabulary lacks the special token ") + name);
    }
    return *id;
  };
  pad_ = special("[PAD]");
  unk_ = special("[UNK]");
  cls_ = special("[CLS]");
  sep_ = special("[SEP]");
  mask_ = special("[MASK]");
}

std::optional<std::int32_t> BertVocab::find(std::string_view token) const {
  const auto it = ids_.find(std::string(token));
  if (it == ids_.end()) return std::nullopt;
  return it->second;
}

}  // namespace assay::lm
