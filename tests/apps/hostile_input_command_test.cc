// Hostile input for every command, through the real binary. The commands are enumerated from
// `assay --help` and `assay <group> --help`, so a new command fails CommandTable.CoversEveryCommand
// until it has a row here, and then gets every check:
//   - standard output onto /dev/full: exit 2 naming standard output (help, and a real run);
//   - the output option onto a directory, a device, a missing directory: exit 2 naming it, before
//     any input is read (the input of these runs is missing, so only an early check passes);
//   - the output option onto a symbolic link: the link's target is written, the link stays;
//   - the text input missing, a directory, empty, invalid UTF-8, binary, gzip where text is
//     expected (and corrupt gzip for the readers that inflate): exit 2, the message names the
//     file, no output file and no temporary file left;
//   - the text input with a byte-order mark and CRLF line ends: accepted like the plain file;
//   - the input an endless device (/dev/zero): exit 2 at its first NUL byte, at once;
// and, for the text input, an endless line from a pipe and a 160 MB line stop at
// --max-line-bytes with the memory of a normal run.
// Negative, NaN and huge option values are covered for every count/threshold option by
// option_checks_command_test.cc.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "support/temp_dir.h"

namespace {

namespace fs = std::filesystem;
using assay::testing::read_file;
using assay::testing::run_assay;
using assay::testing::TempDir;
using ::testing::HasSubstr;

const std::string kData = ASSAY_TEST_DATA_DIR;

// One command. In `args`, {in} is the text input under test, {out} the output (a file, or a
// directory when out_is_dir), {model} a logistic-regression model, {dir} the test directory.
struct Row {
  std::string command;
  std::string args;
  std::string out_option;  // "" when the command has no output option
  bool out_is_dir = false;
  std::string good;       // valid content for {in}
  bool prints = true;     // prints its result on stdout when the output option is left out
  bool empty_ok = false;  // an empty input is a valid one (no items): exit 0 or 1, not 2
};

const std::string kRatings =
    "user,item,rating\n1,1,4\n1,2,3\n1,3,5\n2,1,2\n2,2,5\n2,4,4\n3,1,5\n3,3,1\n3,4,2\n4,2,4\n"
    "4,3,3\n4,4,5\n";
const std::string kTexts = "the king is here\nshe is a queen\n";
const std::string kLabelledTsv =
    "the king is good\tpos\nbad queen\tneg\ngood man\tpos\nbad woman\tneg\n";
const std::string kLabelled =
    "text,label\nthe king is good,pos\nbad queen,neg\ngood man,pos\n"
    "bad woman,neg\n";

std::vector<Row> table() {
  return {
      {"aeon eval", "--annotations {in} --metric SemEval --threshold 3", "--out", false,
       read_file(kData + "/aeon/example_annotations.csv")},
      {"aeon filter", "--scores {in} --task sa --kept {out} --dropped {dir}/dropped.jsonl",
       "--kept", false, "{\"SemEval\": 0.95, \"SynEval\": 0.5}\n", false, true},
      {"aeon score", "--pairs {in} --model-dir " + kData + "/lm/bert", "--out", false,
       "{\"original\": \"a good film .\", \"generated\": \"a fine film .\"}\n", true, true},
      {"fair mitigate",
       "--quiet --model lr:{model} --input {in} --input-format tsv-no-header --epsilon 1", "--out",
       true, kLabelledTsv, false, true},
      {"fair perturb", "--quiet --input {in}", "--out", false, kTexts, true, true},
      // {in} stands for a fair test output directory: every file in its place is refused.
      {"fair report", "--quiet --in {in}", "--out", false, "", false},
      // {in} is the upstream model; a server never ends by itself, so no valid input is run.
      {"fair serve", "--upstream lr:{in} --epsilon 1 --listen 127.0.0.1:0", "", false, "", false},
      {"fair test", "--quiet --model lr:{model} --input {in}", "--out", true, kTexts, false, true},
      {"kg query", "--word king --kg conceptnet:{in} --kg-cache {dir}/kg.cache", "", false,
       read_file(kData + "/knowledge/conceptnet-mini.csv")},
      {"lm score", "--ngram-model arpa:" + kData + "/lm/tiny.arpa --input {in}", "--out", false,
       kTexts, true, true},
      {"model predict", "--quiet --model lr:{model} --input {in}", "--out", false, kTexts, true,
       true},
      {"model train-lr", "--quiet --train {in} --text-column text --label-column label", "--out",
       false, "text\tlabel\n" + kLabelledTsv, false},
      {"rec campaign",
       "--quiet --data csv:{in} --algorithms user-user --heuristics AMU "
       "--sizes 1 --trials 1 --noise-trials 1 --store {in}.db",
       "--out", true, kRatings, false},
      {"rec export", "--data csv:{in}", "--out", false, kRatings, false},
      {"rec fuzz", "--data csv:{in} --algorithm user-user --heuristic AMU --size 1 --trials 1",
       "--out", false, kRatings},
      {"rec recommend", "--quiet --data csv:{in} --algorithm user-user --top-k 2", "--out", false,
       kRatings},
      {"rec replay", "--data csv:{in} --mods {dir}/missing-mods.json", "--out", false, "", false},
      {"text tag", "--no-lemmas --input {in}", "--out", false, kTexts, true, true},
      {"vectors analogy", "--vectors {in} --vectors-format glove --a w00 --b w01 --c w02", "--out",
       false, read_file(kData + "/vectors/tiny.glove.txt")},
      {"vectors neighbors", "--vectors {in} --vectors-format glove --word w00", "", false,
       read_file(kData + "/vectors/tiny.glove.txt")},
  };
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (std::size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size()))
    s.replace(p, from.size(), to);
  return s;
}

// The subcommand names listed in a CLI11 help text's "SUBCOMMANDS:" section.
std::vector<std::string> subcommands(const std::string& help) {
  std::vector<std::string> out;
  std::istringstream in(help);
  std::string line;
  bool in_section = false;
  while (std::getline(in, line)) {
    if (line.starts_with("SUBCOMMANDS:") || line.starts_with("Subcommands:")) {
      in_section = true;
      continue;
    }
    if (!in_section) continue;
    if (line.empty() || line[0] != ' ') {
      if (!line.empty()) in_section = false;
      continue;
    }
    std::istringstream words(line);
    std::string name;
    words >> name;
    if (!name.empty()) out.push_back(name);
  }
  return out;
}

// Runs `assay <args>` with standard output onto /dev/full (a write fails with ENOSPC), or with
// `redirect` another redirection of it (">&-": closed).
assay::testing::RunResult run_onto_full_disk(const TempDir& dir, const std::string& args,
                                             const std::string& redirect = ">/dev/full") {
  const std::string err = dir.file("stderr-full.txt");
  const std::string cmd =
      std::string(ASSAY_BINARY) + " " + args + " " + redirect + " 2>" + err + " </dev/null";
  const int status = std::system(cmd.c_str());
  assay::testing::RunResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.err = read_file(err);
  fs::remove(err);
  return r;
}

struct BoundedRun {
  assay::testing::RunResult result;
  long max_rss_kib = 0;  // the largest process of the run
  double seconds = 0;
  bool timed_out = false;
};

// Runs `sh -c SHELL` in a process group of its own, with stdout and stderr into files in `dir`,
// killing the group after `limit` seconds; wait4 gives the peak memory of its processes.
BoundedRun run_bounded(const TempDir& dir, const std::string& shell, double limit) {
  const std::string out = dir.file("stdout.txt"), err = dir.file("stderr.txt");
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::setpgid(0, 0);
    if (!std::freopen(out.c_str(), "w", stdout) || !std::freopen(err.c_str(), "w", stderr) ||
        !std::freopen("/dev/null", "r", stdin))
      ::_exit(98);
    ::execl("/bin/sh", "sh", "-c", shell.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  BoundedRun b;
  int status = 0;
  rusage usage{};
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  while (::wait4(pid, &status, WNOHANG, &usage) != pid) {
    if (elapsed() > limit) {
      ::kill(-pid, SIGKILL);
      ::wait4(pid, &status, 0, &usage);
      b.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  b.seconds = elapsed();
  b.max_rss_kib = usage.ru_maxrss;
  b.result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  b.result.out = read_file(out);
  b.result.err = read_file(err);
  return b;
}

class HostileInput : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    const std::string train = dir_->write("train.csv", kLabelled);
    model_ = dir_->file("lr.json");
    const auto r = run_assay(*dir_, "model train-lr --quiet --train " + train +
                                        " --text-column text --label-column label --out " + model_);
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  static void TearDownTestSuite() { delete dir_; }

  // `row.args` with its placeholders filled; the output option appended when `out` is given.
  static std::string args(const Row& row, const TempDir& dir, const std::string& in,
                          const std::string& out) {
    std::string a = replace_all(row.args, "{model}", model_);
    a = replace_all(a, "{dir}", dir.path().string());
    a = replace_all(a, "{in}", in);
    const bool inline_out = row.args.find("{out}") != std::string::npos;
    if (inline_out) {
      a = replace_all(a, "{out}", out.empty() ? dir.file("unused-out") : out);
    } else if (!out.empty()) {
      a += " " + row.out_option + " " + out;
    }
    return row.command + " " + a;
  }

  // Only the input (and what belongs to it, such as a store named after it) may remain.
  static void expect_no_leftovers(const TempDir& dir, const std::set<std::string>& allowed) {
    for (const auto& e : fs::recursive_directory_iterator(dir.path())) {
      const std::string name = e.path().filename().string();
      EXPECT_EQ(name.find(".tmp-"), std::string::npos) << e.path();
      if (!allowed.contains(name) && !name.starts_with("input-")) {
        ADD_FAILURE() << "left behind: " << e.path();
      }
    }
  }

  static TempDir* dir_;
  static std::string model_;
};

TempDir* HostileInput::dir_ = nullptr;
std::string HostileInput::model_;

TEST_F(HostileInput, CommandTableCoversEveryCommand) {
  TempDir dir;
  std::set<std::string> in_table;
  for (const Row& r : table()) in_table.insert(r.command);
  const auto top = run_assay(dir, "--help");
  const auto groups = subcommands(top.out);
  ASSERT_GE(groups.size(), 6u) << top.out;
  std::size_t n = 0;
  for (const std::string& g : groups) {
    const auto help = run_assay(dir, g + " --help");
    for (const std::string& verb : subcommands(help.out)) {
      ++n;
      EXPECT_TRUE(in_table.contains(g + " " + verb))
          << "assay " << g << " " << verb << " has no row in the hostile-input table";
      // Every command: help onto a full disk is a failure naming standard output.
      const auto full = run_onto_full_disk(dir, g + " " + verb + " --help");
      EXPECT_EQ(full.exit_code, 2) << g << " " << verb;
      EXPECT_THAT(full.err, HasSubstr("cannot write standard output"));
    }
  }
  EXPECT_EQ(n, in_table.size());
}

TEST_F(HostileInput, BadTextInputIsExit2NamingTheFileWithNoOutputLeft) {
  struct Class {
    std::string name;
    std::string content;  // written to the input file; "<dir>" makes a directory, "<none>" nothing
    std::string message;  // expected in the message besides the file name
  };
  const std::vector<Class> classes = {
      {"missing", "<none>", ""},
      {"directory", "<dir>", "directory"},
      {"empty", "", ""},
      {"invalid-utf8", "a\xff\n", ""},
      {"binary", std::string("a\0b\n", 4), ""},
      {"gzip", std::string("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03garbage", 18), ""},
  };
  for (const Row& row : table()) {
    for (const Class& c : classes) {
      SCOPED_TRACE(row.command + " / " + c.name);
      TempDir dir;
      const std::string in = dir.file("input-" + c.name);
      if (c.content == "<dir>") {
        fs::create_directory(in);
      } else if (c.content != "<none>") {
        dir.write("input-" + c.name, c.content);
      }
      const std::string out = row.out_option.empty() ? "" : dir.file("result");
      const auto r = run_assay(dir, args(row, dir, in, out));
      if (c.name == "empty" && row.empty_ok) {
        EXPECT_LE(r.exit_code, 1) << r.err;
        continue;
      }
      EXPECT_EQ(r.exit_code, 2) << r.err;
      EXPECT_THAT(r.err, HasSubstr("input-" + c.name)) << r.err;
      if (!c.message.empty()) {
        EXPECT_THAT(r.err, HasSubstr(c.message));
      }
      EXPECT_LT(r.err.size(), 2000u);
      expect_no_leftovers(dir, {"input-" + c.name, "stdout.txt", "stderr.txt"});
    }
  }
}

// The input is a link to /dev/zero, which never ends: every reader stops at the first NUL
// (an unbounded one grows until the time limit kills it).
TEST_F(HostileInput, EndlessDeviceStopsEveryCommandAtOnce) {
  for (const Row& row : table()) {
    if (row.command == "fair report") continue;  // its input is a directory
    SCOPED_TRACE(row.command);
    TempDir dir;
    const std::string in = dir.file("input-zero");
    fs::create_symlink("/dev/zero", in);
    const std::string out = row.out_option.empty() ? "" : dir.file("result");
    const auto b =
        run_bounded(dir, "exec " + std::string(ASSAY_BINARY) + " " + args(row, dir, in, out), 120);
    ASSERT_FALSE(b.timed_out);
    EXPECT_EQ(b.result.exit_code, 2) << b.result.err;
    // A text reader names line and column, a model file (JSON, read whole) the byte.
    EXPECT_THAT(b.result.err, ::testing::AnyOf(HasSubstr("input-zero:1:1: binary data (a NUL "
                                                         "byte) where a text file was expected"),
                                               HasSubstr("input-zero at byte 0: binary data (a "
                                                         "NUL byte) where a JSON text was "
                                                         "expected")));
    EXPECT_EQ(b.result.out, "");
    expect_no_leftovers(dir, {"input-zero", "stdout.txt", "stderr.txt"});
  }
}

// A text input whose line never ends (a pipe) or is 160 MB long stops as soon as the line
// passes --max-line-bytes, with the memory of a run on a small file: the rest is never read.
TEST_F(HostileInput, OverLongTextLineStopsAtTheLimitWithBoundedMemory) {
  TempDir dir;
  const std::string assay =
      std::string(ASSAY_BINARY) + " model predict --quiet --model lr:" + model_ + " --input ";
  const auto small = run_bounded(dir, "exec " + assay + dir.write("small.txt", kTexts), 120);
  ASSERT_EQ(small.result.exit_code, 0) << small.result.err;
  const long allowed = small.max_rss_kib + 64 * 1024;
  const auto pipe = run_bounded(dir, "yes 'a long line' | tr -d '\\n' | exec " + assay + "-", 120);
  ASSERT_FALSE(pipe.timed_out);
  EXPECT_EQ(pipe.result.exit_code, 2);
  EXPECT_THAT(pipe.result.err, HasSubstr("-:1: a line longer than the limit of 1048576 bytes"));
  EXPECT_EQ(pipe.result.out, "");
  EXPECT_LT(pipe.max_rss_kib, allowed);
  {
    std::ofstream big(dir.file("big.txt"), std::ios::binary);
    big << "first\n";
    const std::string mb(1 << 20, 'x');
    for (int i = 0; i < 160; ++i) big << mb;
    big << "\nlast\n";
  }
  const auto huge = run_bounded(dir, "exec " + assay + dir.file("big.txt"), 120);
  ASSERT_FALSE(huge.timed_out);
  EXPECT_EQ(huge.result.exit_code, 2);
  EXPECT_THAT(huge.result.err, HasSubstr("big.txt:2: a line longer than the limit of 1048576 "
                                         "bytes"));
  EXPECT_LT(huge.max_rss_kib, allowed);
  EXPECT_LT(huge.seconds, small.seconds + 5);
  const auto zero = run_bounded(dir, "exec " + assay + "/dev/zero", 120);
  ASSERT_FALSE(zero.timed_out);
  EXPECT_EQ(zero.result.exit_code, 2);
  EXPECT_THAT(zero.result.err, HasSubstr("/dev/zero:1:1: binary data (a NUL byte)"));
  EXPECT_LT(zero.max_rss_kib, allowed);
  // Every command that reads texts stops the same way on standard input.
  for (const Row& row : table()) {
    if (row.args.find("--input {in}") == std::string::npos &&
        row.args.find("--train {in}") == std::string::npos)
      continue;
    SCOPED_TRACE(row.command);
    TempDir run_dir;
    const std::string out = row.out_option.empty() ? "" : run_dir.file("result");
    const auto b = run_bounded(run_dir,
                               "yes 'a long line' | tr -d '\\n' | exec " +
                                   std::string(ASSAY_BINARY) + " " + args(row, run_dir, "-", out),
                               120);
    ASSERT_FALSE(b.timed_out);
    EXPECT_EQ(b.result.exit_code, 2) << b.result.err;
    EXPECT_THAT(b.result.err, HasSubstr("-:1: a line longer than the limit of "));
    expect_no_leftovers(run_dir, {"stdout.txt", "stderr.txt"});
  }
}

TEST_F(HostileInput, BadOutputIsRefusedBeforeAnyInputIsRead) {
  for (const Row& row : table()) {
    if (row.out_option.empty()) continue;
    TempDir dir;
    fs::create_directory(dir.path() / "a-dir");
    dir.write("a-file", "keep");
    fs::create_symlink("/dev/null", dir.path() / "null-link");
    std::vector<std::pair<std::string, std::string>> bad;  // path, expected words
    if (row.out_is_dir) {
      bad = {{dir.file("a-file"), "it is a regular file"},
             {"/dev/null", "it is a device"},
             {dir.file("a-file/sub"), "is a regular file, not a folder"}};
    } else {
      bad = {{dir.file("a-dir"), "it is a directory"},
             {"/dev/full", "it is a device"},
             {dir.file("null-link"), "it is a device"},
             {dir.file("no/such/file"), "does not exist"}};
    }
    for (const auto& [out, words] : bad) {
      SCOPED_TRACE(row.command + " " + row.out_option + " " + out);
      // The input is missing: only a check made before reading it names the output.
      const auto r = run_assay(dir, args(row, dir, dir.file("missing-input"), out));
      EXPECT_EQ(r.exit_code, 2) << r.err;
      EXPECT_THAT(r.err, HasSubstr(out)) << r.err;
      EXPECT_THAT(r.err, HasSubstr(words)) << r.err;
      EXPECT_THAT(r.err, ::testing::Not(HasSubstr("missing-input"))) << r.err;
    }
    EXPECT_EQ(read_file(dir.file("a-file")), "keep");
    EXPECT_TRUE(fs::is_symlink(dir.path() / "null-link"));
  }
}

TEST_F(HostileInput, BomCrlfInputIsAcceptedAndOutputsGoThroughLinksAndStdoutIsChecked) {
  for (const Row& row : table()) {
    if (row.good.empty()) continue;
    SCOPED_TRACE(row.command);
    TempDir dir;
    const std::string plain = dir.write("plain", row.good);
    const std::string crlf =
        dir.write("bom-crlf", "\xEF\xBB\xBF" + replace_all(row.good, "\n", "\r\n"));
    std::string out_plain, out_crlf;
    if (!row.out_option.empty()) {
      out_plain = dir.file("out-plain");
      fs::create_directory(dir.path() / "real");
      // The second run writes through a link: the target is replaced, the link stays.
      if (!row.out_is_dir) {
        fs::create_symlink("real/target", dir.path() / "out-link");
        out_crlf = dir.file("out-link");
      } else {
        out_crlf = dir.file("out-crlf");
      }
    }
    const auto a = run_assay(dir, args(row, dir, plain, out_plain));
    ASSERT_LE(a.exit_code, 1) << a.err;
    const auto b = run_assay(dir, args(row, dir, crlf, out_crlf));
    EXPECT_EQ(b.exit_code, a.exit_code) << b.err;
    EXPECT_EQ(replace_all(replace_all(b.out, "bom-crlf", "plain"), "out-crlf", "out-plain"), a.out);
    if (!row.out_option.empty() && !row.out_is_dir) {
      EXPECT_TRUE(fs::is_symlink(dir.path() / "out-link"));
      EXPECT_EQ(replace_all(read_file(dir.file("real/target")), "bom-crlf", "plain"),
                read_file(out_plain));
    }
    if (row.prints) {
      // The result on standard output, onto a full disk.
      const std::string no_out = args(row, dir, plain, "");
      const auto full = run_onto_full_disk(dir, no_out);
      EXPECT_EQ(full.exit_code, 2) << full.err;
      EXPECT_THAT(full.err, HasSubstr("cannot write standard output"));
      // Standard output closed: the same, never 0 with the result lost.
      const auto closed = run_onto_full_disk(dir, no_out, ">&-");
      EXPECT_EQ(closed.exit_code, 2) << closed.err;
      EXPECT_THAT(closed.err, HasSubstr("cannot write standard output"));
    }
  }
}

// Inputs other than the main one go through the same text layer: invalid UTF-8 is reported
// the same way (file:line:column and the byte), a BOM with CRLF line ends is accepted.
TEST_F(HostileInput, SecondaryInputsFollowTheSameTextRules) {
  struct Secondary {
    std::string what;
    std::string args;  // {in}: the input under test; {texts}, {ratings}: valid companions
    std::string good;  // "" when only the rejection is checked
  };
  const std::vector<Secondary> rows = {
      {"ARPA model", "lm score --ngram-model arpa:{in} --input {texts}",
       read_file(kData + "/lm/tiny.arpa")},
      {"word2vec text vectors",
       "vectors neighbors --vectors {in} --vectors-format word2vec "
       "--word w00",
       read_file(kData + "/vectors/tiny.w2v.txt")},
      {"attribute file", "fair perturb --quiet --attribute {in} --input {texts}", ""},
      {"modification set (JSON)", "rec replay --data csv:{ratings} --mods {in}", ""},
      {"aeon score original texts",
       "aeon score --original {in} --generated {texts} "
       "--model-dir " +
           kData + "/lm/bert",
       kTexts},
  };
  for (const Secondary& row : rows) {
    SCOPED_TRACE(row.what);
    TempDir dir;
    const std::string texts = dir.write("texts.txt", kTexts);
    const std::string ratings = dir.write("ratings.csv", kRatings);
    auto fill = [&](const std::string& in) {
      std::string a = replace_all(row.args, "{texts}", texts);
      a = replace_all(a, "{ratings}", ratings);
      return replace_all(a, "{in}", in);
    };
    const std::string bad = dir.write("bad-input", "\xff" + (row.good.empty() ? "x\n" : row.good));
    const auto r = run_assay(dir, fill(bad));
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_THAT(r.err, HasSubstr("bad-input:1:1: invalid UTF-8 (byte 0xFF)")) << r.err;
    if (row.good.empty()) continue;
    const std::string plain = dir.write("plain", row.good);
    const std::string crlf =
        dir.write("bom-crlf", "\xEF\xBB\xBF" + replace_all(row.good, "\n", "\r\n"));
    const auto a = run_assay(dir, fill(plain));
    ASSERT_EQ(a.exit_code, 0) << a.err;
    const auto b = run_assay(dir, fill(crlf));
    EXPECT_EQ(b.exit_code, 0) << b.err;
    EXPECT_EQ(replace_all(b.out, "bom-crlf", "plain"), a.out);
  }
}

TEST_F(HostileInput, OutputsThatBelongTogetherMustDiffer) {
  TempDir dir;
  const std::string scores = dir.write("scores.jsonl", "{\"SemEval\": 0.95, \"SynEval\": 0.5}\n");
  const std::string same = dir.file("same.jsonl");
  auto r = run_assay(
      dir, "aeon filter --scores " + scores + " --task sa --kept " + same + " --dropped " + same);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--kept and --dropped name the same file"));
  EXPECT_FALSE(fs::exists(same));
}

}  // namespace
