#include "fairness/direction_test.h"

#include <algorithm>
#include <cctype>

#include "core/hypothesis_test.h"
#include "core/multiple_comparisons.h"

namespace assay::fairness {

bool names_favourable(const std::string& label) {
  std::string lower = label;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (const char* good : {"pos", "positive", "1", "yes", "true", "good"}) {
    if (lower == good) return true;
  }
  return false;
}

std::string favourable_label(const std::vector<std::string>& labels) {
  for (const auto& l : labels) {
    if (names_favourable(l)) return l;
  }
  return labels.empty() ? std::string() : labels.back();
}

int DirectionTest::lean(double level) const {
  if (!(p_holm < level) || toward == away) return 0;
  return toward > away ? 1 : -1;
}

std::vector<DirectionTest> direction_tests(const std::vector<GroupFlips>& groups) {
  std::vector<DirectionTest> out;
  std::vector<double> p;
  for (const auto& g : groups) {
    const auto s = core::sign_test(g.toward, g.toward + g.away);
    out.push_back({g.group, g.toward, g.away, s.share, s.low, s.high, s.p, s.p});
    p.push_back(s.p);
  }
  const auto adjusted = core::holm_adjust(p);
  for (std::size_t i = 0; i < out.size(); ++i) out[i].p_holm = adjusted[i];
  return out;
}

}  // namespace assay::fairness
