// The interrupt handler in a real child process: a SIGINT/SIGTERM removes the registered
// temporary files (those of an AtomicFileWriter included), prints the resume hint and exits
// 128 + the signal.
#include "core/interrupt.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <functional>

#include "core/atomic_file.h"
#include "support/temp_dir.h"

namespace assay::core {
namespace {

using ::testing::HasSubstr;

struct ChildResult {
  int exit_code = -1;
  std::string err;
};

// Forks a child that runs `body` (with stderr into `err_path`) and then raises `sig`.
ChildResult run_child(const std::string& err_path, int sig, const std::function<void()>& body) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (!std::freopen(err_path.c_str(), "w", stderr)) ::_exit(98);
    install_interrupt_handlers();
    body();
    ::raise(sig);
    ::_exit(99);  // not reached
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, assay::testing::read_file(err_path)};
}

TEST(Interrupt, RemovesRegisteredFilesPrintsHintAndExits128PlusSignal) {
  assay::testing::TempDir dir;
  const std::string a = dir.write("a.tmp", "x"), b = dir.write("b.tmp", "y");
  const std::string kept = dir.write("kept.txt", "z");
  const std::string out = dir.file("out.txt");
  auto r = run_child(dir.file("err1"), SIGTERM, [&] {
    register_temp_file(a);
    const int id = register_temp_file(kept);
    unregister_temp_file(id);  // no longer temporary: must survive
    TempFileGuard guard(b);
    set_resume_hint("rerun the same command to resume");
    AtomicFileWriter w(out);
    w.stream() << "partial" << std::flush;
    ::raise(SIGTERM);
  });
  EXPECT_EQ(r.exit_code, 143);
  EXPECT_THAT(r.err, HasSubstr("interrupted (SIGTERM); rerun the same command to resume"));
  EXPECT_FALSE(std::filesystem::exists(a));
  EXPECT_FALSE(std::filesystem::exists(b));
  EXPECT_TRUE(std::filesystem::exists(kept));
  EXPECT_FALSE(std::filesystem::exists(out));
  std::size_t n_files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.path())) {
    EXPECT_EQ(e.path().string().find(".tmp-"), std::string::npos) << e.path();
    ++n_files;
  }
  EXPECT_EQ(n_files, 2u);  // kept.txt and err1

  r = run_child(dir.file("err2"), SIGINT, [] { set_resume_hint(""); });
  EXPECT_EQ(r.exit_code, 130);
  EXPECT_THAT(r.err, HasSubstr("interrupted (SIGINT)"));
  EXPECT_THAT(r.err, ::testing::Not(HasSubstr("resume")));
}

TEST(Interrupt, SighupEndsLikeSigterm) {
  assay::testing::TempDir dir;
  const std::string out = dir.file("out.txt");
  const auto r = run_child(dir.file("err"), SIGHUP, [&] {
    set_resume_hint("rerun to resume");
    AtomicFileWriter w(out);
    w.stream() << "partial" << std::flush;
    ::raise(SIGHUP);
  });
  EXPECT_EQ(r.exit_code, 129);
  EXPECT_THAT(r.err, HasSubstr("interrupted (SIGHUP); rerun to resume"));
  for (const auto& e : std::filesystem::directory_iterator(dir.path()))
    EXPECT_EQ(e.path().string().find(".tmp-"), std::string::npos) << e.path();
}

// Under a deferral the signal is recorded, the work goes on to its end (here: a file written
// after the signal), and the exit comes when the deferral ends; a second signal exits at once.
TEST(Interrupt, DeferralHonoursTheSignalWhenItEnds) {
  assay::testing::TempDir dir;
  const std::string done = dir.file("done.txt");
  auto r = run_child(dir.file("err1"), SIGTERM, [&] {
    {
      const InterruptDeferral defer;
      ::raise(SIGINT);
      if (!interrupt_pending()) ::_exit(90);
      std::FILE* f = std::fopen(done.c_str(), "w");
      std::fputs("stored", f);
      std::fclose(f);
    }
    ::_exit(91);  // not reached: the deferral's end exits 130
  });
  EXPECT_EQ(r.exit_code, 130);
  EXPECT_EQ(assay::testing::read_file(done), "stored");
  r = run_child(dir.file("err2"), SIGTERM, [&] {
    const InterruptDeferral defer;
    ::raise(SIGINT);
    ::raise(SIGTERM);  // the second: at once
    ::_exit(92);
  });
  EXPECT_EQ(r.exit_code, 143);
}

TEST(Interrupt, RegistryIsBounded) {
  std::vector<int> ids;
  for (std::size_t i = 0; i < kMaxTempFiles + 3; ++i) ids.push_back(register_temp_file("/x"));
  EXPECT_EQ(ids.back(), -1);
  for (int id : ids) unregister_temp_file(id);
  EXPECT_EQ(register_temp_file(std::string(10000, 'p')), -1);
  const int id = register_temp_file("/y");
  EXPECT_GE(id, 0);
  unregister_temp_file(id);
}

}  // namespace
}  // namespace assay::core
