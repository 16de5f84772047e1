#include "core/progress.h"

#include <unistd.h>

#include <cmath>

namespace assay::core {

Progress::Progress(std::string label, std::uint64_t total, ProgressOptions options)
    : label_(std::move(label)),
      total_(total),
      options_(options),
      terminal_(options.terminal < 0 ? ::isatty(::fileno(options.stream)) != 0
                                     : options.terminal == 1),
      start_(std::chrono::steady_clock::now()),
      last_report_(start_) {}

Progress::~Progress() {
  finish();
}

std::string Progress::format_duration(double seconds) {
  char buf[64];
  if (!std::isfinite(seconds) || seconds < 0) return "?";
  if (seconds < 60) {
    std::snprintf(buf, sizeof buf, "%.1f s", seconds);
  } else if (seconds < 3600) {
    const int s = static_cast<int>(seconds);
    std::snprintf(buf, sizeof buf, "%d min %02d s", s / 60, s % 60);
  } else {
    const int m = static_cast<int>(seconds / 60);
    std::snprintf(buf, sizeof buf, "%d h %02d min", m / 60, m % 60);
  }
  return buf;
}

void Progress::add(std::uint64_t n) {
  const std::uint64_t now_done = done_.fetch_add(n) + n;
  if (options_.on_add) options_.on_add(now_done, total_);
  if (options_.quiet) return;
  if (now_done % 64 != 0 && now_done != total_) return;
  std::unique_lock<std::mutex> lock(mutex_, std::try_to_lock);
  if (!lock.owns_lock() || finished_) return;
  const auto now = std::chrono::steady_clock::now();
  const double since = std::chrono::duration<double>(now - last_report_).count();
  if (since < (terminal_ ? 0.2 : options_.interval_seconds)) return;
  last_report_ = now;
  report(false);
}

void Progress::finish() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (finished_) return;
  finished_ = true;
  if (!options_.quiet) report(true);
}

void Progress::report(bool final) {
  const std::uint64_t d = done_.load();
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double rate = elapsed > 0 ? static_cast<double>(d) / elapsed : 0.0;
  const double eta = rate > 0 && total_ > d ? static_cast<double>(total_ - d) / rate : 0.0;
  const double frac = total_ ? static_cast<double>(d) / static_cast<double>(total_) : 1.0;
  if (terminal_) {
    constexpr int kWidth = 30;
    const int filled = static_cast<int>(frac * kWidth);
    std::string bar(static_cast<std::size_t>(filled), '#');
    bar.resize(kWidth, '.');
    std::fprintf(options_.stream, "\r%s [%s] %llu/%llu %.1f/s ETA %s%s", label_.c_str(),
                 bar.c_str(), static_cast<unsigned long long>(d),
                 static_cast<unsigned long long>(total_), rate, format_duration(eta).c_str(),
                 final ? "\n" : "   ");
  } else {
    std::fprintf(options_.stream, "%s: %llu/%llu (%.0f%%), %.1f/s, %s elapsed%s%s\n",
                 label_.c_str(), static_cast<unsigned long long>(d),
                 static_cast<unsigned long long>(total_), 100.0 * frac, rate,
                 format_duration(elapsed).c_str(), final ? "" : ", ETA ",
                 final ? "" : format_duration(eta).c_str());
  }
  std::fflush(options_.stream);
}

}  // namespace assay::core
