#include "shard_options.h"

#include <cstdio>

#include "core/error.h"

namespace assay::cli {
namespace {

CLI::Validator shard_check() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        try {
          (void)core::parse_shard(s);
        } catch (const core::Error& e) {
          return e.what();
        }
        return {};
      },
      "I/N|auto");
}

}  // namespace

void add_shard_options(CLI::App* cmd, ShardOptions& o, const std::string& store_option) {
  cmd->add_option("--shard", o.shard,
                  "Run only shard I of N (I/N, or auto: the MPI/Slurm rank), into this " +
                      store_option + "; a later run with --merge writes the outputs")
      ->check(shard_check());
  cmd->add_option("--merge", o.merge,
                  "Comma separated " + store_option + " files of other shards whose finished " +
                      "work to merge into " + store_option + " first")
      ->delimiter(',');
}

core::Shard shard_of(const ShardOptions& o) {
  return o.shard.empty() ? core::Shard{} : core::parse_shard(o.shard);
}

void require_store(const ShardOptions& o, const std::string& store_path,
                   const std::string& store_option) {
  if (!store_path.empty()) return;
  if (!o.shard.empty() && !shard_of(o).whole()) {
    throw core::UsageError("--shard needs " + store_option +
                           " FILE (where the shard's finished chunks are kept)");
  }
  if (!o.merge.empty()) {
    throw core::UsageError("--merge needs " + store_option + " FILE (where the chunks are merged)");
  }
}

std::size_t merge_shards(const ShardOptions& o, core::ChunkStore& store, bool quiet) {
  std::size_t n = 0;
  for (const auto& other : o.merge) n += store.merge(other);
  report_merged(o, n, store.path(), quiet);
  return n;
}

void report_merged(const ShardOptions& o, std::size_t chunks, const std::string& store,
                   bool quiet) {
  if (o.merge.empty() || quiet) return;
  std::fprintf(stderr, "merged %zu chunks from %zu stores into %s\n", chunks, o.merge.size(),
               store.c_str());
}

void report_chunked_run(const ChunkedRunCounts& run, const core::Shard& shard,
                        std::size_t chunk_inputs, const std::string& store,
                        const std::string& store_option, const std::string& outputs, bool quiet) {
  if (quiet) return;
  const std::string prefix = shard.whole() ? "" : "shard " + shard.to_string() + ": ";
  std::fprintf(stderr, "%s%zu chunks of %zu inputs: %zu run now, %zu from %s\n", prefix.c_str(),
               run.n_owned, chunk_inputs, run.n_executed, run.n_resumed,
               store.empty() ? "no store" : store.c_str());
  if (!run.complete) {
    std::fprintf(stderr,
                 "this shard is done: rerun without --shard, with --merge and every shard's %s, "
                 "to write %s\n",
                 store_option.c_str(), outputs.c_str());
  }
}

}  // namespace assay::cli
