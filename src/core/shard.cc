#include "core/shard.h"

#include <cstdlib>

#include "core/error.h"

namespace assay::core {
namespace {

// A whole number in decimal digits only (no sign, no blanks, no suffix), below 2^32.
std::optional<std::size_t> whole_number(const std::string& text) {
  if (text.empty() || text.size() > 10) return std::nullopt;
  std::size_t v = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + static_cast<std::size_t>(c - '0');
  }
  if (v > 0xffffffffu) return std::nullopt;
  return v;
}

}  // namespace

std::string Shard::to_string() const {
  return std::to_string(index) + "/" + std::to_string(count);
}

EnvLookup process_environment() {
  return [](const char* name) -> const char* { return std::getenv(name); };
}

std::optional<Shard> launcher_shard(const EnvLookup& env) {
  static const char* const kPairs[][2] = {{"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"},
                                          {"PMI_RANK", "PMI_SIZE"},
                                          {"SLURM_PROCID", "SLURM_NTASKS"}};
  for (const auto& pair : kPairs) {
    const char* rank = env(pair[0]);
    const char* size = env(pair[1]);
    if (rank == nullptr && size == nullptr) continue;
    if (rank == nullptr || size == nullptr) {
      throw UsageError(std::string("shard auto: ") + (rank ? pair[0] : pair[1]) + " is set but " +
                       (rank ? pair[1] : pair[0]) + " is not");
    }
    const auto i = whole_number(rank);
    const auto n = whole_number(size);
    if (!i) {
      throw UsageError(std::string("shard auto: ") + pair[0] + "='" + rank +
                       "' is not a whole number");
    }
    if (!n || *n == 0) {
      throw UsageError(std::string("shard auto: ") + pair[1] + "='" + size +
                       "' is not a whole number >= 1");
    }
    if (*i >= *n) {
      throw UsageError(std::string("shard auto: ") + pair[0] + "=" + rank + " is not below " +
                       pair[1] + "=" + size);
    }
    return Shard{*i, *n};
  }
  return std::nullopt;
}

Shard parse_shard(const std::string& text, const EnvLookup& env) {
  if (text == "auto") {
    if (auto shard = launcher_shard(env)) return *shard;
    throw UsageError(
        "shard auto: no launcher rank in the environment (OMPI_COMM_WORLD_RANK, PMI_RANK or "
        "SLURM_PROCID); give the shard as I/N");
  }
  const auto slash = text.find('/');
  const auto quoted = "'" + (text.size() > 40 ? text.substr(0, 40) + "..." : text) + "'";
  if (slash == std::string::npos) {
    throw UsageError("shard: expected I/N (e.g. 0/4) or auto, got " + quoted);
  }
  const auto i = whole_number(text.substr(0, slash));
  const auto n = whole_number(text.substr(slash + 1));
  if (!i || !n) {
    throw UsageError("shard: expected whole numbers I/N (e.g. 0/4), got " + quoted);
  }
  if (*n == 0 || *i >= *n) throw UsageError("shard " + text + ": need 0 <= I < N");
  return Shard{*i, *n};
}

}  // namespace assay::core
