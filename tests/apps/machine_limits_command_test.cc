// The machine's limits, through the real binary: a limit is a clear error (exit 2), never a
// silent death, a hang or a temporary file left behind.
//   - a file size limit (ulimit -f): the write fails (EFBIG), the target is left as it was;
//   - an address-space limit with many threads asked (--threads 4096, fair serve's
//     --max-concurrent 1024): exit 2 naming the threads, not a hang or an abort.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "support/temp_dir.h"

namespace {

namespace fs = std::filesystem;
using assay::testing::read_file;
using assay::testing::RunResult;
using assay::testing::TempDir;
using ::testing::HasSubstr;

// Runs `LIMIT; assay ARGS` through /bin/sh (LIMIT a ulimit command), killed after 120 s.
RunResult run_limited(const TempDir& dir, const std::string& limit, const std::string& args) {
  const std::string out = dir.file("stdout.txt"), err = dir.file("stderr.txt");
  const std::string cmd = limit + "; exec timeout -s KILL 120 " + ASSAY_BINARY + " " + args + " >" +
                          out + " 2>" + err + " </dev/null";
  const int status = std::system(cmd.c_str());
  RunResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = read_file(out);
  r.err = read_file(err);
  return r;
}

// The names in `dir` (the run's own stdout.txt and stderr.txt aside).
std::vector<std::string> names_in(const TempDir& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir.path())) {
    const std::string name = e.path().filename().string();
    if (name != "stdout.txt" && name != "stderr.txt") names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

TEST(MachineLimits, AFileSizeLimitIsAFailedWriteWithTheTargetKept) {
  TempDir dir;
  std::string texts;
  for (int i = 0; i < 400; ++i)
    texts += "the king said that he is here " + std::to_string(i) + "\n";
  const std::string in = dir.write("texts.txt", texts);
  const std::string out = dir.write("out.jsonl", "earlier\n");
  // 64 KiB: the input fits, the perturbations do not.
  const auto r =
      run_limited(dir, "ulimit -f 128", "fair perturb --quiet --input " + in + " --out " + out);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("File too large"));
  EXPECT_THAT(r.err, HasSubstr(out));
  EXPECT_EQ(read_file(out), "earlier\n");
  EXPECT_EQ(names_in(dir), (std::vector<std::string>{"out.jsonl", "texts.txt"}));
}

TEST(MachineLimits, ThreadsTheSystemRefusesAreExit2) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer reserves terabytes of address space: an address-space "
                  "limit stops the sanitized process itself (the release build runs this test)";
#endif
  TempDir dir;
  const std::string fuzz =
      "rec fuzz --data synthetic:users=60,items=40,ratings=800,seed=1 --algorithm "
      "user-user --heuristic ARAND --size 8 --trials 8 --threads ";
  const std::string limit = "ulimit -v 2000000";  // 2 GB: room for a run, not 4,096 stacks
  const auto fine = run_limited(dir, limit, fuzz + "2");
  ASSERT_EQ(fine.exit_code, 0) << fine.err;
  const auto r = run_limited(dir, limit, fuzz + "4096");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("cannot start 4096 threads"));
  EXPECT_EQ(r.out, "");
}

// fair serve's --max-concurrent threads start before it listens: under the same limit,
// 1,024 of them are exit 2 naming the option, not an abort.
TEST(MachineLimits, ServeThreadsTheSystemRefusesAreExit2) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer reserves terabytes of address space: an address-space "
                  "limit stops the sanitized process itself (the release build runs this test)";
#endif
  TempDir dir;
  const std::string train =
      dir.write("train.tsv", "text\tlabel\nthe king is good\tpos\nbad queen\tneg\ngood man\tpos\n");
  const std::string model = dir.file("model.json");
  const auto trained = run_limited(dir, "true",
                                   "model train-lr --quiet --train " + train +
                                       " --text-column text --label-column label --out " + model);
  ASSERT_EQ(trained.exit_code, 0) << trained.err;
  const auto r = run_limited(dir, "ulimit -v 2000000",
                             "fair serve --quiet --upstream lr:" + model +
                                 " --epsilon 1 --listen 127.0.0.1:0 --max-concurrent 1024");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("--max-concurrent: cannot start 1024 threads"));
}

}  // namespace
