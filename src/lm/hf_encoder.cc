#include "lm/hf_encoder.h"

#include <filesystem>

#include "core/error.h"

namespace assay::lm {
namespace {

namespace fs = std::filesystem;

void require_file(const fs::path& file, const std::string& model_type, const char* what) {
  if (!fs::exists(file)) {
    throw core::MissingResourceError(
        core::SourceLocation(file.string()),
        "missing " + file.filename().string() + " (a " + model_type + " model needs " + what + ")");
  }
}

}  // namespace

HfEncoder HfEncoder::load_dir(const std::string& dir) {
  const fs::path root(dir);
  const BertConfig config = BertModel::load_config(dir);
  HfEncoder e;
  e.files_.push_back((root / "config.json").string());
  const fs::path tc_path = root / "tokenizer_config.json";
  if (fs::exists(tc_path)) e.files_.push_back(tc_path.string());
  std::size_t id_limit = 0;
  std::string vocab_file;
  if (config.architecture == Architecture::kRoberta) {
    TokenizerConfig defaults;
    defaults.specials = SpecialTokens::roberta();
    const TokenizerConfig tc = TokenizerConfig::load(tc_path.string(), defaults);
    const fs::path tj = root / "tokenizer.json";
    if (fs::exists(tj)) {
      e.bpe_ = std::make_unique<BpeTokenizer>(BpeTokenizer::load_tokenizer_json(tj.string(), tc));
      vocab_file = tj.string();
      e.files_.push_back(vocab_file);
    } else {
      const char* what = "tokenizer.json, or vocab.json and merges.txt";
      require_file(root / "vocab.json", config.model_type, what);
      require_file(root / "merges.txt", config.model_type, what);
      vocab_file = (root / "vocab.json").string();
      e.bpe_ = std::make_unique<BpeTokenizer>(
          BpeTokenizer::load(vocab_file, (root / "merges.txt").string(), tc));
      e.files_.push_back(vocab_file);
      e.files_.push_back((root / "merges.txt").string());
    }
    id_limit = e.bpe_->id_limit();
  } else {
    require_file(root / "vocab.txt", config.model_type, "vocab.txt");
    vocab_file = (root / "vocab.txt").string();
    e.vocab_ = std::make_unique<BertVocab>(
        BertVocab::load(vocab_file, TokenizerConfig::load(tc_path.string(), {})));
    e.wordpiece_ = std::make_unique<WordpieceTokenizer>(*e.vocab_);
    e.files_.push_back(vocab_file);
    id_limit = e.vocab_->size();
  }
  if (id_limit > config.vocab_size) {
    throw core::ParseError(core::SourceLocation(vocab_file),
                           "the tokenizer has ids up to " + std::to_string(id_limit - 1) +
                               " but config.json says vocab_size " +
                               std::to_string(config.vocab_size));
  }
  e.model_ = BertModel::load_weights(dir, config);
  e.files_.push_back((root / "model.safetensors").string());
  return e;
}

std::vector<std::int32_t> HfEncoder::encode_input(std::string_view text) const {
  const std::size_t max_length = config().max_tokens();
  if (bpe_) return bpe_->wrap(bpe_->encode(text), max_length);
  return wordpiece_->wrap(wordpiece_->encode(text), max_length);
}

std::int32_t HfEncoder::pad_id() const {
  return bpe_ ? bpe_->pad_id() : vocab_->pad_id();
}

}  // namespace assay::lm
