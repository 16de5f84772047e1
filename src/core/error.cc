#include "core/error.h"

#include <utility>

#include "core/excerpt.h"

namespace assay::core {

std::string excerpt(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  std::size_t cut = max_bytes;
  // Back up to the start of a UTF-8 character (continuation bytes are 10xxxxxx).
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return std::string(text.substr(0, cut)) + "...";
}

std::string escape_control(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else if (c == 0xc2 && i + 1 < text.size() &&
               (static_cast<unsigned char>(text[i + 1]) & 0xe0) == 0x80) {  // U+0080..U+009F
      const auto d = static_cast<unsigned char>(text[++i]);
      out += "\\u00";
      out += kHex[d >> 4];
      out += kHex[d & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

std::string SourceLocation::to_string() const {
  std::string out = path.empty() ? std::string("<input>") : path;
  if (line > 0) {
    out += ':' + std::to_string(line);
    if (column > 0) out += ':' + std::to_string(column);
  } else if (byte_offset) {
    out += " at byte " + std::to_string(*byte_offset);
  }
  return out;
}

Error::Error(std::string message)
    : std::runtime_error(excerpt(message, kMaxErrorDetail)), detail_(std::move(message)) {
  rebuild();
}

Error::Error(SourceLocation location, std::string message)
    : std::runtime_error(excerpt(message, kMaxErrorDetail)),
      location_(std::move(location)),
      detail_(std::move(message)) {
  rebuild();
}

Error& Error::add_context(const std::string& context) {
  if (!context.empty()) {
    context_ += " (" + context + ")";
    rebuild();
  }
  return *this;
}

Error& Error::set_location_if_missing(const SourceLocation& location) {
  if (!location_) {
    location_ = location;
  } else if (location_->path.empty()) {
    location_->path = location.path;
  }
  rebuild();
  return *this;
}

void Error::rebuild() {
  if (detail_.size() > kMaxErrorDetail) detail_ = excerpt(detail_, kMaxErrorDetail);
  if (context_.size() > kMaxErrorDetail) context_ = excerpt(context_, kMaxErrorDetail);
  message_.clear();
  if (location_) message_ = location_->to_string() + ": ";
  message_ += detail_;
  message_ += context_;
}

}  // namespace assay::core
