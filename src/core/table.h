// Table: the one model of a report table. A report builds its tables once and renders each as
// Markdown (for .md files and terminals), CSV (RFC 4180, for scripts) or HTML (for report
// pages), so no report parses its own output back.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace assay::core {

enum class Align { kLeft, kRight };

class Table {
 public:
  struct Column {
    std::string name;
    Align align = Align::kLeft;
    // The column's cells are HTML fragments (already escaped, e.g. text with <mark>): html()
    // writes them as they are; Markdown and CSV write them unchanged too.
    bool html = false;
  };

  explicit Table(std::vector<Column> columns, std::string caption = "");

  // Appends a row; a cell equal to kMissing is a value that does not exist (rendered "–" in
  // Markdown and HTML, empty in CSV). Throws std::invalid_argument (a bug, not bad input)
  // when the row's width differs from the header's.
  Table& add_row(std::vector<std::string> cells);
  static constexpr std::string_view kMissing = "\x01missing";

  const std::vector<Column>& columns() const { return columns_; }
  const std::vector<std::vector<std::string>>& rows() const { return rows_; }
  const std::string& caption() const { return caption_; }

  // "| a | b |", "|---|---:|", one line per row (an empty cell as "| |"), then the caption
  // (if any) on its own line.
  std::string markdown() const;
  // Header line and rows, fields quoted where needed; the caption is not part of CSV.
  std::string csv() const;
  // <table> with <caption>, <thead> and <tbody>; text escaped, right-aligned columns marked
  // class="num".
  std::string html() const;

 private:
  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;
  std::string caption_;
};

// One CSV field: quoted (with doubled quotes) when it holds a comma, quote, CR or LF, or
// starts or ends with a space.
std::string csv_field(std::string_view text);
// Fields joined by commas, ended by "\n".
std::string csv_line(const std::vector<std::string>& fields);

}  // namespace assay::core
