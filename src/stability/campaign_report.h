// The campaign's outputs, all written atomically into one directory:
//   summary.json      cells (mean, sd, baseline, ratio, difference, rank-sum and Welch p per
//                     algorithm/heuristic/size/oracle), significance, noise_floor, timing
//   cells.csv         the same cells as CSV
//   top_out.md, jaccard.md, aod.md, rbo.md  every cell of that oracle: mean, 95 % CI, ratio,
//                     difference with its interval, P(above), rank-sum p, Holm and BH p,
//                     Welch's Holm p, the noise floor
//   findings.md       the cells of every oracle that survive Holm's correction, and the
//                     low-power warning of the headline oracle
//   figure2.svg       Figure 2: Top Out minus the same-type random baseline (difference of
//                     means, linear axis) with its 95 % bootstrap interval, faint bars where the
//                     cell is not a finding
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
  Oracle headline_oracle = Oracle::kTopOut;  // the oracle of the headline (all are tabled)
  // The difference of means a campaign should detect; cells without a finding whose minimum
  // detectable effect exceeds it make the report warn of low power.
  double min_effect = kDefaultMinEffect;
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

// The report's opening paragraph, in words, for one oracle. Only cells that survive Holm's
// correction of the rank-sum test (see survives_correction) are quoted: for the one that moved
// the most (Top Out: how many users of the data lost their top item, with its 95 % interval),
// against the same-type random baseline (ratio, difference of means with its interval,
// probability of superiority, p, Holm p, trials) and the retraining noise floor; then one line
// per algorithm. When no cell survives, it says so with the counts before and after the
// correction. A paragraph follows for each algorithm whose seed noise floor is at least the
// largest mean of its cells. HTML (<p class="headline"> and, for several algorithms, a <ul>).
std::string campaign_headline_html(const recsys::Ratings& data, const CampaignConfig& config,
                                   const CampaignSummary& summary, Oracle oracle = Oracle::kTopOut);

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
