// The campaign's outputs, all written atomically into one directory:
//   summary.json      cells (mean, sd, baseline, ratio, p per algorithm/heuristic/size/oracle),
//                     noise_floor, timing
//   cells.csv         the same cells as CSV
//   top_out.md        every Top Out cell: mean, 95 % CI, ratio, Welch p, Holm and BH p
//   findings.md       the Top Out cells that survive Holm's correction, and the low-power warning
//   figure2.svg       Figure 2: Top Out ratio to the same-type random baseline, log10 axis, with
//                     trial quartiles, faint bars where Holm p >= 0.05, a marker for baseline 0
//   table3.md/.csv    Table 3: mean modification-set generation time per heuristic and size
//   table4.md/.csv    Table 4: APORTFOLIO vs ARAND (Top Out) for n = 10 and 100
//   configurations.md every configuration: its name in the tables, the full spec with defaults
//                     filled in, I_R per rating value, accuracy when measured
//   sweep.md, sweep-*-instability.svg, sweep-*-accuracy.svg  for every group of configurations of
//   one algorithm that differ in
//                     one numeric key: instability (APORTFOLIO and ARAND Top Out at n = 10,
//                     100) and accuracy (RMSE, MAE) against that key's value
//   report.html       everything above in one page (SVG inline)
//   mods/*.json       every modification set whose instability exceeded delta, or every set
//                     with ReportOptions::save_all (replayable; `rec export` writes its data)
#pragma once

#include <string>
#include <vector>

#include "recsys/ratings.h"
#include "stability/campaign.h"
#include "stability/campaign_analysis.h"

namespace assay::stability {

struct ReportOptions {
  double delta = 0.1;
  Oracle delta_oracle = Oracle::kTopOut;
  bool save_all = false;  // the sets given are every run's, not those exceeding delta
};

std::string summary_json(const CampaignConfig& config, const CampaignSummary& summary,
                         const ReportOptions& options, const std::vector<std::string>& mod_files);
std::string figure2_svg(const CampaignConfig& config, const CampaignSummary& summary);
std::string table3_markdown(const CampaignSummary& summary);
std::string table3_csv(const CampaignSummary& summary);
std::string table4_markdown(const CampaignConfig& config, const CampaignSummary& summary);
std::string table4_csv(const CampaignConfig& config, const CampaignSummary& summary);
std::string cells_csv(const CampaignSummary& summary);
std::string configurations_markdown(const CampaignSummary& summary);

// Configurations of one algorithm (or profile) that differ in exactly one key, whose values
// are all numbers: points in increasing value order.
struct Sweep {
  std::string name, key;
  std::vector<double> values;
  std::vector<std::string> algorithms;  // the configurations' identities, same order
};
std::vector<Sweep> find_sweeps(const CampaignSummary& summary);
std::string sweep_markdown(const CampaignSummary& summary, const Sweep& sweep);
// The two charts of a sweep: instability and accuracy against the key (either is empty when
// the campaign has none of its figures).
struct SweepCharts {
  std::string instability, accuracy;
};
SweepCharts sweep_svgs(const CampaignSummary& summary, const Sweep& sweep);

// The report's opening paragraph, in words. Only cells that survive Holm's correction (see
// survives_correction) are quoted: for the one whose sets moved the most users' top item (Top
// Out), how many users of the data with its 95 % interval, against the same-type random
// baseline (ratio, Welch p, Holm p, trials) and the retraining noise floor; then one line per
// algorithm. When no cell survives, it says so with the counts before and after the correction.
// HTML (a <p class="headline"> and, for several algorithms, a <ul>).
std::string campaign_headline_html(const recsys::Ratings& data, const CampaignConfig& config,
                                   const CampaignSummary& summary);

// File name of a saved set: "<algorithm>-<HEURISTIC>-n<size>-t<trial>.json".
std::string modification_set_file_name(const RunKey& key);

// The files write_campaign_report writes in its directory, as glob patterns relative to it
// ("summary.json", "mods/*.json"), so a command can refuse a store or input among them first.
const std::vector<std::string>& campaign_report_files();

// Writes every output into `dir` (created if needed); returns the paths written. A directory an
// earlier report used keeps only this report's sets in mods/: the sets the earlier summary.json
// listed and this one does not are removed; every other file (the user's own) is left alone.
std::vector<std::string> write_campaign_report(const std::string& dir, const recsys::Ratings& data,
                                               const CampaignConfig& config,
                                               const CampaignSummary& summary,
                                               const std::vector<SavedModificationSet>& sets,
                                               const ReportOptions& options);

}  // namespace assay::stability
