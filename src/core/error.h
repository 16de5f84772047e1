// Error types for bad input. Library code throws these and never prints; only apps/ chooses
// exit codes. A layer that knows more about where the failure happened appends context and
// rethrows, so the final message reads like "annotation.csv:12:3: expected a number, got 'x'
// (column 'SemEval')".
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

namespace assay::core {

// Where in an input the problem is. Line and column are 1-based; 0 means unknown. A byte
// offset is used for binary files instead of a line.
struct SourceLocation {
  SourceLocation() = default;
  SourceLocation(std::string path_, std::uint64_t line_ = 0, std::uint64_t column_ = 0,
                 std::optional<std::uint64_t> byte_offset_ = std::nullopt)
      : path(std::move(path_)), line(line_), column(column_), byte_offset(byte_offset_) {}

  std::string path;
  std::uint64_t line = 0;
  std::uint64_t column = 0;
  std::optional<std::uint64_t> byte_offset;

  // "path:line:column", "path:line", "path at byte N" or "path".
  std::string to_string() const;
};

// Base of every error caused by the user's input or environment (not by a bug).
class Error : public std::runtime_error {
 public:
  explicit Error(std::string message);
  Error(SourceLocation location, std::string message);

  const std::optional<SourceLocation>& location() const { return location_; }
  // The message without location or context.
  const std::string& detail() const { return detail_; }

  // Appends " (context)" to the message; returns *this so callers can write
  // `e.add_context("in column 'x'"); throw;`.
  Error& add_context(const std::string& context);
  // Sets the location if none is known yet (an inner reader may not know the file path).
  Error& set_location_if_missing(const SourceLocation& location);

  const char* what() const noexcept override { return message_.c_str(); }

 private:
  void rebuild();

  std::optional<SourceLocation> location_;
  std::string detail_;
  std::string context_;
  std::string message_;
};

// Malformed content of a file: wrong column count, not a number, invalid UTF-8, bad header.
class ParseError : public Error {
 public:
  using Error::Error;
};

// A file that cannot be opened, read or written.
class IoError : public Error {
 public:
  using Error::Error;
};

// Wrong use of the program or library: unknown option value, inconsistent arguments.
class UsageError : public Error {
 public:
  using Error::Error;
};

// A required resource (model file, Debian package data) is not installed.
class MissingResourceError : public Error {
 public:
  using Error::Error;
};

}  // namespace assay::core
