#include "models/lr_model.h"

#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/sha256.h"
#include "models/label_map.h"
#include "models/whole_file.h"

namespace assay::models {
namespace {

constexpr const char* kFormat = "assay-lr";
constexpr int kVersion = 1;

}  // namespace

LrModel::LrModel(std::vector<std::string> labels, CountVectorizer vectorizer,
                 LogisticRegression classifier)
    : labels_(std::move(labels)),
      vectorizer_(std::move(vectorizer)),
      classifier_(std::move(classifier)) {
  identity_ = "lr:sha256:" + core::sha256_hex(serialize());
}

std::unique_ptr<LrModel> LrModel::train(const std::vector<std::string>& texts,
                                        const std::vector<std::string>& labels,
                                        const LogisticRegressionOptions& options,
                                        LrTrainSummary* summary) {
  if (texts.size() != labels.size()) {
    throw core::Error("got " + std::to_string(texts.size()) + " texts but " +
                      std::to_string(labels.size()) + " labels");
  }
  const std::set<std::string> distinct(labels.begin(), labels.end());
  if (distinct.size() < 2) {
    throw core::Error("training needs at least two distinct labels, got " +
                      std::to_string(distinct.size()));
  }
  std::vector<std::string> classes(distinct.begin(), distinct.end());
  std::map<std::string, int> class_index;
  for (std::size_t i = 0; i < classes.size(); ++i) class_index[classes[i]] = static_cast<int>(i);
  CountVectorizer vectorizer;
  vectorizer.fit(texts);
  std::vector<SparseRow> rows;
  rows.reserve(texts.size());
  std::vector<int> y;
  y.reserve(texts.size());
  for (std::size_t i = 0; i < texts.size(); ++i) {
    rows.push_back(vectorizer.transform(texts[i]));
    y.push_back(class_index.at(labels[i]));
  }
  LbfgsResult solver;
  auto classifier =
      LogisticRegression::fit(rows, y, classes.size(), vectorizer.size(), options, &solver);
  if (summary) {
    summary->n_documents = texts.size();
    summary->n_features = vectorizer.size();
    summary->n_iterations = solver.n_iterations;
    summary->converged = solver.converged;
    summary->objective = solver.value;
  }
  return std::unique_ptr<LrModel>(
      new LrModel(std::move(classes), std::move(vectorizer), std::move(classifier)));
}

std::string LrModel::serialize() const {
  nlohmann::ordered_json j;
  j["format"] = kFormat;
  j["version"] = kVersion;
  j["labels"] = labels_;
  j["vocabulary"] = vectorizer_.vocabulary();
  auto coef = nlohmann::ordered_json::array();
  const std::size_t n_features = classifier_.n_features();
  for (std::size_t k = 0; k < classifier_.n_vectors(); ++k) {
    const auto begin = classifier_.coef().begin() + static_cast<std::ptrdiff_t>(k * n_features);
    coef.push_back(std::vector<double>(begin, begin + static_cast<std::ptrdiff_t>(n_features)));
  }
  j["coef"] = std::move(coef);
  j["intercept"] = classifier_.intercept();
  return j.dump() + "\n";
}

void LrModel::save(const std::string& path) const {
  core::write_file_atomically(path, serialize());
}

std::unique_ptr<LrModel> LrModel::load(const std::string& path) {
  const std::string bytes = read_whole_file(path);
  const core::SourceLocation where(path);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(bytes);
  } catch (const nlohmann::json::exception& e) {  // a syntax error, or a number like 1e999
    throw core::ParseError(where, std::string("not an assay LR model file (expected the JSON that "
                                              "`assay model train-lr` writes): ") +
                                      e.what());
  }
  try {
    if (!j.is_object() || j.value("format", "") != kFormat) {
      throw core::ParseError(where,
                             "not an assay LR model file (no \"format\": \"assay-lr\"); "
                             "make one with `assay model train-lr`");
    }
    if (j.at("version").get<int>() != kVersion) {
      throw core::ParseError(where, "unsupported assay-lr version " + j.at("version").dump() +
                                        " (this assay reads version 1)");
    }
    auto labels = j.at("labels").get<std::vector<std::string>>();
    if (const std::string twice = repeated_label(labels); !twice.empty())
      throw core::ParseError(where, "the label '" + twice + "' is named twice");
    CountVectorizer vectorizer(j.at("vocabulary").get<std::vector<std::string>>());
    std::vector<double> coef;
    for (const auto& row : j.at("coef")) {
      const auto values = row.get<std::vector<double>>();
      if (values.size() != vectorizer.size()) {
        throw core::ParseError(where, "a coefficient row has " + std::to_string(values.size()) +
                                          " values, expected one per vocabulary entry (" +
                                          std::to_string(vectorizer.size()) + ")");
      }
      coef.insert(coef.end(), values.begin(), values.end());
    }
    LogisticRegression classifier(labels.size(), vectorizer.size(), std::move(coef),
                                  j.at("intercept").get<std::vector<double>>());
    auto model = std::unique_ptr<LrModel>(
        new LrModel(std::move(labels), std::move(vectorizer), std::move(classifier)));
    model->identity_ = "lr:sha256:" + core::sha256_hex(bytes);
    return model;
  } catch (const nlohmann::json::exception& e) {
    throw core::ParseError(where, std::string("malformed assay LR model file: ") + e.what());
  } catch (core::ParseError&) {
    throw;
  } catch (core::Error& e) {
    e.set_location_if_missing(where);
    throw;
  }
}

std::vector<std::vector<double>> LrModel::predict(const std::vector<std::string>& texts) {
  std::vector<std::vector<double>> out;
  out.reserve(texts.size());
  for (const auto& text : texts)
    out.push_back(classifier_.predict_proba(vectorizer_.transform(text)));
  return out;
}

}  // namespace assay::models
