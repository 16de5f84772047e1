#include "fairness/serving_protocols.h"

#include <algorithm>
#include <numeric>

#include "core/error.h"
#include "core/json_depth.h"
#include "models/model.h"

namespace assay::fairness {
namespace {

std::string dump(const nlohmann::ordered_json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

nlohmann::json parse_object(std::string_view body, const char* expected) {
  if (core::json_nests_deeper(body))
    throw core::ParseError("the body " + core::json_too_deep_reason());
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(body);
  } catch (const nlohmann::json::exception& e) {
    throw core::ParseError(std::string("the body is not JSON: ") + e.what());
  }
  if (!j.is_object()) throw core::ParseError(std::string("expected a JSON object ") + expected);
  return j;
}

// The strings of a JSON array (nested arrays flattened, as a tensor's data may be), or the
// ParseError naming `what`.
void strings_of(const nlohmann::json& array, const std::string& what,
                std::vector<std::string>& out) {
  for (const auto& item : array) {
    if (item.is_array()) {
      strings_of(item, what, out);
    } else if (item.is_string()) {
      out.push_back(item.get<std::string>());
    } else {
      throw core::ParseError(what + ": expected strings (the texts), got " + item.dump());
    }
  }
}

// Every field but `taken` is a request field.
nlohmann::json other_fields(const nlohmann::json& body,
                            std::initializer_list<std::string_view> taken) {
  nlohmann::json fields = nlohmann::json::object();
  for (const auto& [name, value] : body.items()) {
    if (std::find(taken.begin(), taken.end(), name) == taken.end()) fields[name] = value;
  }
  return fields;
}

std::vector<double> flat(const std::vector<NeutralAnswer>& answers,
                         std::vector<double> NeutralAnswer::*member) {
  std::vector<double> out;
  for (const auto& a : answers) out.insert(out.end(), (a.*member).begin(), (a.*member).end());
  return out;
}

}  // namespace

ServeRequest parse_predict_request(std::string_view body) {
  constexpr const char* kExpected =
      "{\"text\": \"...\"}, {\"texts\": [\"...\", ...]} or {\"inputs\": \"...\" or [...]}";
  const nlohmann::json j = parse_object(body, kExpected);
  ServeRequest r;
  const auto bad = [&] {
    return core::ParseError(std::string("expected a JSON object ") + kExpected);
  };
  if (j.contains("text")) {
    if (!j["text"].is_string()) throw bad();
    r.form = RequestForm::kText;
    r.texts.push_back(j["text"].get<std::string>());
  } else if (j.contains("texts")) {
    if (!j["texts"].is_array()) throw bad();
    r.form = RequestForm::kTexts;
    for (const auto& t : j["texts"]) {
      if (!t.is_string()) throw core::ParseError("\"texts\": expected strings, got " + t.dump());
      r.texts.push_back(t.get<std::string>());
    }
  } else if (j.contains("inputs")) {
    const auto& inputs = j["inputs"];
    if (inputs.is_string()) {
      r.form = RequestForm::kInputs;
      r.texts.push_back(inputs.get<std::string>());
    } else if (inputs.is_array()) {
      r.form = RequestForm::kInputsList;
      for (const auto& t : inputs) {
        if (!t.is_string()) throw core::ParseError("\"inputs\": expected strings, got " + t.dump());
        r.texts.push_back(t.get<std::string>());
      }
    } else {
      throw bad();
    }
  } else {
    throw bad();
  }
  if (r.texts.empty()) throw core::ParseError("an empty batch (expected at least one text)");
  r.fields = other_fields(j, {"text", "texts", "inputs"});
  return r;
}

ServeRequest parse_infer_request(std::string_view body) {
  constexpr const char* kExpected =
      "{\"inputs\": [{\"name\": \"text\", \"shape\": [n], \"datatype\": \"BYTES\", "
      "\"data\": [\"...\", ...]}]} (Open Inference Protocol)";
  const nlohmann::json j = parse_object(body, kExpected);
  if (!j.contains("inputs") || !j["inputs"].is_array() || j["inputs"].size() != 1 ||
      !j["inputs"][0].is_object()) {
    throw core::ParseError(std::string("expected one input tensor: ") + kExpected);
  }
  const auto& tensor = j["inputs"][0];
  const std::string name = tensor.contains("name") && tensor["name"].is_string()
                               ? tensor["name"].get<std::string>()
                               : "";
  const std::string what = "input tensor '" + name + "'";
  if (!tensor.contains("datatype") || tensor["datatype"] != "BYTES") {
    throw core::ParseError(what + ": expected datatype BYTES (the texts), got " +
                           (tensor.contains("datatype") ? tensor["datatype"].dump() : "none"));
  }
  if (!tensor.contains("data") || !tensor["data"].is_array())
    throw core::ParseError(what + ": expected \"data\", an array of strings");
  ServeRequest r;
  r.form = RequestForm::kOpenInference;
  strings_of(tensor["data"], what, r.texts);
  if (tensor.contains("shape")) {
    const auto& shape = tensor["shape"];
    const bool ok = shape.is_array() &&
                    (shape.size() == 1 || (shape.size() == 2 && shape[1] == 1)) &&
                    shape[0].is_number_unsigned() && shape[0].get<std::size_t>() == r.texts.size();
    if (!ok) {
      throw core::ParseError(what + ": shape " + shape.dump() + " does not fit its " +
                             std::to_string(r.texts.size()) + " strings (expected [" +
                             std::to_string(r.texts.size()) + "] or [" +
                             std::to_string(r.texts.size()) + ", 1])");
    }
  }
  if (r.texts.empty()) throw core::ParseError(what + ": no texts (expected at least one)");
  if (j.contains("id")) r.id = j["id"];
  r.fields = other_fields(j, {"inputs", "outputs"});
  return r;
}

std::string answer_body(const ServeRequest& request, const std::vector<NeutralAnswer>& answers,
                        const std::vector<std::string>& labels, const std::string& model_name) {
  const std::size_t n = answers.size();
  switch (request.form) {
    case RequestForm::kText:
    case RequestForm::kTexts: {
      nlohmann::ordered_json list = nlohmann::ordered_json::array();
      for (const auto& a : answers) {
        nlohmann::ordered_json j;
        j["label"] = labels[a.label];
        j["scores"] = a.scores;
        j["labels"] = labels;
        j["certificate"] = {{"epsilon", a.certificate.epsilon}, {"k", a.certificate.k}};
        j["upstream_label"] = labels[models::argmax(a.upstream_scores)];
        j["upstream_scores"] = a.upstream_scores;
        list.push_back(std::move(j));
      }
      return dump(request.form == RequestForm::kText ? list[0] : list);
    }
    case RequestForm::kInputs:
    case RequestForm::kInputsList: {
      nlohmann::ordered_json list = nlohmann::ordered_json::array();
      for (const auto& a : answers) {
        std::vector<std::size_t> order(labels.size());
        std::iota(order.begin(), order.end(), std::size_t{0});
        std::stable_sort(order.begin(), order.end(),
                         [&](std::size_t x, std::size_t y) { return a.scores[x] > a.scores[y]; });
        nlohmann::ordered_json entries = nlohmann::ordered_json::array();
        for (std::size_t c : order)
          entries.push_back({{"label", labels[c]}, {"score", a.scores[c]}});
        list.push_back(std::move(entries));
      }
      return dump(list);
    }
    case RequestForm::kOpenInference: {
      nlohmann::ordered_json j;
      j["model_name"] = model_name;
      if (!request.id.is_null()) j["id"] = request.id;
      j["parameters"] = {{"epsilon", n ? answers[0].certificate.epsilon : 0.0}};
      std::vector<std::string> label_names;
      std::vector<std::size_t> ks;
      for (const auto& a : answers) {
        label_names.push_back(labels[a.label]);
        ks.push_back(a.certificate.k);
      }
      auto tensor = [](const char* name, const char* type, std::vector<std::size_t> shape,
                       nlohmann::ordered_json data) {
        nlohmann::ordered_json t;
        t["name"] = name;
        t["shape"] = std::move(shape);
        t["datatype"] = type;
        t["data"] = std::move(data);
        return t;
      };
      j["outputs"] = {
          tensor("scores", "FP64", {n, labels.size()}, flat(answers, &NeutralAnswer::scores)),
          tensor("label", "BYTES", {n}, label_names), tensor("certificate_k", "INT64", {n}, ks),
          tensor("upstream_scores", "FP64", {n, labels.size()},
                 flat(answers, &NeutralAnswer::upstream_scores))};
      return dump(j);
    }
  }
  return "";
}

void check_model_name(const std::string& name) {
  if (name.empty() || name.find_first_of("/?# \t") != std::string::npos)
    throw core::UsageError("model name '" + name +
                           "': expected a non-empty name without '/', '?', '#' or blanks");
}

std::string model_metadata(const std::string& model_name, const std::vector<std::string>& labels,
                           double epsilon, std::size_t max_k) {
  nlohmann::ordered_json j;
  j["name"] = model_name;
  j["versions"] = nlohmann::ordered_json::array();
  j["platform"] = "assay-neutral-layer";
  j["inputs"] = {{{"name", "text"}, {"datatype", "BYTES"}, {"shape", {-1}}}};
  const auto l = static_cast<long long>(labels.size());
  j["outputs"] = {{{"name", "scores"}, {"datatype", "FP64"}, {"shape", {-1, l}}},
                  {{"name", "label"}, {"datatype", "BYTES"}, {"shape", {-1}}},
                  {{"name", "certificate_k"}, {"datatype", "INT64"}, {"shape", {-1}}},
                  {{"name", "upstream_scores"}, {"datatype", "FP64"}, {"shape", {-1, l}}}};
  j["parameters"] = {{"labels", labels}, {"epsilon", epsilon}, {"max_k", max_k}};
  return dump(j);
}

}  // namespace assay::fairness
