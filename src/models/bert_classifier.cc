#include "models/bert_classifier.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/sha256.h"
#include "lm/hf_encoder.h"
#include "lm/safetensors_file.h"
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

// One dense layer of the head: [out, in] weights and [out] bias from the checkpoint.
struct Dense {
  std::vector<float> w, b;
  std::size_t in = 0, out = 0;

  // Reads NAME.weight and NAME.bias; `out` 0 accepts any output size. Returns false when
  // either is absent.
  bool load(const lm::SafetensorsFile& file, const std::string& name, std::size_t in_size,
            std::size_t out_size) {
    const auto* weight = file.find(name + ".weight");
    const auto* bias = file.find(name + ".bias");
    if (!weight || !bias) return false;
    if (weight->shape.size() != 2 || weight->shape[1] != in_size || weight->shape[0] == 0 ||
        (out_size != 0 && weight->shape[0] != out_size) || bias->shape.size() != 1 ||
        bias->shape[0] != weight->shape[0]) {
      throw core::ParseError(core::SourceLocation(file.path()),
                             name + ".weight should be [" +
                                 (out_size ? std::to_string(out_size) : std::string("n_labels")) +
                                 ", " + std::to_string(in_size) + "] and " + name + ".bias [" +
                                 (out_size ? std::to_string(out_size) : std::string("n_labels")) +
                                 "]");
    }
    w = file.to_f32(*weight);
    b = file.to_f32(*bias);
    in = in_size;
    out = static_cast<std::size_t>(weight->shape[0]);
    return true;
  }

  // y = W·x + b in double.
  std::vector<double> apply(const double* x) const {
    std::vector<double> y(out);
    for (std::size_t k = 0; k < out; ++k) {
      double sum = b[k];
      for (std::size_t i = 0; i < in; ++i) sum += static_cast<double>(w[k * in + i]) * x[i];
      y[k] = sum;
    }
    return y;
  }
};

}  // namespace

// The sequence-classification head of each architecture, on the first token's state:
//   BERT:       pooler tanh(W·h + b) (in the encoder's weights), then classifier;
//   DistilBERT: pre_classifier, ReLU, classifier;
//   RoBERTa:    classifier.dense, tanh, classifier.out_proj.
struct BertClassifier::Runtime {
  lm::HfEncoder encoder;
  Dense hidden;  // pre_classifier / classifier.dense; unused for BERT
  Dense output;  // classifier / classifier.out_proj
};

BertClassifier::BertClassifier(const std::string& dir, std::size_t batch_size)
    : batch_size_(std::max<std::size_t>(1, batch_size)) {
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
  runtime_ = std::make_unique<Runtime>(Runtime{lm::HfEncoder::load_dir(dir), {}, {}});
  const auto& model = runtime_->encoder.model();
  const std::size_t h = model.config().hidden_size;
  const std::string st = (root / "model.safetensors").string();
  const lm::SafetensorsFile file(st);
  std::string expected;
  bool found = false;
  switch (model.config().architecture) {
    case lm::Architecture::kBert:
      if (!model.weights().has_pooler()) {
        throw core::ParseError(core::SourceLocation(st),
                               "no pooler weights (bert.pooler.dense.*): not a "
                               "BertForSequenceClassification checkpoint");
      }
      expected = "classifier.weight/classifier.bias: not a BertForSequenceClassification";
      found = runtime_->output.load(file, "classifier", h, 0);
      break;
    case lm::Architecture::kDistilBert:
      expected = "pre_classifier.* and classifier.*: not a DistilBertForSequenceClassification";
      found = runtime_->hidden.load(file, "pre_classifier", h, h) &&
              runtime_->output.load(file, "classifier", h, 0);
      break;
    case lm::Architecture::kRoberta:
      expected =
          "classifier.dense.* and classifier.out_proj.*: not a "
          "RobertaForSequenceClassification";
      found = runtime_->hidden.load(file, "classifier.dense", h, h) &&
              runtime_->output.load(file, "classifier.out_proj", h, 0);
      break;
  }
  if (!found) throw core::ParseError(core::SourceLocation(st), "no " + expected + " checkpoint");
  labels_ = read_labels(root / "config.json", runtime_->output.out);
  std::string hashes;
  for (const auto& path : runtime_->encoder.files()) {
    hashes += fs::path(path).filename().string() + "=" + core::file_sha256_hex(path) + "\n";
  }
  identity_ = "bert:sha256:" + core::sha256_hex(hashes);
}

BertClassifier::~BertClassifier() = default;

std::vector<std::vector<double>> BertClassifier::predict(const std::vector<std::string>& texts) {
  const auto& encoder = runtime_->encoder;
  const auto& model = encoder.model();
  const lm::Architecture arch = model.config().architecture;
  const std::size_t h = model.config().hidden_size;
  // Texts are batched in order of length (stable), so a batch pads little; answers go back
  // to their texts' places (padding never changes an answer, see lm/bert_model.h).
  std::vector<std::vector<std::int32_t>> ids;
  ids.reserve(texts.size());
  for (const auto& text : texts) ids.push_back(encoder.encode_input(text));
  std::vector<std::size_t> order(texts.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return ids[a].size() < ids[b].size(); });
  std::vector<std::vector<double>> out(texts.size());
  for (std::size_t begin = 0; begin < texts.size(); begin += batch_size_) {
    const std::size_t end = std::min(texts.size(), begin + batch_size_);
    std::vector<std::vector<std::int32_t>> seqs;
    for (std::size_t i = begin; i < end; ++i) seqs.push_back(std::move(ids[order[i]]));
    const auto encoded = model.encode(seqs, encoder.pad_id());
    const std::vector<float> pooled =
        arch == lm::Architecture::kBert ? model.pool(encoded) : std::vector<float>{};
    for (std::size_t s = 0; s < seqs.size(); ++s) {
      const float* first =
          arch == lm::Architecture::kBert ? pooled.data() + s * h : encoded.row(s, 0);
      std::vector<double> x(first, first + h);
      if (arch != lm::Architecture::kBert) {
        x = runtime_->hidden.apply(x.data());
        for (double& v : x)
          v = arch == lm::Architecture::kDistilBert ? std::max(v, 0.0) : std::tanh(v);
      }
      std::vector<double> logits = runtime_->output.apply(x.data());
      const double m = *std::max_element(logits.begin(), logits.end());
      double total = 0;
      for (double& v : logits) {
        v = std::exp(v - m);
        total += v;
      }
      for (double& v : logits) v /= total;
      out[order[begin + s]] = std::move(logits);
    }
  }
  return out;
}

}  // namespace assay::models
