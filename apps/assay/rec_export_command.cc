// `assay rec export`: the ratings a recommender is trained on, written as a CSV that `csv:FILE`
// reads back: the data as loaded, or with a saved modification set applied (the modified data
// set a run of `rec fuzz` or `rec campaign` trained on).
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "command.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "option_checks.h"
#include "rec_options.h"
#include "recsys/data_spec.h"
#include "recsys/ratings_csv_writer.h"
#include "stability/modification_set_file.h"

namespace assay::cli {
namespace {

struct RecExportOptions {
  std::string data;
  std::string mods;
  std::string out;
};

int run(const RecExportOptions& o) {
  auto data = recsys::load_ratings(o.data);
  std::size_t n_modifications = 0;
  if (!o.mods.empty()) {
    const auto set = stability::read_modification_set(o.mods, data);
    if (set.data != o.data) {
      std::fprintf(stderr, "rec export: note: %s was made on --data %s\n", o.mods.c_str(),
                   set.data.c_str());
    }
    try {
      data = data.apply(set.modifications);
    } catch (core::Error& e) {
      e.add_context("applying " + o.mods);
      throw;
    }
    n_modifications = set.modifications.size();
  }
  core::AtomicFileWriter writer(o.out);
  writer.stream() << recsys::ratings_csv_text(data);
  writer.commit();
  const std::string applied =
      o.mods.empty() ? "" : "; " + std::to_string(n_modifications) + " modifications applied";
  std::fprintf(stderr,
               "rec export: %zu ratings, %zu users, %zu items%s; written to %s, read it back with "
               "--data %s\n",
               data.n_ratings(), data.n_users(), data.n_items(), applied.c_str(), o.out.c_str(),
               recsys::csv_data_spec(o.out, data.scale()).c_str());
  return kOk;
}

void add_rec_export_command(CLI::App& rec, CommandResult& result) {
  auto o = std::make_shared<RecExportOptions>();
  auto* cmd = rec.add_subcommand(
      "export",
      "Write the ratings as CSV (user,item,rating; read back with csv:FILE), with a saved "
      "modification set applied when --mods is given");
  cmd->add_option("--data", o->data, kRecDataHelp)->required();
  cmd->add_option("--mods", o->mods,
                  "A modification set saved by rec campaign or rec fuzz: write the data it "
                  "modified");
  add_output_file(cmd, "--out", o->out, "The CSV file (written atomically)")->required();
  cmd->callback([o, &result] { result.exit_code = run(*o); });
}

}  // namespace

ASSAY_REGISTER_COMMAND("rec", "Recommender stability: recommend, fuzz, campaign, replay, export",
                       "export", add_rec_export_command)

}  // namespace assay::cli
