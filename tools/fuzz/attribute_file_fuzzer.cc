// libFuzzer target: the sensitive-attribute files of the fairness perturbator
// (fairness::read_attribute_file). An attribute that is read has two or more distinct groups,
// one active adjective each, and rows of one field per group; find_member of every member noun
// finds a row. Run: tools/fuzz/run.sh attribute_file
#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/error.h"
#include "fairness/sensitive_attribute.h"
#include "fuzz_input.h"

namespace fa = assay::fairness;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string& path = assay::fuzz::write_input(data, size, "input.attr");
  try {
    const fa::SensitiveAttribute a = fa::read_attribute_file(path);
    if (a.groups.size() < 2) std::abort();
    std::size_t total = 0;
    for (const auto& g : a.groups) {
      total += g.active.size() + g.anchors.size();
      assay::fuzz::consume(a.is_attribute_word(g.name));
    }
    for (const auto& row : a.members) {
      if (row.size() != a.groups.size()) std::abort();
      for (const auto& noun : row) {
        if (!noun.empty() && !a.find_member(noun)) std::abort();
      }
    }
    assay::fuzz::consume(total);
  } catch (const assay::core::Error& e) {
    assay::fuzz::rejected(e);
  }
  return 0;
}
