#include "stability/algorithm_baseline.h"

#include "recsys/external_recommender.h"

namespace assay::stability {

recsys::TopKLists train_and_recommend(const recsys::Ratings& data, const std::string& algorithm,
                                      std::uint64_t model_seed, std::size_t k,
                                      std::size_t n_threads) {
  if (recsys::is_external_spec(algorithm)) {
    return recsys::external_recommend_all(algorithm, data, k, model_seed);
  }
  auto model = recsys::make_recommender(algorithm);
  recsys::FitOptions fit;
  fit.seed = model_seed;
  fit.n_threads = n_threads;
  model->fit(data, fit);
  return recsys::recommend_all(*model, data, k, n_threads);
}

AlgorithmBaseline train_baseline(const recsys::Ratings& data, const std::string& algorithm,
                                 std::uint64_t model_seed, std::size_t k, std::size_t n_threads) {
  AlgorithmBaseline b;
  b.algorithm = algorithm;
  b.model_seed = model_seed;
  b.k = k;
  b.top = train_and_recommend(data, algorithm, model_seed, k, n_threads);
  b.influence = compute_influence(data, b.top);
  return b;
}

}  // namespace assay::stability
