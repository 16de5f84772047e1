// The page `assay fair report` writes: what `fair test` and `fair mitigate` found, for people
// who did not run them. One ReportRun per (model, attribute) run: the directory `fair test
// --out DIR` wrote (summary.json, violations.jsonl) and/or the one `fair mitigate --out DIR`
// wrote (mitigation.json) — both may be the same directory. The page holds a headline in words
// (per run: model, data, attribute, the group the model favours and by how much; what ε
// means), violations per run (Table 1), one section per run (which way each group pushes the
// labels, violations at a few least score changes, the substitutions that flip labels most
// with their direction, example violations with the changed words marked: Table 2), the
// perturbations per input (the paper's Fig. 4) and the violations remaining after the neutral
// layer per ε (Fig. 5); a part whose files are missing says what to run instead.
#pragma once

#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fairness/direction_test.h"
#include "fairness/fairness_summary_json.h"

namespace assay::fairness {

// One changed place of a violation, in code points of the original text (as fair test writes
// them).
struct ReportSpan {
  std::size_t begin = 0, end = 0;
  std::string old_text, new_text;
};

struct ReportViolation {
  std::size_t line = 0;  // the input's line
  std::string original, perturbed, kind, group, old_word, new_word;
  std::string label_original, label_perturbed;
  double score_original = 0, score_perturbed = 0;  // the score of the label each chose
  // How far the original label's score fell (violations.jsonl's score_drop; the difference of
  // the two scores above when a file lacks it).
  double score_drop = 0;
  std::vector<ReportSpan> spans;
};

struct ReportFlip {
  std::string substitution;  // "old -> new"
  std::size_t violations = 0;
  std::map<std::string, std::size_t> toward;  // violations by the label flipped to
};

struct ReportEpsilon {
  double epsilon = 0;
  std::size_t violations = 0;
  double remaining_percent = 0;  // NaN when there were no violations before
  double reference_certified = 0;
  std::size_t reference_violations = 0;
  double reference_remaining_percent = 0;
};

// What summary.json holds (FairnessSummaryFile: model, attribute, data, counts, direction and
// severity), set from mitigation.json too where that is all there is.
struct ReportRun : FairnessSummaryFile {
  std::string name;  // shown on the page: the directory's base name
  std::string dir;

  bool has_test = false;                  // summary.json and violations.jsonl were there
  std::vector<ReportFlip> top_flips;      // from violations.jsonl, most violations first
  std::vector<ReportViolation> examples;  // every violation, in file order

  bool has_mitigation = false;  // mitigation.json was there
  std::size_t violations_before = 0;
  std::vector<ReportEpsilon> epsilons;
};

// Reads one directory. Throws core::UsageError when it holds neither summary.json nor
// mitigation.json (or summary.json without violations.jsonl), core::ParseError naming the file
// (and line, for JSON syntax and violations.jsonl) for malformed content or a missing field.
ReportRun read_report_run(const std::string& dir);

struct FairnessReportOptions {
  std::size_t examples_per_model = 8;  // Table 2 rows per model
  std::size_t top_substitutions = 15;
};

// The whole page (a complete HTML document, SVG inline, no scripts). `runs` must not be empty.
std::string fairness_report_html(const std::vector<ReportRun>& runs,
                                 const FairnessReportOptions& options = {});

// The opening sentence(s) in plain words, as HTML (used by fairness_report_html).
std::string fairness_headline_html(const std::vector<ReportRun>& runs);

// A run's direction in one sentence, as HTML: which group the model favours (the most label
// flips toward the favourable label, direction_test.h, net of those away from it) and by how
// much — stated only when the flips of the most or the least favoured group lean that way
// beyond chance (exact sign test, Holm's correction across the run's groups, 5 % level), each
// leaning group with its share of flips toward, its interval and p-value; otherwise that no
// group is favoured beyond chance. With each group's flips and mean score change. Empty without
// direction data.
std::string favour_sentence_html(const ReportRun& run);

// `text` with the code-point ranges [begin, end) wrapped in <mark>, escaped for HTML. Ranges
// must be sorted, disjoint and within the text (checked by read_report_run).
std::string mark_spans(const std::string& text,
                       const std::vector<std::pair<std::size_t, std::size_t>>& ranges);

}  // namespace assay::fairness
