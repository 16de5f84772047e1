// Reading the JSON files the fairness commands write (summary.json, violations.jsonl,
// mitigation.json) back: the document of a file, and field access whose errors name the file
// (and line) and the key.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

#include "core/error.h"

namespace assay::fairness {

// The JSON document in `path`. Throws core::IoError when it cannot be read, core::ParseError
// "not valid JSON: ..." at the line and column of a syntax error.
nlohmann::json read_json_document(const std::string& path);

// Field access; every error is a core::ParseError at `where`.
struct JsonFields {
  core::SourceLocation where;

  // v[key]: v must be an object holding key.
  const nlohmann::json& get(const nlohmann::json& v, const std::string& key) const;
  // A non-negative integer.
  std::size_t count(const nlohmann::json& v, const std::string& key) const;
  std::size_t as_count(const nlohmann::json& x, const std::string& key) const;
  // A number (null: NaN).
  double number(const nlohmann::json& v, const std::string& key) const;
  std::string text(const nlohmann::json& v, const std::string& key) const;
  const nlohmann::json& array(const nlohmann::json& v, const std::string& key) const;
  // The largest of a non-empty array of numbers.
  double top_score(const nlohmann::json& v, const std::string& key) const;
};

}  // namespace assay::fairness
