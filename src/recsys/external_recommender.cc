#include "recsys/external_recommender.h"

#include <map>
#include <mutex>

#include "core/error.h"

namespace assay::recsys {
namespace {

constexpr std::string_view kHosted = "python:";

std::mutex hosted_mutex;
std::map<std::string, std::shared_ptr<HostedRecommender>>& hosted() {
  static std::map<std::string, std::shared_ptr<HostedRecommender>> registered;
  return registered;
}

std::shared_ptr<HostedRecommender> find_hosted(const std::string& spec) {
  std::lock_guard lock(hosted_mutex);
  const auto it = hosted().find(spec);
  if (it == hosted().end()) {
    throw core::UsageError("algorithm " + spec +
                           ": no such recommender object; python:NAME names an object given to "
                           "the Python module (docs/python.md), the command line runs built-in "
                           "algorithms and cmd:PROGRAM");
  }
  return it->second;
}

}  // namespace

bool is_hosted_spec(std::string_view spec) {
  return spec.starts_with(kHosted);
}

bool is_external_spec(std::string_view spec) {
  return is_command_spec(spec) || is_hosted_spec(spec);
}

HostedRegistration::HostedRegistration(std::string spec,
                                       std::shared_ptr<HostedRecommender> recommender)
    : spec_(std::move(spec)) {
  const std::string_view name =
      std::string_view(spec_).substr(is_hosted_spec(spec_) ? kHosted.size() : 0);
  bool ok = is_hosted_spec(spec_) && !name.empty();
  for (const char c : name) ok = ok && static_cast<unsigned char>(c) > ' ' && c != '\x7f';
  if (!ok) {
    throw core::UsageError("'" + spec_ + "' is not python:NAME (a name without blanks)");
  }
  std::lock_guard lock(hosted_mutex);
  if (!hosted().emplace(spec_, std::move(recommender)).second) {
    throw core::UsageError("algorithm " + std::string(kHosted) + std::string(name) +
                           " is in use by another call (give each object its own name)");
  }
}

HostedRegistration::~HostedRegistration() {
  if (spec_.empty()) return;
  std::lock_guard lock(hosted_mutex);
  hosted().erase(spec_);
}

TopKLists external_recommend_all(const std::string& spec, const Ratings& train, std::size_t k,
                                 std::uint64_t seed) {
  if (is_hosted_spec(spec)) return find_hosted(spec)->recommend_all(train, k, seed);
  return command_recommender(spec).recommend_all(train, k, seed);
}

std::string external_identity(const std::string& spec) {
  if (is_hosted_spec(spec)) {
    (void)find_hosted(spec);
    return spec;
  }
  return command_recommender(spec).identity();
}

}  // namespace assay::recsys
