// A small synthetic dataset and campaign configuration shared by the campaign tests (sized to
// run in a few seconds under ASan).
#pragma once

#include "recsys/synthetic_ratings.h"
#include "stability/campaign.h"

namespace assay::stability::testing {

inline recsys::Ratings small_synthetic() {
  recsys::SyntheticOptions o;
  o.n_users = 60;
  o.n_items = 80;
  o.n_ratings = 1200;
  o.seed = 5;
  return recsys::generate_synthetic_ratings(o);
}

inline CampaignConfig small_config() {
  CampaignConfig c;
  c.algorithms = {"user-user", "item-item"};
  c.heuristics = {Heuristic::kAmu, Heuristic::kArand, Heuristic::kCmu, Heuristic::kCrand,
                  Heuristic::kAportfolio};
  c.sizes = {1, 8};
  c.trials = 2;
  c.seed = 11;
  c.noise_trials = 1;
  c.data_description = "synthetic:users=60,items=80,ratings=1200,seed=5";
  c.progress.quiet = true;
  return c;
}

}  // namespace assay::stability::testing
