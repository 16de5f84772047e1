// libFuzzer target: core::CsvReader (CSV and TSV). The first input byte picks the options
// (delimiter ',' / '\t' / ';' / '|', header or not, quoting, UTF-8 or Latin-1, fixed field
// count); the rest is the file. Every record is read, and every field's location and number
// parse exercised. Run: tools/fuzz/run.sh csv
#include <cstdint>
#include <string>

#include "core/csv_reader.h"
#include "core/error.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t mode = data[0];
  assay::core::CsvOptions options;
  static constexpr char kDelimiters[] = {',', '\t', ';', '|'};
  options.delimiter = kDelimiters[mode & 3];
  options.has_header = (mode & 4) == 0;
  options.quoting = (mode & 8) == 0;
  options.encoding =
      (mode & 16) ? assay::core::TextEncoding::kLatin1 : assay::core::TextEncoding::kUtf8;
  options.fixed_field_count = (mode & 32) == 0;
  const std::string& path = assay::fuzz::write_input(data + 1, size - 1, "input.csv");
  try {
    assay::core::CsvReader csv(path, options);
    std::size_t total = 0;
    for (const auto& name : csv.header()) total += name.size();
    if (!csv.header().empty()) {
      if (!csv.find_column(csv.header().back())) std::abort();  // a header name must be found
    }
    while (csv.next()) {
      const auto& fields = csv.fields();
      if (options.fixed_field_count && !csv.header().empty() &&
          fields.size() != csv.header().size()) {
        std::abort();  // the contract: every record has the header's field count
      }
      for (std::size_t i = 0; i < fields.size(); ++i) {
        total += csv.field(i).size() + csv.location(i).column;
        try {
          assay::fuzz::consume(csv.number(i, "value"));
        } catch (const assay::core::ParseError&) {
        }
      }
      total += csv.record_location().line;
    }
    assay::fuzz::consume(total);
  } catch (const assay::core::Error& e) {
    assay::fuzz::rejected(e);
  }
  return 0;
}
