#include "lm/tokenizer_config.h"

#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/json_file.h"

namespace assay::lm {
namespace {

void read_bool(const nlohmann::json& j, const char* key, const std::string& path, bool& out) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return;
  if (!it->is_boolean()) {
    throw core::ParseError(core::SourceLocation(path),
                           std::string("'") + key + "' must be true or false, got " + it->dump());
  }
  out = it->get<bool>();
}

void read_token(const nlohmann::json& j, const char* key, const std::string& path,
                std::string& out) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return;
  const nlohmann::json* content = &*it;
  if (it->is_object()) {
    const auto c = it->find("content");
    if (c == it->end())
      content = nullptr;
    else
      content = &*c;
  }
  if (!content || !content->is_string() || content->get<std::string>().empty()) {
    throw core::ParseError(core::SourceLocation(path),
                           std::string("'") + key +
                               "' must be a token string or an object with a \"content\" "
                               "string, got " +
                               it->dump());
  }
  out = content->get<std::string>();
}

}  // namespace

TokenizerConfig TokenizerConfig::load(const std::string& path, TokenizerConfig defaults) {
  if (!std::filesystem::exists(path)) return defaults;
  const nlohmann::json j = core::read_json_file(path);
  if (!j.is_object()) throw core::ParseError(core::SourceLocation(path), "not a JSON object");
  TokenizerConfig c = std::move(defaults);
  read_bool(j, "do_lower_case", path, c.lower_case);
  if (const auto it = j.find("strip_accents"); it != j.end() && !it->is_null()) {
    bool strip = false;
    read_bool(j, "strip_accents", path, strip);
    c.strip_accents = strip;
  }
  read_bool(j, "add_prefix_space", path, c.add_prefix_space);
  read_token(j, "pad_token", path, c.specials.pad);
  read_token(j, "unk_token", path, c.specials.unk);
  read_token(j, "cls_token", path, c.specials.cls);
  read_token(j, "sep_token", path, c.specials.sep);
  read_token(j, "mask_token", path, c.specials.mask);
  return c;
}

}  // namespace assay::lm
