// libFuzzer target: what a `cmd:` model's child writes (models::CommandModel: the labels line,
// then one answer line per request: ids, scores, nesting, line lengths). The child is /bin/cat
// of the input, so every byte reaches the model's reader as the child's standard output; two
// texts are asked. The first byte: odd, the labels are also given as options (the child's line
// must then agree); the rest is the child's output. Findings beyond the usual: an answer
// accepted with the wrong number of scores or a score that is not finite.
// Run: tools/fuzz/run.sh cmd_output
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/error.h"
#include "fuzz_input.h"
#include "models/command_model.h"

namespace am = assay::models;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string& path = assay::fuzz::write_input(data + 1, size - 1, "child.out");
  am::ModelOptions options;
  if ((data[0] & 1) != 0) options.labels = {"neg", "pos"};
  options.command.max_restarts = 0;
  options.command.max_line_bytes = 4096;
  options.timeout_seconds = 5;
  try {
    am::CommandModel model("/bin/cat " + path, options);
    const auto scores = model.predict({"the king is here", "she is a queen"});
    const std::size_t n_labels = model.labels().size();
    if (scores.size() != 2) std::abort();
    for (const auto& row : scores) {
      if (row.size() != n_labels) std::abort();
      for (const double s : row) {
        if (!std::isfinite(s)) std::abort();
      }
    }
  } catch (const assay::core::Error&) {
  }
  return 0;
}
