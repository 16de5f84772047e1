#include "core/progress.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace assay::core {
namespace {

std::string capture(const std::function<void(std::FILE*)>& f) {
  std::FILE* tmp = std::tmpfile();
  f(tmp);
  std::fflush(tmp);
  std::rewind(tmp);
  std::string s;
  char buf[512];
  while (std::fgets(buf, sizeof buf, tmp)) s += buf;
  std::fclose(tmp);
  return s;
}

TEST(Progress, PlainLinesWhenNotATerminal) {
  const std::string s = capture([](std::FILE* f) {
    ProgressOptions o;
    o.stream = f;
    o.terminal = 0;
    o.interval_seconds = 0;
    Progress p("runs", 128, o);
    for (int i = 0; i < 128; ++i) p.add();
    p.finish();
  });
  EXPECT_NE(s.find("runs: 64/128 (50%)"), std::string::npos) << s;
  EXPECT_NE(s.find("runs: 128/128 (100%)"), std::string::npos) << s;
  EXPECT_EQ(s.find('\r'), std::string::npos);
}

TEST(Progress, BarOnATerminalAndSilentWhenQuiet) {
  const std::string bar = capture([](std::FILE* f) {
    ProgressOptions o;
    o.stream = f;
    o.terminal = 1;
    Progress p("train", 10, o);
    p.add(10);
  });
  EXPECT_NE(bar.find("\rtrain [##############################] 10/10"), std::string::npos) << bar;
  const std::string quiet = capture([](std::FILE* f) {
    ProgressOptions o;
    o.stream = f;
    o.quiet = true;
    Progress p("x", 5, o);
    p.add(5);
  });
  EXPECT_TRUE(quiet.empty());
}

TEST(Progress, CallsOnAddWithEveryCountQuietOrNotAndPassesOnWhatItThrows) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> seen;
  ProgressOptions o;
  o.quiet = true;
  o.on_add = [&seen](std::uint64_t done, std::uint64_t total) {
    seen.emplace_back(done, total);
    if (done == 3) throw std::runtime_error("stop at 3");
  };
  Progress p("x", 4, o);
  p.add();
  p.add();
  EXPECT_THROW(p.add(), std::runtime_error);
  EXPECT_EQ(seen, (std::vector<std::pair<std::uint64_t, std::uint64_t>>{{1, 4}, {2, 4}, {3, 4}}));
}

TEST(Progress, FormatsDurations) {
  EXPECT_EQ(Progress::format_duration(1.25), "1.2 s");
  EXPECT_EQ(Progress::format_duration(184), "3 min 04 s");
  EXPECT_EQ(Progress::format_duration(3720), "1 h 02 min");
}

}  // namespace
}  // namespace assay::core
