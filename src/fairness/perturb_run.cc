#include "fairness/perturb_run.h"

#include <algorithm>
#include <cstdio>
#include <string_view>

#include "core/thread_pool.h"
#include "fairness/perturbation_json.h"

namespace assay::fairness {

PerturbRunCounts perturb_inputs(const Perturbator& perturbator,
                                const std::vector<InputRecord>& inputs,
                                const PerturbRunOptions& options,
                                const std::function<void(nlohmann::ordered_json&&)>& sink) {
  PerturbRunCounts counts;
  counts.inputs = inputs.size();
  struct Counted {
    bool is_mutable = false;
    std::size_t analogy = 0, active = 0, name = 0, group = 0, dropped = 0, size = 0;
  };
  constexpr std::size_t kChunk = 2048;
  std::vector<nlohmann::ordered_json> lines;
  std::vector<Counted> counted;
  for (std::size_t at = 0; at < inputs.size(); at += kChunk) {
    const std::size_t end = std::min(inputs.size(), at + kChunk);
    std::vector<std::string_view> texts;
    for (std::size_t k = at; k < end; ++k) texts.push_back(inputs[k].text);
    if (options.check) options.check();
    perturbator.prepare(texts);
    counted.assign(end - at, {});
    lines.assign(end - at, {});
    core::parallel_for(options.threads, at, end, 1, [&](std::size_t k) {
      if (options.check) options.check();
      const auto& input = inputs[k];
      PerturbationSet set;
      try {
        set = perturbator.perturb(input.text);
      } catch (core::Error& e) {
        e.set_location_if_missing(options.where ? options.where(k, input)
                                                : core::SourceLocation("", input.line));
        throw;
      }
      std::vector<nlohmann::ordered_json> aeon_records;
      if (options.gate) aeon_records = options.gate->apply(input.text, set);
      counted[k - at] = {set.is_mutable(),
                         set.count(MutationKind::kAnalogy),
                         set.count(MutationKind::kActive),
                         set.count(MutationKind::kName),
                         set.count(MutationKind::kGroup),
                         set.dropped.size(),
                         set.perturbations.size()};
      auto j = perturbation_set_to_json(input, set, options.dropped);
      for (std::size_t r = 0; r < aeon_records.size(); ++r)
        j["perturbations"][r]["aeon"] = std::move(aeon_records[r]);
      lines[k - at] = std::move(j);
    });
    for (std::size_t k = at; k < end; ++k) {
      const Counted& c = counted[k - at];
      counts.empty += inputs[k].text.empty();
      counts.mutable_inputs += c.is_mutable;
      counts.analogy += c.analogy;
      counts.active += c.active;
      counts.name += c.name;
      counts.group += c.group;
      counts.dropped += c.dropped;
      counts.max_per_input = std::max(counts.max_per_input, c.size);
      sink(std::move(lines[k - at]));
    }
    if (options.progress) options.progress(end, inputs.size());
  }
  return counts;
}

std::string perturb_summary(const PerturbRunCounts& c, const std::string& attribute,
                            double load_seconds, double run_seconds) {
  const std::size_t n = c.inputs, total = c.perturbations();
  const auto line = [&](char* buffer, std::size_t size) {
    return std::snprintf(
        buffer, size,
        "%zu inputs (%zu empty), %zu mutable (%.1f%%); %zu perturbations (%zu analogy, %zu "
        "active, %zu name, %zu group), mean %.2f, max %zu; %zu candidates dropped; attribute "
        "%s; load %.2f s, perturb %.2f s (%.0f inputs/s)",
        n, c.empty, c.mutable_inputs,
        n ? 100.0 * static_cast<double>(c.mutable_inputs) / static_cast<double>(n) : 0.0, total,
        c.analogy, c.active, c.name, c.group,
        n ? static_cast<double>(total) / static_cast<double>(n) : 0.0, c.max_per_input, c.dropped,
        attribute.c_str(), load_seconds, run_seconds,
        run_seconds > 0 ? static_cast<double>(n) / run_seconds : 0.0);
  };
  std::string out(static_cast<std::size_t>(std::max(0, line(nullptr, 0))), '\0');
  line(out.data(), out.size() + 1);
  return out;
}

}  // namespace assay::fairness
