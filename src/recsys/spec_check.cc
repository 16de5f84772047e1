#include "recsys/spec_check.h"

#include "recsys/command_recommender.h"
#include "recsys/external_recommender.h"
#include "recsys/recommender.h"

namespace assay::recsys {

void check_recommender_spec(const std::string& spec) {
  if (is_hosted_spec(spec)) (void)external_identity(spec);
  if (is_command_spec(spec)) {
    CommandRecommender adapter(spec, command_recommender_options());
  } else if (!is_external_spec(spec)) {
    (void)make_recommender(spec);
  }
}

}  // namespace assay::recsys
