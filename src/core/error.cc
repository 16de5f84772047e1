#include "core/error.h"

#include <utility>

namespace assay::core {

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

Error::Error(std::string message) : std::runtime_error(message), detail_(std::move(message)) {
  rebuild();
}

Error::Error(SourceLocation location, std::string message)
    : std::runtime_error(message), location_(std::move(location)), detail_(std::move(message)) {
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
  message_.clear();
  if (location_) message_ = location_->to_string() + ": ";
  message_ += detail_;
  message_ += context_;
}

}  // namespace assay::core
