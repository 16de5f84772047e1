#include "rec_options.h"

#include "option_checks.h"
#include "recsys/command_recommender.h"
#include "recsys/external_recommender.h"

namespace assay::cli {

const char* const kRecDataHelp =
    "Ratings: movielens-100k:DIR, movielens-1m:DIR, movielens-latest:DIR, "
    "csv:FILE[,user=COL,item=COL,rating=COL,low=L,high=H,step=S], "
    "synthetic[:users=N,items=M,ratings=R,seed=S,top_only=K] (K obscure items rated only the top "
    "value)";

const char* const kRecAlgorithmHelp =
    "user-user, item-item, funk-svd, funk-svd-lenskit or hybrid, with :key=value parameters "
    "(docs/recsys.md; item-item keeps a dense n_items^2 similarity matrix up to 16384 items "
    "and each item's 1000 most similar items above, item-item:keep=K|all|auto; user-user keeps "
    "a dense n_users^2 matrix up to 16384 users and computes each user's similarities when "
    "scoring above); or your own program: cmd:PROGRAM [ARGS...] (run once per training with "
    "TRAIN_TSV USERS_FILE K SEED OUTPUT appended) or cmd+persistent:PROGRAM [ARGS...] (one JSON "
    "line per training on its stdin); see docs/stability.md";

void add_rec_program_options(CLI::App* cmd, RecProgramOptions& options) {
  add_finite(cmd, "--timeout", options.timeout_seconds,
             "Seconds one training of a cmd: program may take; past it the program is killed and "
             "the run recorded as failed",
             {.min = 0, .max = 1e9, .min_exclusive = true})
      ->capture_default_str();
}

void apply_rec_program_options(const RecProgramOptions& options) {
  auto o = recsys::command_recommender_options();
  o.timeout_seconds = options.timeout_seconds;
  recsys::set_command_recommender_options(o);
}

void check_rec_program(const std::string& spec) {
  // python:NAME: an object of the Python module, which the command line has none of.
  if (recsys::is_hosted_spec(spec)) (void)recsys::external_identity(spec);
  if (!recsys::is_command_spec(spec)) return;
  // Constructing the adapter resolves the program (no file is written, nothing runs).
  recsys::CommandRecommender adapter(spec, recsys::command_recommender_options());
}

}  // namespace assay::cli
