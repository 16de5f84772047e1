#include "fairness/fairness_run.h"

#include <cstdio>
#include <filesystem>
#include <utility>

#include "core/unit_store.h"
#include "fairness/sensitive_attribute.h"

namespace assay::fairness {
namespace {

// "PATH (SIZE bytes, modified T)" for a file, "PATH" for anything else (a name).
std::string file_stamp(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (path.empty() || !fs::is_regular_file(path, ec)) return path;
  const auto size = fs::file_size(path, ec);
  const auto modified = fs::last_write_time(path, ec).time_since_epoch().count();
  return path + " (" + std::to_string(size) + " bytes, modified " + std::to_string(modified) + ")";
}

}  // namespace

LoadedPerturbator load_perturbator(PerturbatorSettings settings) {
  LoadedPerturbator out;
  out.resources =
      std::make_unique<PerturbatorResources>(PerturbatorResources::load(settings.resources));
  out.perturbator = std::make_unique<Perturbator>(*out.resources, std::move(settings.attribute),
                                                  settings.perturbator);
  return out;
}

std::string fair_run_key(std::string_view program, const PerturbatorConfig& config,
                         const Perturbator& perturbator, const std::string& filter_settings) {
  const auto& attribute = perturbator.attribute();
  const auto& po = perturbator.options();
  namespace fs = std::filesystem;
  std::error_code ec;
  const bool attribute_file = fs::is_regular_file(attribute.source, ec);
  const auto& r = config.resources;
  const std::string kg =
      r.kg.rfind("conceptnet:", 0) == 0 ? "conceptnet:" + file_stamp(r.kg.substr(11)) : r.kg;
  const auto real = [](double x) {
    char s[64];
    std::snprintf(s, sizeof s, "%.17g", x);
    return std::string(s);
  };
  const auto yes_no = [](bool b) { return std::string(b ? "yes" : "no"); };
  std::string s(program);
  s += "\nattribute " + attribute.name + " " +
       (attribute_file ? core::file_content_hash(attribute.source) : attribute.source);
  s += "\ntagger " + r.tagger_dir + "\nwordnet " + r.wordnet_dir + "\nkg " + kg;
  s += "\nngram " + r.ngram_model;
  s += "\nvectors " + file_stamp(r.vectors) + " " + r.vectors_format + " " +
       std::to_string(r.vectors_limit);
  s += "\nchoice " + std::string(to_string(po.choice));
  s += "\nfluency-ratio " + real(po.fluency_ratio);
  s += "\nmax-per-input " + std::to_string(po.max_per_input);
  s += "\nmax-perturbations " + std::to_string(po.max_perturbations);
  s += "\nall-occurrences " + yes_no(po.all_occurrences);
  s += "\nmin-cosine " + real(po.min_cosine);
  s += "\nvectors-restrict " + std::to_string(po.vectors_restrict);
  s += "\nstrict " + yes_no(po.strict);
  s += "\nnarrow-persons " + yes_no(po.narrow_persons);
  s += "\nnoun-modifiers " + yes_no(po.active_noun_modifiers);
  s += "\nanalogy " + yes_no(po.analogy) + "\nactive " + yes_no(po.active);
  const auto content = [](const std::string& path) {
    return path.empty() || path == "none" ? std::string("none") : core::file_content_hash(path);
  };
  s += "\ngender-lexicon " + content(r.gender_lexicon);
  s += "\nfirst-names " + content(r.first_names);
  s += "\nname-groups " + content(r.name_groups);
  s += "\ncoreference " + yes_no(po.coreference);
  s += "\nseed " + std::to_string(po.seed);
  if (!po.disabled_checks.empty()) {  // (left out when none, so earlier keys still match)
    s += "\nskip-checks";
    for (const auto& check : po.disabled_checks) s += " " + check;
  }
  if (!filter_settings.empty()) s += "\n" + filter_settings;
  return s;
}

}  // namespace assay::fairness
