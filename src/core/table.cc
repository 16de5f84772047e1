#include "core/table.h"

#include <stdexcept>

#include "core/xml_escape.h"

namespace assay::core {
namespace {

std::string shown(const std::string& cell) {
  return cell == Table::kMissing ? "–" : cell;
}

}  // namespace

Table::Table(std::vector<Column> columns, std::string caption)
    : columns_(std::move(columns)), caption_(std::move(caption)) {}

Table& Table::add_row(std::vector<std::string> cells) {
  if (cells.size() != columns_.size()) {
    throw std::invalid_argument("Table::add_row: " + std::to_string(cells.size()) + " cells for " +
                                std::to_string(columns_.size()) + " columns");
  }
  rows_.push_back(std::move(cells));
  return *this;
}

std::string Table::markdown() const {
  std::string out = "|";
  for (const auto& c : columns_) {
    out += ' ';
    out += c.name;
    out += " |";
  }
  out += "\n|";
  for (const auto& c : columns_) out += c.align == Align::kRight ? "---:|" : "---|";
  out += '\n';
  for (const auto& row : rows_) {
    out += '|';
    for (const auto& cell : row) {
      if (!cell.empty()) {
        out += ' ';
        out += shown(cell);
      }
      out += " |";
    }
    out += '\n';
  }
  if (!caption_.empty()) out += caption_ + "\n";
  return out;
}

std::string Table::csv() const {
  std::vector<std::string> header;
  for (const auto& c : columns_) header.push_back(c.name);
  std::string out = csv_line(header);
  for (const auto& row : rows_) {
    std::vector<std::string> fields;
    for (const auto& cell : row) fields.push_back(cell == kMissing ? "" : cell);
    out += csv_line(fields);
  }
  return out;
}

std::string Table::html() const {
  std::string out = "<table>\n";
  if (!caption_.empty()) out += "<caption>" + xml_escape(caption_) + "</caption>\n";
  out += "<thead><tr>";
  for (const auto& c : columns_) {
    out += c.align == Align::kRight ? "<th class=\"num\">" : "<th>";
    out += xml_escape(c.name) + "</th>";
  }
  out += "</tr></thead>\n<tbody>\n";
  for (const auto& row : rows_) {
    out += "<tr>";
    for (std::size_t i = 0; i < row.size(); ++i) {
      out += columns_[i].align == Align::kRight ? "<td class=\"num\">" : "<td>";
      out += (columns_[i].html ? shown(row[i]) : xml_escape(shown(row[i]))) + "</td>";
    }
    out += "</tr>\n";
  }
  return out + "</tbody>\n</table>\n";
}

std::string csv_field(std::string_view text) {
  const bool quote = text.find_first_of(",\"\r\n") != std::string_view::npos ||
                     (!text.empty() && (text.front() == ' ' || text.back() == ' '));
  if (!quote) return std::string(text);
  std::string out = "\"";
  for (char ch : text) {
    if (ch == '"') out += '"';
    out += ch;
  }
  return out + "\"";
}

std::string csv_line(const std::vector<std::string>& fields) {
  std::string out;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i) out += ',';
    out += csv_field(fields[i]);
  }
  return out + "\n";
}

}  // namespace assay::core
