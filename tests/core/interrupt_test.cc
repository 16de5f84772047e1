// The interrupt handler in a real child process: a SIGINT/SIGTERM removes the registered
// temporary files (those of an AtomicFileWriter included), prints the resume hint and exits
// 128 + the signal.
#include "core/interrupt.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

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
