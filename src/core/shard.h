// Shard: which share of a plan of work units this process runs when one campaign is spread over
// several processes or machines. Shard I of N owns the units whose slot is I modulo N (see
// unit_plan.h), so N processes given 0/N .. N-1/N together own every unit exactly once, and
// each runs into its own store; the stores are merged afterwards (unit_store.h). The sharding
// never changes a unit's seed, so the merged results equal a run in one process.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>

namespace assay::core {

struct Shard {
  std::size_t index = 0;  // I, 0 <= I < count
  std::size_t count = 1;  // N >= 1
  bool owns(std::size_t slot) const { return slot % count == index; }
  bool whole() const { return count == 1; }
  std::string to_string() const;  // "I/N"
  friend bool operator==(const Shard&, const Shard&) = default;
};

// Reads an environment variable: nullptr when unset. The default is std::getenv; tests pass
// their own table.
using EnvLookup = std::function<const char*(const char*)>;
EnvLookup process_environment();

// The rank and size a parallel launcher puts in the environment, first found of
//   Open MPI (mpirun)  OMPI_COMM_WORLD_RANK / OMPI_COMM_WORLD_SIZE
//   MPICH, Intel MPI   PMI_RANK / PMI_SIZE
//   Slurm (srun)       SLURM_PROCID / SLURM_NTASKS
// nullopt when none of the pairs is set (a plain process). Throws core::UsageError naming the
// variable when a pair is set but malformed (not a whole number, rank >= size, size 0), or when
// only one variable of a pair is set.
std::optional<Shard> launcher_shard(const EnvLookup& env = process_environment());

// Parses a --shard value: "I/N" (whole numbers, 0 <= I < N), or "auto" (launcher_shard; an
// error when no launcher is found, since running everything in every rank is never meant).
// Throws core::UsageError quoting the value.
Shard parse_shard(const std::string& text, const EnvLookup& env = process_environment());

}  // namespace assay::core
