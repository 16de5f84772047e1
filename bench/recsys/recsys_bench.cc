// recsys_bench DATA_SPEC [--repeats N] [--only NAME] [--scores-hash]: for each algorithm,
// train on the whole dataset and rank the top-10 of every user on one thread, repeated;
// prints the median wall and CPU seconds, and the same for the plain FunkSVD floor with our
// ratio to it, and every algorithm's CPU time as a multiple of the floor's. --scores-hash also
// prints, per algorithm, an FNV-1a hash of the bits of every user's scores for all unrated items: a
// rewrite of a scorer that claims to change nothing must leave it unchanged.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "plain_funk_svd.h"
#include "recsys/data_spec.h"
#include "recsys/recommender.h"

namespace {

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct Timing {
  double wall = 0, cpu = 0;
};

template <class Fn>
Timing time_runs(std::size_t repeats, Fn fn) {
  std::vector<double> wall, cpu;
  for (std::size_t r = 0; r < repeats; ++r) {
    const auto w0 = std::chrono::steady_clock::now();
    const double c0 = cpu_seconds();
    fn();
    cpu.push_back(cpu_seconds() - c0);
    wall.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count());
  }
  return {median(wall), median(cpu)};
}

// FNV-1a over the bits of score(u, unrated items of u) for every user u.
std::uint64_t scores_hash(const assay::recsys::Recommender& model,
                          const assay::recsys::Ratings& data) {
  std::uint64_t h = 1469598103934665603ull;
  std::vector<assay::recsys::ItemId> items;
  std::vector<float> scores;
  for (assay::recsys::UserId u = 0; u < data.n_users(); ++u) {
    const auto rated = data.items_of(u);
    items.clear();
    for (assay::recsys::ItemId i = 0, r = 0; i < data.n_items(); ++i) {
      if (r < rated.size() && rated[r] == i) {
        ++r;
      } else {
        items.push_back(i);
      }
    }
    scores.assign(items.size(), 0.0f);
    model.score(u, items, scores);
    for (float s : scores) {
      std::uint32_t bits = 0;
      std::memcpy(&bits, &s, sizeof bits);
      for (int b = 0; b < 4; ++b) h = (h ^ ((bits >> (8 * b)) & 0xffu)) * 1099511628211ull;
    }
  }
  return h;
}

// FNV-1a over every user's top-10 list (length, then ids).
std::uint64_t lists_hash(const assay::recsys::TopKLists& lists) {
  std::uint64_t h = 1469598103934665603ull;
  const auto add = [&](std::uint32_t v) {
    for (int b = 0; b < 4; ++b) h = (h ^ ((v >> (8 * b)) & 0xffu)) * 1099511628211ull;
  };
  for (const auto& list : lists) {
    add(static_cast<std::uint32_t>(list.size()));
    for (const auto i : list) add(i);
  }
  return h;
}

}  // namespace

int main(int argc, char** argv) {
  const char* usage = "usage: recsys_bench DATA_SPEC [--repeats N] [--only NAME] [--scores-hash]\n";
  if (argc < 2 || argv[1][0] == '-') {
    std::fputs(usage, stderr);
    return argc >= 2 && std::string(argv[1]) == "--help" ? 0 : 2;
  }
  std::size_t repeats = 5;
  std::string only;
  bool hash = false;
  for (int a = 2; a < argc; ++a) {
    const std::string flag = argv[a];
    if (flag == "--scores-hash") {
      hash = true;
    } else if (a + 1 < argc && flag == "--repeats") {
      char* end = nullptr;
      repeats = std::strtoul(argv[++a], &end, 10);
      if (*end != '\0' || repeats == 0) {
        std::fprintf(stderr, "recsys_bench: --repeats wants a positive integer, not '%s'\n",
                     argv[a]);
        return 2;
      }
    } else if (a + 1 < argc && flag == "--only") {
      only = argv[++a];
    } else {
      std::fprintf(stderr, "recsys_bench: unknown or incomplete option '%s'\n%s", argv[a], usage);
      return 2;
    }
  }
  using namespace assay;
  recsys::Ratings data;
  try {
    data = recsys::load_ratings(argv[1]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "recsys_bench: %s\n", e.what());
    return 2;
  }
  std::printf("data: %zu users, %zu items, %zu ratings; %zu repeats, 1 thread, top-10\n",
              data.n_users(), data.n_items(), data.n_ratings(), repeats);
  std::printf("%-16s %10s %10s\n", "algorithm", "wall_s", "cpu_s");
  Timing ours_funk;
  std::vector<std::pair<std::string, Timing>> ours;
  std::size_t checksum = 0;
  for (const auto& name : recsys::recommender_names()) {
    if (!only.empty() && only != name) continue;
    const Timing t = time_runs(repeats, [&] {
      auto model = recsys::make_recommender(name);
      model->fit(data, {0, 1});
      const auto lists = recsys::recommend_all(*model, data, 10, 1);
      checksum += lists[0].empty() ? 0 : lists[0][0];
    });
    if (name == "funk-svd") ours_funk = t;
    ours.emplace_back(name, t);
    std::printf("%-16s %10.3f %10.3f\n", name.c_str(), t.wall, t.cpu);
    if (hash) {
      auto model = recsys::make_recommender(name);
      model->fit(data, {0, 1});
      std::printf("%-16s scores hash %016llx\n", name.c_str(),
                  static_cast<unsigned long long>(scores_hash(*model, data)));
      std::printf(
          "%-16s top-10 hash %016llx\n", name.c_str(),
          static_cast<unsigned long long>(lists_hash(recsys::recommend_all(*model, data, 10, 1))));
    }
  }
  if (only.empty() || only == "plain-funk-svd") {
    const Timing t = time_runs(repeats, [&] {
      bench::PlainFunkSvd plain;
      plain.fit(data, 0);
      const auto lists = plain.top_k(data, 10);
      checksum += lists[0].empty() ? 0 : lists[0][0];
    });
    std::printf("%-16s %10.3f %10.3f\n", "plain-funk-svd", t.wall, t.cpu);
    if (ours_funk.cpu > 0) {
      std::printf("funk-svd / plain-funk-svd: wall %.3f, cpu %.3f (goal <= 1.2)\n",
                  ours_funk.wall / t.wall, ours_funk.cpu / t.cpu);
    }
    // The machine's speed drifts (the same floor has taken 0.69-1.12 s here), so each
    // algorithm's CPU time is also given as a multiple of the floor measured in this run.
    for (const auto& [name, timing] : ours) {
      std::printf("%s / plain-funk-svd: cpu %.3f\n", name.c_str(), timing.cpu / t.cpu);
    }
  }
  std::fprintf(stderr, "(checksum %zu)\n", checksum);
  return 0;
}
