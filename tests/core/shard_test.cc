#include "core/shard.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <string>

#include "core/error.h"

namespace assay::core {
namespace {

// An environment made of a table, so each launcher's variables can be tried alone.
EnvLookup table(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](const char* name) -> const char* {
    const auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  };
}

TEST(Shard, ParsesIOverN) {
  EXPECT_EQ(parse_shard("0/1", table({})), (Shard{0, 1}));
  EXPECT_EQ(parse_shard("3/4", table({})), (Shard{3, 4}));
  EXPECT_EQ(parse_shard("3/4", table({})).to_string(), "3/4");
}

TEST(Shard, RejectsBadValuesQuotingThem) {
  for (const char* bad : {"4/4", "1", "a/2", "1/0", "-1/2", "1/2x", "", "/", "1/", "/2", " 1/2",
                          "1/ 2", "+1/2", "0x1/2", "1/2/3", "99999999999/99999999999"}) {
    try {
      parse_shard(bad, table({}));
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const UsageError& e) {
      // The library names the setting, not a flag (Python passes shard=).
      EXPECT_EQ(std::string(e.what()).rfind("shard", 0), 0u) << e.what();
    }
  }
}

TEST(Shard, OwnsEverySlotInExactlyOneShard) {
  for (std::size_t n = 1; n <= 5; ++n) {
    for (std::size_t slot = 0; slot < 40; ++slot) {
      std::size_t owners = 0;
      for (std::size_t i = 0; i < n; ++i) owners += Shard{i, n}.owns(slot);
      EXPECT_EQ(owners, 1u) << slot << " of " << n;
    }
  }
}

TEST(Shard, AutoFindsEachLauncher) {
  EXPECT_EQ(
      parse_shard("auto", table({{"OMPI_COMM_WORLD_RANK", "2"}, {"OMPI_COMM_WORLD_SIZE", "5"}})),
      (Shard{2, 5}));
  EXPECT_EQ(parse_shard("auto", table({{"PMI_RANK", "0"}, {"PMI_SIZE", "3"}})), (Shard{0, 3}));
  EXPECT_EQ(parse_shard("auto", table({{"SLURM_PROCID", "7"}, {"SLURM_NTASKS", "8"}})),
            (Shard{7, 8}));
  // Open MPI first: mpirun under Slurm sets both.
  EXPECT_EQ(parse_shard("auto", table({{"SLURM_PROCID", "0"},
                                       {"SLURM_NTASKS", "1"},
                                       {"OMPI_COMM_WORLD_RANK", "1"},
                                       {"OMPI_COMM_WORLD_SIZE", "2"}})),
            (Shard{1, 2}));
  EXPECT_FALSE(launcher_shard(table({})).has_value());
}

TEST(Shard, AutoWithoutLauncherOrWithBadValuesIsUsageError) {
  try {
    parse_shard("auto", table({}));
    ADD_FAILURE() << "no launcher accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("give the shard as I/N"), std::string::npos) << e.what();
  }
  // Each case and the variable its message must name.
  const std::pair<std::map<std::string, std::string>, std::string> bad[] = {
      {{{"PMI_RANK", "3"}, {"PMI_SIZE", "3"}}, "PMI_RANK"},
      {{{"PMI_RANK", "x"}, {"PMI_SIZE", "3"}}, "PMI_RANK"},
      {{{"PMI_RANK", "0"}, {"PMI_SIZE", "0"}}, "PMI_SIZE"},
      {{{"PMI_RANK", "-1"}, {"PMI_SIZE", "2"}}, "PMI_RANK"},
      {{{"SLURM_PROCID", "1"}}, "SLURM_NTASKS"},
      {{{"OMPI_COMM_WORLD_SIZE", "4"}}, "OMPI_COMM_WORLD_RANK"},
  };
  for (const auto& [vars, named] : bad) {
    try {
      parse_shard("auto", table(vars));
      ADD_FAILURE() << "accepted a case naming " << named;
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find(named), std::string::npos) << e.what();
    }
  }
}

TEST(Shard, AutoReadsTheProcessEnvironment) {
  ::setenv("SLURM_PROCID", "1", 1);
  ::setenv("SLURM_NTASKS", "3", 1);
  const auto shard = parse_shard("auto");
  ::unsetenv("SLURM_PROCID");
  ::unsetenv("SLURM_NTASKS");
  EXPECT_EQ(shard, (Shard{1, 3}));
}

}  // namespace
}  // namespace assay::core
