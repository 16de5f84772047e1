#include "core/build_id.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <string>

#include "core/chunk_store.h"
#include "core/chunked_run.h"
#include "core/unit_store.h"
#include "support/temp_dir.h"

namespace assay::core {
namespace {

TEST(BuildId, IsTheLinkersNoteOfThisProgram) {
  // (popen's shell resolves /proc/self/exe to itself, so ask for this process's file.)
  const std::string self = "/proc/" + std::to_string(getpid()) + "/exe";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(
      popen(("readelf -n " + self + " 2>/dev/null").c_str(), "r"), pclose);
  ASSERT_TRUE(pipe);
  std::string out;
  char buf[4096];
  while (std::fgets(buf, sizeof buf, pipe.get())) out += buf;
  const auto at = out.find("Build ID: ");
  if (at == std::string::npos) GTEST_SKIP() << "readelf absent or no build ID in this build";
  const auto begin = at + 10;
  const std::string expected = out.substr(begin, out.find_first_of("\r\n", begin) - begin);
  EXPECT_EQ(build_id(), expected);
  EXPECT_GE(build_id().size(), 16u);
}

// A chunk's key holds the build ID, so a store written by another build of assay is not
// served: its keys differ from this build's.
TEST(BuildId, ChunkKeysHoldIt) {
  ::assay::testing::TempDir dir;
  ChunkStore store(dir.file("s.sqlite"), "squares", "squares v1");
  ChunkedRunOptions o;
  o.chunk_inputs = 10;
  const auto run = run_chunked(
      3, o, "v1", [](const ChunkBounds&) { return std::string("abc"); },
      [](const ChunkBounds&) { return std::string("result"); }, &store);
  ASSERT_TRUE(run.complete);
  const auto keys = store.finished_keys();
  ASSERT_EQ(keys.size(), 1u);
  EXPECT_EQ(*keys.begin(),
            "inputs 0..3 " + content_hash(std::string("v1") + '\0' + build_id() + '\0' + "abc"));
}

}  // namespace
}  // namespace assay::core
