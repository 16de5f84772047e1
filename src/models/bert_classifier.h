// BertClassifier (`bert:DIR`): a local Hugging Face encoder-classifier folder run on assay's
// encoder runtime (src/lm, see lm/hf_encoder.h): BertForSequenceClassification,
// DistilBertForSequenceClassification or RobertaForSequenceClassification, chosen by
// config.json's model_type (any other is named as unsupported before any missing file).
// The text's ids ([CLS] text [SEP] or <s> text </s>, truncated to the model's positions),
// the encoder, the architecture's head on the first token's state — BERT: pooler
// tanh(W·h + b) then classifier; DistilBERT: pre_classifier, ReLU, classifier; RoBERTa:
// classifier.dense, tanh, classifier.out_proj — and a softmax; scores are the class
// probabilities. Texts are run in batches of `batch_size`, formed in order of token count so
// that a batch pads little (padding never changes a text's answer, see lm/bert_model.h).
//
// Labels are config.json's id2label (in id order); without it, HF's defaults LABEL_0, LABEL_1…
// identity() is "bert:sha256:" + the hash of the hashes of the files read (config.json,
// tokenizer_config.json when present, the tokenizer files, model.safetensors), so a retrained
// or edited folder never reuses cached answers.
//
// Throws core::MissingResourceError for a missing file — with the command that converts a
// folder holding only pytorch_model.bin — and core::ParseError for a checkpoint without the
// pooler or classifier head, or with shapes that disagree with config.json.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "models/model.h"

namespace assay::models {

class BertClassifier : public Model {
 public:
  explicit BertClassifier(const std::string& dir, std::size_t batch_size = 32);
  ~BertClassifier() override;

  std::vector<std::vector<double>> predict(const std::vector<std::string>& texts) override;
  const std::vector<std::string>& labels() const override { return labels_; }
  std::string identity() const override { return identity_; }

 private:
  struct Runtime;
  std::unique_ptr<Runtime> runtime_;
  std::vector<std::string> labels_;
  std::string identity_;
  std::size_t batch_size_;
};

}  // namespace assay::models
