#include "core/chunked_run.h"

#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/chunk_store.h"
#include "core/error.h"
#include "support/temp_dir.h"

namespace assay::core {
namespace {

using ::assay::testing::TempDir;

// Inputs are numbers; a chunk's result is the squares of its inputs, and every execution is
// counted, so a test sees which chunks ran.
struct Squares {
  explicit Squares(int n) {
    for (int i = 0; i < n; ++i) inputs.push_back(i);
  }
  std::vector<int> inputs;
  std::atomic<int> executed{0};
  std::mutex mutex;
  std::vector<std::size_t> begins;  // chunks executed, by their first input

  std::string content(const ChunkBounds& c) const {
    std::string s;
    for (std::size_t i = c.begin; i < c.end; ++i) {
      s += ',';
      s += std::to_string(inputs[i]);
    }
    return s;
  }
  std::string execute(const ChunkBounds& c) {
    ++executed;
    {
      std::lock_guard lock(mutex);
      begins.push_back(c.begin);
    }
    std::string s;
    for (std::size_t i = c.begin; i < c.end; ++i) s += std::to_string(inputs[i] * inputs[i]) + " ";
    return s;
  }
  ChunkedRun run(const ChunkedRunOptions& o, ChunkStore* store,
                 const std::string& settings = "v1") {
    return run_chunked(
        inputs.size(), o, settings, [this](const ChunkBounds& c) { return content(c); },
        [this](const ChunkBounds& c) { return execute(c); }, store);
  }
};

std::string joined(const ChunkedRun& run) {
  std::string s;
  for (const auto& r : run.results) s += r;
  return s;
}

TEST(ChunkedRun, ChunksCoverTheInputsInOrder) {
  const auto c = chunks_of(10, 4);
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[2].begin, 8u);
  EXPECT_EQ(c[2].end, 10u);
  EXPECT_EQ(chunks_of(3, 0).size(), 3u);  // at least one input a chunk
  EXPECT_TRUE(chunks_of(0, 4).empty());
}

TEST(ChunkedRun, WithoutAStoreEveryChunkRunsAndComesBackInOrder) {
  Squares s(10);
  ChunkedRunOptions o;
  o.chunk_inputs = 3;
  o.threads = 4;
  o.progress.quiet = true;
  const auto run = s.run(o, nullptr);
  ASSERT_TRUE(run.complete);
  EXPECT_EQ(joined(run), "0 1 4 9 16 25 36 49 64 81 ");
  EXPECT_EQ(run.n_chunks, 4u);
  EXPECT_EQ(run.n_executed, 4u);
  o.shard = {0, 2};
  EXPECT_THROW(s.run(o, nullptr), UsageError);  // a shard's chunks must be kept
}

TEST(ChunkedRun, ShardsIntoTheirOwnStoresMergeToTheWholeRunWithoutRerunning) {
  TempDir dir;
  Squares whole(23);
  ChunkedRunOptions o;
  o.chunk_inputs = 4;
  o.progress.quiet = true;
  const auto reference = joined(whole.run(o, nullptr));
  std::vector<std::string> paths;
  for (std::size_t i = 0; i < 3; ++i) {
    Squares part(23);
    paths.push_back(dir.file(std::to_string(i) + ".sqlite"));
    ChunkStore store(paths.back(), "squares", "squares v1");
    o.shard = {i, 3};
    const auto run = part.run(o, &store);
    EXPECT_FALSE(run.complete);
    EXPECT_TRUE(run.results.empty());
    EXPECT_EQ(run.n_owned, 2u);  // 6 chunks: 0 and 3, 1 and 4, 2 and 5
    EXPECT_EQ(run.n_executed, run.n_owned);
    for (const auto b : part.begins) EXPECT_EQ((b / 4) % 3, i);
  }
  Squares merged(23);
  ChunkStore store(dir.file("all.sqlite"), "squares", "squares v1");
  std::size_t added = 0;
  for (const auto& p : paths) added += store.merge(p);
  EXPECT_EQ(added, 6u);
  o.shard = {};
  const auto run = merged.run(o, &store);
  ASSERT_TRUE(run.complete);
  EXPECT_EQ(merged.executed.load(), 0);
  EXPECT_EQ(run.n_resumed, 6u);
  EXPECT_EQ(joined(run), reference);
  // Other settings or other inputs share no chunk with these.
  Squares other(23);
  EXPECT_EQ(other.run(o, &store, "v2").n_executed, 6u);
  other.inputs[5] = 50;
  other.executed = 0;
  EXPECT_EQ(other.run(o, &store).n_executed, 1u);  // only the chunk holding input 5
  // A store of another format is refused.
  EXPECT_THROW(ChunkStore(dir.file("all.sqlite"), "squares", "squares v2"), UsageError);
}

// A shard whose rows the engine could not read, or whose file is damaged, is refused by name and
// nothing of it is copied: the merge target stays usable.
TEST(ChunkedRun, MergeOfABadOrDamagedShardNamesItAndCopiesNothing) {
  TempDir dir;
  const auto check = [](const std::string& result) {
    if (result == "bad") throw ParseError("expected squares");
  };
  const std::string bad = dir.file("bad.sqlite"), damaged = dir.file("damaged.sqlite");
  {
    ChunkStore shard(bad, "squares", "squares v1");
    shard.put("inputs 0..1", "0");
    shard.put("inputs 1..2", "bad");
    ChunkStore other(damaged, "squares", "squares v1");
    for (int i = 0; i < 400; ++i) other.put("inputs " + std::to_string(i), std::string(200, 'x'));
  }
  {  // a page in the middle of the file overwritten
    std::fstream f(damaged, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(8 * 4096);
    const std::string junk(4096, '\xff');
    f.write(junk.data(), static_cast<std::streamsize>(junk.size()));
  }
  const std::string target = dir.file("all.sqlite");
  ChunkStore store(target, "squares", "squares v1", check);
  try {
    store.merge(bad);
    ADD_FAILURE() << "merged a shard with a bad row";
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("chunk 'inputs 1..2': expected squares"),
              std::string::npos)
        << e.what();
  }
  try {
    store.merge(damaged);
    ADD_FAILURE() << "merged a damaged shard";
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find(damaged), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find(target), std::string::npos) << e.what();
  }
  EXPECT_TRUE(store.finished_keys().empty());
  store.put("inputs 0..1", "0");  // still usable
  EXPECT_EQ(store.get("inputs 0..1"), "0");
}

TEST(ChunkedRun, AStoppedRunResumesAtTheFirstMissingChunk) {
  TempDir dir;
  const std::string path = dir.file("s.sqlite");
  Squares s(20);
  ChunkedRunOptions o;
  o.chunk_inputs = 2;
  o.threads = 1;
  o.progress.quiet = true;
  {
    ChunkStore store(path, "squares", "squares v1");
    Squares failing(20);
    // The fourth chunk fails: the three before it are kept, nothing after it starts.
    EXPECT_THROW(run_chunked(
                     failing.inputs.size(), o, "v1",
                     [&](const ChunkBounds& c) { return failing.content(c); },
                     [&](const ChunkBounds& c) {
                       if (c.begin == 6) throw std::runtime_error("chunk 3 fails");
                       return failing.execute(c);
                     },
                     &store),
                 std::runtime_error);
    EXPECT_EQ(failing.executed.load(), 3);
  }
  ChunkStore store(path, "squares", "squares v1");
  const auto run = s.run(o, &store);
  ASSERT_TRUE(run.complete);
  EXPECT_EQ(run.n_resumed, 3u);
  EXPECT_EQ(run.n_executed, 7u);
  for (const auto b : s.begins) EXPECT_GE(b, 6u);
  EXPECT_EQ(joined(run), joined(Squares(20).run(o, nullptr)));
}

}  // namespace
}  // namespace assay::core
