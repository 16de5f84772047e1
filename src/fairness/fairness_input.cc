#include "fairness/fairness_input.h"

namespace assay::fairness {

std::vector<InputRecord> read_inputs(const std::string& path,
                                     const models::TextInputOptions& options) {
  auto records = models::read_text_records(path, options);
  std::vector<InputRecord> out;
  out.reserve(records.size());
  for (auto& r : records) out.push_back({r.location.line, std::move(r.text), std::move(r.label)});
  return out;
}

}  // namespace assay::fairness
