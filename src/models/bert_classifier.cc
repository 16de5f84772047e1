#include "models/bert_classifier.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/sha256.h"
#include "lm/bert_model.h"
#include "lm/safetensors_file.h"
#include "lm/wordpiece_tokenizer.h"
#include "models/whole_file.h"

namespace assay::models {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> read_labels(const fs::path& config_path, std::size_t n_labels) {
  const std::string path = config_path.string();
  nlohmann::json config;
  try {
    config = nlohmann::json::parse(read_whole_file(path));
  } catch (const nlohmann::json::parse_error& e) {
    throw core::ParseError(core::SourceLocation(path), std::string("not JSON: ") + e.what());
  }
  std::vector<std::string> labels(n_labels);
  for (std::size_t i = 0; i < n_labels; ++i) labels[i] = "LABEL_" + std::to_string(i);
  if (!config.contains("id2label")) return labels;
  const auto& id2label = config["id2label"];
  if (!id2label.is_object() || id2label.size() != n_labels) {
    throw core::ParseError(core::SourceLocation(path),
                           "id2label should map each of the classifier's " +
                               std::to_string(n_labels) + " outputs to a name, got " +
                               id2label.dump());
  }
  std::vector<bool> seen(n_labels, false);
  for (const auto& [key, value] : id2label.items()) {
    std::size_t id = 0;
    try {
      std::size_t used = 0;
      id = std::stoul(key, &used);
      if (used != key.size()) throw std::invalid_argument(key);
    } catch (const std::exception&) {
      throw core::ParseError(core::SourceLocation(path),
                             "id2label key '" + key + "' is not a class number");
    }
    if (id >= n_labels || seen[id] || !value.is_string()) {
      throw core::ParseError(core::SourceLocation(path), "id2label entry \"" + key +
                                                             "\": " + value.dump() +
                                                             " (expected one string per id 0.." +
                                                             std::to_string(n_labels - 1) + ")");
    }
    seen[id] = true;
    labels[id] = value.get<std::string>();
  }
  return labels;
}

}  // namespace

struct BertClassifier::Runtime {
  lm::BertModel::Loaded loaded;
  std::unique_ptr<lm::WordpieceTokenizer> tokenizer;
  std::vector<float> weight;  // [n_labels, hidden]
  std::vector<float> bias;    // [n_labels]
  std::size_t hidden = 0;
};

BertClassifier::BertClassifier(const std::string& dir, std::size_t batch_size)
    : runtime_(std::make_unique<Runtime>()), batch_size_(std::max<std::size_t>(1, batch_size)) {
  const fs::path root(dir);
  if (fs::is_directory(root) && !fs::exists(root / "model.safetensors") &&
      fs::exists(root / "pytorch_model.bin")) {
    throw core::MissingResourceError(
        core::SourceLocation((root / "model.safetensors").string()),
        "missing model.safetensors; only pytorch_model.bin is present, which assay does not "
        "read (unpickling it can run arbitrary code). Convert it once with Python: from "
        "transformers import AutoModelForSequenceClassification as M; "
        "M.from_pretrained('" +
            dir + "').save_pretrained('" + dir + "', safe_serialization=True)");
  }
  runtime_->loaded = lm::BertModel::load_dir(dir);
  const auto& model = *runtime_->loaded.model;
  if (!model.weights().has_pooler()) {
    throw core::ParseError(core::SourceLocation((root / "model.safetensors").string()),
                           "no pooler weights (bert.pooler.dense.*): not a "
                           "BertForSequenceClassification checkpoint");
  }
  const std::size_t hidden = model.config().hidden_size;
  const std::string st = (root / "model.safetensors").string();
  const lm::SafetensorsFile file(st);
  const auto* weight = file.find("classifier.weight");
  const auto* bias = file.find("classifier.bias");
  if (!weight || !bias) {
    throw core::ParseError(core::SourceLocation(st),
                           "no classifier.weight/classifier.bias: not a "
                           "BertForSequenceClassification checkpoint");
  }
  if (weight->shape.size() != 2 || weight->shape[1] != hidden || weight->shape[0] == 0 ||
      bias->shape.size() != 1 || bias->shape[0] != weight->shape[0]) {
    throw core::ParseError(core::SourceLocation(st), "classifier.weight should be [n_labels, " +
                                                         std::to_string(hidden) +
                                                         "] and classifier.bias [n_labels]");
  }
  runtime_->weight = file.to_f32(*weight);
  runtime_->bias = file.to_f32(*bias);
  runtime_->hidden = hidden;
  runtime_->tokenizer = std::make_unique<lm::WordpieceTokenizer>(runtime_->loaded.vocab);
  labels_ = read_labels(root / "config.json", static_cast<std::size_t>(weight->shape[0]));
  std::string hashes;
  for (const char* name : {"config.json", "vocab.txt", "model.safetensors"}) {
    hashes += std::string(name) + "=" + core::file_sha256_hex((root / name).string()) + "\n";
  }
  identity_ = "bert:sha256:" + core::sha256_hex(hashes);
}

BertClassifier::~BertClassifier() = default;

std::vector<std::vector<double>> BertClassifier::predict(const std::vector<std::string>& texts) {
  const auto& model = *runtime_->loaded.model;
  const std::size_t max_length = model.config().max_position_embeddings;
  const std::size_t n_labels = labels_.size();
  const std::size_t hidden = runtime_->hidden;
  std::vector<std::vector<double>> out;
  out.reserve(texts.size());
  for (std::size_t begin = 0; begin < texts.size(); begin += batch_size_) {
    const std::size_t end = std::min(texts.size(), begin + batch_size_);
    std::vector<std::vector<std::int32_t>> seqs;
    for (std::size_t i = begin; i < end; ++i) {
      seqs.push_back(runtime_->tokenizer->wrap(runtime_->tokenizer->encode(texts[i]), max_length));
    }
    const auto encoded = model.encode(seqs, runtime_->loaded.vocab.pad_id());
    const auto pooled = model.pool(encoded);
    for (std::size_t s = 0; s < seqs.size(); ++s) {
      std::vector<double> logits(n_labels);
      for (std::size_t k = 0; k < n_labels; ++k) {
        double sum = runtime_->bias[k];
        for (std::size_t h = 0; h < hidden; ++h) {
          sum += static_cast<double>(runtime_->weight[k * hidden + h]) *
                 static_cast<double>(pooled[s * hidden + h]);
        }
        logits[k] = sum;
      }
      const double m = *std::max_element(logits.begin(), logits.end());
      double total = 0;
      for (double& v : logits) {
        v = std::exp(v - m);
        total += v;
      }
      for (double& v : logits) v /= total;
      out.push_back(std::move(logits));
    }
  }
  return out;
}

}  // namespace assay::models
