#include "core/output_path.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "core/error.h"
#include "support/error_message.h"
#include "support/temp_dir.h"

namespace assay::core {
namespace {

using ::testing::HasSubstr;

TEST(OutputPath, ChecksFilesBeforeAnyWork) {
  assay::testing::TempDir dir;
  EXPECT_NO_THROW(check_output_file(dir.file("new.txt")));
  EXPECT_NO_THROW(check_output_file(dir.write("old.txt", "x")));
  EXPECT_THAT(
      assay::testing::error_message_of([&] { check_output_file(dir.file("no/such/x.txt")); }),
      HasSubstr("does not exist"));
  EXPECT_THAT(assay::testing::error_message_of([&] { check_output_file(dir.path().string()); }),
              HasSubstr("it is a directory"));
  EXPECT_THAT(assay::testing::error_message_of([&] { check_output_file("/dev/full"); }),
              HasSubstr("it is a device"));
  // Standard output by name resolves to whatever it is (a regular file, here): refused.
  EXPECT_THAT(assay::testing::error_message_of([&] { check_output_file("/dev/stdout"); }),
              HasSubstr("process's file descriptor"));
  EXPECT_THAT(assay::testing::error_message_of([&] { check_output_file("/proc/self/fd/1"); }),
              HasSubstr("process's file descriptor"));
  std::filesystem::create_symlink(dir.path() / "loop", dir.path() / "loop");
  EXPECT_THAT(assay::testing::error_message_of([&] { check_output_file(dir.file("loop")); }),
              HasSubstr("too many levels"));
}

TEST(OutputPath, OutputsNeverNameInputs) {
  namespace fs = std::filesystem;
  assay::testing::TempDir dir;
  const std::string in = dir.write("in.txt", "x");
  const auto message = [&](const std::vector<NamedPath>& outputs,
                           const std::vector<NamedPath>& kept,
                           const std::vector<OutputDirectory>& dirs = {}) {
    return assay::testing::error_message_of([&] {
      check_paths_apart({{"--input", in}}, outputs, kept, dirs);
    });
  };
  EXPECT_NO_THROW(check_paths_apart({{"--input", in}}, {{"--out", dir.file("out.txt")}}, {}, {}));
  EXPECT_THAT(message({{"--out", in}}, {}), HasSubstr("--out names the same file as --input"));
  fs::create_directory(dir.path() / "sub");
  EXPECT_THAT(message({{"--out", dir.file("sub/../in.txt")}}, {}), HasSubstr("same file"));
  fs::create_symlink(in, dir.path() / "link");
  EXPECT_THAT(message({{"--out", dir.file("link")}}, {}), HasSubstr("same file"));
  fs::create_hard_link(in, dir.path() / "hard");
  EXPECT_THAT(message({{"--out", dir.file("hard")}}, {}), HasSubstr("same file"));
  EXPECT_THAT(message({}, {{"--cache", in}}), HasSubstr("--cache names the same file as --input"));
  EXPECT_THAT(message({{"--out", dir.file("c.db")}}, {{"--cache", dir.file("c.db")}}),
              HasSubstr("--out and --cache name the same file"));
  // An output directory writes the files its patterns name, and only those.
  const std::string summary = dir.write("sub/summary.json", "{}");
  EXPECT_THAT(assay::testing::error_message_of([&] {
                check_paths_apart({{"--input", summary}}, {}, {},
                                  {{"--out", dir.file("sub"), {"summary.json"}}});
              }),
              HasSubstr("writes summary.json, which --input reads"));
  EXPECT_NO_THROW(check_paths_apart({{"--input", summary}}, {}, {},
                                    {{"--out", dir.file("sub"), {"violations.jsonl"}}}));
  // A hard link of an input among the files the directory already holds.
  fs::create_hard_link(in, dir.path() / "sub" / "violations.jsonl");
  EXPECT_THAT(
      assay::testing::error_message_of([&] {
        check_paths_apart({{"--input", in}}, {}, {},
                          {{"--out", dir.file("sub"), {"violations.jsonl"}}});
      }),
      HasSubstr("writes violations.jsonl, which --input reads (" + in + ", the same file)"));
}

TEST(OutputPath, KeptAndOutputFilesAreNeverWhatADirectoryReceives) {
  namespace fs = std::filesystem;
  assay::testing::TempDir dir;
  fs::create_directory(dir.path() / "o");
  const OutputDirectory out{"--out", dir.file("o"), {"summary.json", "mods/*.json"}};
  const auto message = [&](const std::vector<NamedPath>& outputs,
                           const std::vector<NamedPath>& kept) {
    return assay::testing::error_message_of([&] { check_paths_apart({}, outputs, kept, {out}); });
  };
  EXPECT_THAT(message({}, {{"--cache", dir.file("o/summary.json")}}),
              HasSubstr("--out " + dir.file("o") + " writes summary.json, which --cache keeps"));
  EXPECT_THAT(message({}, {{"--store", dir.file("o/mods/x.json")}}),
              HasSubstr("writes mods/x.json, which --store keeps"));
  EXPECT_THAT(message({{"--out-file", dir.file("o/summary.json")}}, {}),
              HasSubstr("writes summary.json, which --out-file writes"));
  // Through a link outside the directory, and as a hard link of a file it holds.
  const std::string held = dir.write("o/summary.json", "{}");
  fs::create_symlink(held, dir.path() / "link.sqlite");
  EXPECT_THAT(message({}, {{"--store", dir.file("link.sqlite")}}),
              HasSubstr("which --store keeps"));
  fs::create_hard_link(held, dir.path() / "hard.sqlite");
  EXPECT_THAT(message({}, {{"--store", dir.file("hard.sqlite")}}),
              HasSubstr("which --store keeps (" + dir.file("hard.sqlite") + ", the same file)"));
  // The directory itself named as a file (existing or not).
  EXPECT_THAT(message({}, {{"--store", dir.file("o")}}),
              HasSubstr("--out and --store name the same path"));
  const OutputDirectory fresh{"--out", dir.file("new"), {"summary.json"}};
  EXPECT_THAT(assay::testing::error_message_of([&] {
                check_paths_apart({}, {}, {{"--store", dir.file("new")}}, {fresh});
              }),
              HasSubstr("same path"));
  // Other names in the directory are the user's: accepted.
  EXPECT_NO_THROW(check_paths_apart({}, {}, {{"--store", dir.file("o/store.sqlite")}}, {out}));
}

TEST(OutputPath, ChecksDirectories) {
  assay::testing::TempDir dir;
  EXPECT_NO_THROW(check_output_directory(dir.path().string()));
  EXPECT_NO_THROW(check_output_directory(dir.file("new")));
  EXPECT_NO_THROW(check_output_directory(dir.file("new/")));
  EXPECT_THAT(
      assay::testing::error_message_of([&] { check_output_directory(dir.write("f", "x")); }),
      HasSubstr("it is a regular file"));
  // Missing folders above it are made by the command (mkdir -p); a file on the way is refused.
  EXPECT_NO_THROW(check_output_directory(dir.file("a/b/c")));
  EXPECT_THAT(assay::testing::error_message_of([&] { check_output_directory(dir.file("f/b/c")); }),
              HasSubstr("is a regular file, not a folder"));
}

TEST(OutputPath, ChecksDatabaseAndCacheFiles) {
  assay::testing::TempDir dir;
  for (auto check : {check_database_file, check_cache_file}) {
    EXPECT_NO_THROW(check(dir.file("new.db")));
    EXPECT_NO_THROW(check(dir.write("old.db", "x")));
    EXPECT_THAT(assay::testing::error_message_of([&] { check(dir.file("no/such/x.db")); }),
                HasSubstr("does not exist"));
    EXPECT_THAT(assay::testing::error_message_of([&] { check(dir.path().string()); }),
                HasSubstr("it is a directory"));
    EXPECT_THAT(assay::testing::error_message_of([&] { check("/dev/null"); }),
                HasSubstr("it is a device"));
    EXPECT_THAT(assay::testing::error_message_of([&] { check("/dev/stdout"); }),
                HasSubstr("process's file descriptor"));
  }
  EXPECT_THAT(assay::testing::error_message_of([&] { check_cache_file(""); }),
              HasSubstr("the cache file name is empty"));
}

TEST(OutputPath, OutputsThatBelongTogetherMustDiffer) {
  assay::testing::TempDir dir;
  EXPECT_NO_THROW(
      check_distinct_outputs({{"--kept", dir.file("a")}, {"--dropped", dir.file("b")}}));
  EXPECT_THAT(assay::testing::error_message_of([&] {
                check_distinct_outputs({{"--kept", dir.file("a")}, {"--dropped", dir.file("a")}});
              }),
              HasSubstr("--kept and --dropped name the same file"));
  // Spelled differently, through a link, or as a hard link of one file.
  EXPECT_THROW(check_distinct_outputs(
                   {{"--kept", dir.file("a")}, {"--dropped", dir.path().string() + "/./x/../a"}}),
               UsageError);
  std::filesystem::create_symlink(dir.file("a"), dir.file("link"));
  EXPECT_THROW(check_distinct_outputs({{"--kept", dir.file("a")}, {"--dropped", dir.file("link")}}),
               UsageError);
  dir.write("h1", "x");
  std::filesystem::create_hard_link(dir.file("h1"), dir.file("h2"));
  EXPECT_THROW(check_distinct_outputs({{"--kept", dir.file("h1")}, {"--dropped", dir.file("h2")}}),
               UsageError);
}

}  // namespace
}  // namespace assay::core
