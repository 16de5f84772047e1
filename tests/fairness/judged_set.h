// Judged sets of gender perturbations (tests/data/fairness/gender-judged/, rules in
// docs/fairness.md "Judged sets"): reading them and scoring a perturbator against them.
//  - handwritten.txt: cases "@ rule", "> input", "= correct perturbation" lines (the complete
//    set of correct outputs; {F} / {M} stand for any female / male first name of the names
//    file, the same wildcard twice meaning the same name);
//  - sampled.tsv: perturbations sampled from real corpora, each judged by reading:
//    source file, line, the changes made, right|wrong, a one-word reason.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "fairness/first_names.h"
#include "fairness/perturbation.h"
#include "fairness/perturbator.h"
#include "fairness/sensitive_attribute.h"
#include "fairness_test_support.h"

namespace assay::fairness::testing {

struct HandwrittenCase {
  std::string rule, input;
  std::vector<std::string> expected;
  int line = 0;
};

inline std::vector<HandwrittenCase> read_handwritten(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot be read");
  std::vector<HandwrittenCase> out;
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (line.size() < 2 || line[0] == '#') continue;
    const std::string body = line.substr(2);
    if (line[0] == '@') {
      out.push_back({body, "", {}, n});
    } else if (line[0] == '>' && !out.empty()) {
      out.back().input = body;
    } else if (line[0] == '=' && !out.empty()) {
      out.back().expected.push_back(body);
    }
  }
  return out;
}

// Whether `name` may stand for the slot `slot` of a hand-written case: "F" / "M" any female /
// male first name of the names file, "GROUP/F" / "GROUP/M" a first name of that group and
// gender in the attribute's `names` rows.
using NameSlot = std::function<bool(const std::string& slot, const std::string& name)>;

inline NameSlot name_slots(const FirstNames& names, const SensitiveAttribute* attribute = nullptr) {
  return [&names, attribute](const std::string& slot, const std::string& name) {
    if (slot == "F") return names.gender_of(name) == knowledge::Gender::kFemale;
    if (slot == "M") return names.gender_of(name) == knowledge::Gender::kMale;
    const auto slash = slot.find('/');
    if (!attribute || slash == std::string::npos) return false;
    const auto hit = attribute->find_name(name);
    return hit && attribute->groups[hit->group].name == slot.substr(0, slash) &&
           hit->female == (slot.substr(slash + 1) == "F");
  };
}

// Whether `got` is `want` with each {SLOT} standing for one name the slot allows (the same
// slot twice in one line: the same name).
inline bool matches(const std::string& want, const std::string& got, const NameSlot& ok,
                    std::map<std::string, std::string> bound = {}, std::size_t w = 0,
                    std::size_t g = 0) {
  while (w < want.size()) {
    const auto close = want[w] == '{' ? want.find('}', w) : std::string::npos;
    if (close != std::string::npos && close > w + 1) {
      const std::string slot = want.substr(w + 1, close - w - 1);
      std::size_t end = g;
      while (end < got.size() && (std::isalpha(static_cast<unsigned char>(got[end])) ||
                                  got[end] == '-' || got[end] == '\'')) {
        ++end;
      }
      // Every prefix of the run of letters could be the name ("Mary's").
      for (std::size_t e = end; e > g; --e) {
        const std::string name = got.substr(g, e - g);
        if (!ok(slot, name)) continue;
        if (bound.count(slot) && bound[slot] != name) continue;
        auto b = bound;
        b[slot] = name;
        if (matches(want, got, ok, b, close + 1, e)) return true;
      }
      return false;
    }
    if (g >= got.size() || got[g] != want[w]) return false;
    ++w;
    ++g;
  }
  return g == got.size();
}

// A sampled perturbation, kept as a reference to its input and the changes it made, not as
// text: the corpora's licences forbid copying them into the repository, so the test reads
// the input from ../shared/data. `changes`: each changed span in text order as
// "CHAR:OLD>NEW" (CHAR: the offset in code points, as `fair perturb` writes it), joined by '|' (see
// signature()).
struct JudgedPerturbation {
  std::string source;  // file under ../shared/data, e.g. rt-polarity-v1.0/rt-polarity.pos
  std::size_t line = 0;
  std::string changes, verdict, reason;
};

inline std::string signature(const Perturbation& p) {
  std::string out;
  for (const auto& s : p.spans) {
    if (!out.empty()) out += '|';
    out += std::to_string(s.char_begin) + ":" + s.old_text + ">" + s.new_text;
  }
  return out;
}

inline std::vector<JudgedPerturbation> read_sampled(const std::string& path) {
  std::ifstream in(path);
  std::vector<JudgedPerturbation> out;
  std::string line;
  if (!in) throw std::runtime_error(path + ": cannot be read");
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> f;
    std::size_t from = 0;
    while (true) {
      const auto tab = line.find('\t', from);
      f.push_back(line.substr(from, tab == std::string::npos ? tab : tab - from));
      if (tab == std::string::npos) break;
      from = tab + 1;
    }
    if (f.size() != 5 || f[1].empty() ||
        f[1].find_first_not_of("0123456789") != std::string::npos ||
        (f[3] != "right" && f[3] != "wrong") || f[4].empty()) {
      throw std::runtime_error(path + ": a row that is not source, line, changes, " +
                               "right|wrong, reason: " + line);
    }
    out.push_back({f[0], std::stoul(f[1]), f[2], f[3], f[4]});
  }
  return out;
}

// Line `n` (1-based) of a corpus file, as the fairness input reader reads it: SST-2's .tsv
// files give the sentence (the field before the last tab; in the labelled test file, whose label
// comes first, the field after the first tab), the others the whole line.
inline std::string corpus_line(const std::string& path, std::size_t n) {
  std::ifstream in(path, std::ios::binary);
  std::string line;
  for (std::size_t k = 0; k < n && std::getline(in, line); ++k) {
  }
  if (!line.empty() && line.back() == '\r') line.pop_back();
  const auto ends_with = [&](std::string_view tail) {
    return path.size() >= tail.size() &&
           path.compare(path.size() - tail.size(), tail.size(), tail) == 0;
  };
  if (ends_with("test-labeled.tsv")) {
    const auto tab = line.find('\t');
    if (tab != std::string::npos) line.erase(0, tab + 1);
  } else if (ends_with(".tsv")) {
    const auto tab = line.rfind('\t');
    if (tab != std::string::npos) line.resize(tab);
  }
  return line;
}

// A perturbator against a hand-written set: precision of what it produces, recall of what
// the set expects, and the cases it gets exactly right (the others are listed in `report`).
struct HandwrittenScore {
  std::size_t produced = 0, right = 0, expected = 0, found = 0, exact = 0, cases = 0;
  // Cases with at least one correct perturbation, and of those the ones that got one.
  std::size_t with_expected = 0, with_expected_found = 0;
  std::map<std::string, std::pair<std::size_t, std::size_t>> by_rule;  // exact, cases
  std::string report;                                                  // the cases not fully right
};

inline HandwrittenScore score_handwritten(const Perturbator& p, const FirstNames& names,
                                          const std::string& path) {
  const NameSlot slots = name_slots(names, &p.attribute());
  HandwrittenScore s;
  const auto cases = read_handwritten(path);
  s.cases = cases.size();
  for (const auto& c : cases) {
    const auto set = p.perturb(c.input);
    std::vector<bool> seen(c.expected.size(), false);
    bool all_right = true;
    std::string wrong;
    for (const auto& q : set.perturbations) {
      ++s.produced;
      bool ok = false;
      for (std::size_t e = 0; e < c.expected.size(); ++e) {
        if (matches(c.expected[e], q.text, slots)) {
          ok = true;
          seen[e] = true;
        }
      }
      s.right += ok;
      if (!ok) {
        all_right = false;
        wrong += "\n    wrong: " + q.text;
      }
    }
    s.expected += c.expected.size();
    std::string missed;
    bool any = false;
    for (std::size_t e = 0; e < c.expected.size(); ++e) {
      s.found += seen[e];
      any |= seen[e];
      if (!seen[e]) missed += "\n    missed: " + c.expected[e];
    }
    s.with_expected += !c.expected.empty();
    s.with_expected_found += !c.expected.empty() && any;
    const bool full = all_right && missed.empty();
    s.exact += full;
    s.by_rule[c.rule].first += full;
    ++s.by_rule[c.rule].second;
    if (!full) {
      s.report +=
          "\n  line " + std::to_string(c.line) + " [" + c.rule + "] " + c.input + wrong + missed;
    }
  }
  return s;
}

// Where a judged row's source lives: "corpora/NAME.txt" under the repository's data/ (made by
// tools/judged/corpora.py from Debian and npm packages), "domains/NAME.txt" under
// tests/data/fairness/, anything else under ../shared/data.
inline std::string source_path(const std::string& source) {
  if (source.rfind("corpora/", 0) == 0) return kData + "/../../../data/" + source;
  if (source.rfind("domains/", 0) == 0) return kData + "/" + source;
  return kShared + "/" + source;
}

// Perturbations of real text (rt-polarity, SST-2, the IMDB sample), sampled with a seed and
// judged by reading. Precision is counted over every perturbation the perturbator now makes of
// those inputs, an output nobody judged counting as wrong (so a change of the perturbator
// cannot raise it without its new outputs being judged).
using Input = std::pair<std::string, std::size_t>;  // source, line
using Verdicts = std::map<std::pair<Input, std::string>, const JudgedPerturbation*>;

// A sampled set's inputs (in file order) and verdicts; `judged` must outlive it.
struct SampledSet {
  explicit SampledSet(const std::vector<JudgedPerturbation>& judged) {
    for (const auto& j : judged) {
      const Input in{j.source, j.line};
      if (std::find(inputs.begin(), inputs.end(), in) == inputs.end()) inputs.push_back(in);
      verdict[{in, j.changes}] = &j;
      judged_right += j.verdict == "right";
    }
  }
  std::vector<Input> inputs;
  Verdicts verdict;
  std::size_t judged_right = 0;
};

struct SampledScore {
  std::size_t made = 0, right = 0, unjudged = 0;
  std::string report;  // wrong and unjudged perturbations; with ASSAY_JUDGED_REPORT set, also
                       // the perturbations judged right that are no longer made
};

inline SampledScore score_sampled(const Perturbator& p, const SampledSet& set) {
  const auto& inputs = set.inputs;
  const auto& verdict = set.verdict;
  SampledScore s;
  std::set<std::pair<Input, std::string>> made;
  for (const auto& in : inputs) {
    const auto text = corpus_line(source_path(in.first), in.second);
    for (const auto& q : p.perturb(text).perturbations) {
      const auto sig = signature(q);
      made.insert({in, sig});
      ++s.made;
      const auto it = verdict.find({in, sig});
      const std::string where = "\n  " + in.first + ":" + std::to_string(in.second) + " ";
      if (it == verdict.end()) {
        ++s.unjudged;
        s.report += where + "unjudged\t" + sig + "\n    " + text + "\n    " + q.text;
      } else if (it->second->verdict == "right") {
        ++s.right;
      } else {
        s.report += where + "wrong (" + it->second->reason + ")\t" + sig + "\n    " + text +
                    "\n    " + q.text;
      }
    }
  }
  if (std::getenv("ASSAY_JUDGED_REPORT")) {
    for (const auto& [key, j] : verdict) {
      if (j->verdict == "right" && !made.count(key))
        s.report += "\n  " + key.first.first + ":" + std::to_string(key.first.second) +
                    " right, no longer made\t" + key.second;
    }
  }
  return s;
}

// A test name for an attribute parameter ("sexual-orientation" → "sexual_orientation").
inline std::string attribute_test_name(const ::testing::TestParamInfo<std::string>& param) {
  std::string n = param.param;
  for (char& c : n) {
    if (c == '-') c = '_';
  }
  return n;
}

}  // namespace assay::fairness::testing
