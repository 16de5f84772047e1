// --shard and --merge, as every command that spreads its work over processes takes them
// (`rec campaign`, `fair test`, `fair mitigate`, `aeon score`, `model predict`): --shard I/N
// (or auto: the rank an Open MPI, MPICH or Slurm launcher puts in the environment) runs only
// that share of the work into this process's store; --merge FILE,... copies the finished work
// of other shards' stores into this one first. A run with every shard's store merged writes
// the outputs of one run.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "core/chunk_store.h"
#include "core/chunked_run.h"
#include "core/shard.h"

namespace assay::cli {

struct ShardOptions {
  std::string shard;               // empty: the whole run
  std::vector<std::string> merge;  // other shards' stores
};

// Registers --shard (validated by core::parse_shard while the options are parsed) and --merge
// (comma separated); `store_option` names the option of the store a shard runs into.
void add_shard_options(CLI::App* cmd, ShardOptions& o, const std::string& store_option);

// The shard of --shard (whole without it).
core::Shard shard_of(const ShardOptions& o);

// For the commands that run chunks of inputs (core/chunked_run.h): a usage error when --shard
// or --merge is given without a store (`store_path` empty), naming `store_option`.
void require_store(const ShardOptions& o, const std::string& store_path,
                   const std::string& store_option);

// Merges every --merge store into `store`; returns the chunks added. Says so on stderr unless
// quiet.
std::size_t merge_shards(const ShardOptions& o, core::ChunkStore& store, bool quiet);

// What a chunked run did (core::ChunkedRun's counts, as an engine reports them).
struct ChunkedRunCounts {
  std::size_t n_owned = 0, n_executed = 0, n_resumed = 0;
  bool complete = false;
};

// On stderr (unless quiet): "[shard I/N: ]C chunks of K inputs: E run now, R from STORE" (the
// store's file; "" for none) and, for a shard that is done, how to write the outputs
// (`outputs`: what the merging run writes).
void report_chunked_run(const ChunkedRunCounts& run, const core::Shard& shard,
                        std::size_t chunk_inputs, const std::string& store,
                        const std::string& store_option, const std::string& outputs, bool quiet);

// "merged N chunks from M stores into STORE" on stderr, when stores were merged and not quiet.
void report_merged(const ShardOptions& o, std::size_t chunks, const std::string& store, bool quiet);

}  // namespace assay::cli
