#include "perturbation_kwargs.h"

#include <pybind11/stl.h>

#include <cmath>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace assay::python {
namespace py = pybind11;

const char* const kPerturbationKeywords =
    "kg='wordnet', vectors='', vectors_format='word2vec', vectors_limit=0, vectors_restrict=0, "
    "min_cosine=0.7, strict=True, choice='mutual', ngram_model='cmu', fluency_ratio=0.0, "
    "max_per_input=0, max_perturbations=256, all_occurrences=False, broad_persons=False, "
    "skip_checks=[], "
    "noun_modifiers=False, "
    "analogy=True, active=True, coreference=True, gender_lexicon=<shipped>, "
    "first_names=<shipped>, name_groups='race', seed=0, wordnet_dir=<Debian's>, "
    "tagger_dir=<Debian's>";

namespace {

double finite(const py::handle v, std::string_view name, double min, double max) {
  const double x = v.cast<double>();
  if (!std::isfinite(x) || x < min || x > max)
    throw core::UsageError(std::string(name) + ": expected a number in [" + std::to_string(min) +
                           ", " + std::to_string(max) + "], got " + std::string(py::str(v)));
  return x;
}

std::size_t count(const py::handle v, std::string_view name) {
  const auto x = v.cast<long long>();
  if (x < 0) throw core::UsageError(std::string(name) + ": expected a count >= 0");
  return static_cast<std::size_t>(x);
}

}  // namespace

fairness::PerturbatorConfig perturbator_config(const std::string& attribute,
                                               const py::kwargs& kwargs) {
  fairness::PerturbatorConfig c;
  c.attribute = attribute;
  bool vector_setting = false;
  for (const auto& [key, value] : kwargs) {
    const std::string k = py::str(key);
    try {
      auto& r = c.resources;
      if (k == "kg")
        r.kg = value.cast<std::string>();
      else if (k == "vectors")
        r.vectors = value.cast<std::string>();
      else if (k == "vectors_format")
        r.vectors_format = value.cast<std::string>(), vector_setting = true;
      else if (k == "vectors_limit")
        r.vectors_limit = count(value, k), vector_setting = true;
      else if (k == "vectors_restrict")
        c.vectors_restrict = count(value, k), vector_setting = true;
      else if (k == "min_cosine")
        c.min_cosine = finite(value, k, -1, 1), vector_setting = true;
      else if (k == "strict")
        c.no_strict = !value.cast<bool>(), vector_setting = true;
      else if (k == "choice")
        c.choice = value.cast<std::string>();
      else if (k == "ngram_model")
        r.ngram_model = value.cast<std::string>();
      else if (k == "fluency_ratio")
        c.fluency_ratio = finite(value, k, 0, HUGE_VAL);
      else if (k == "max_per_input")
        c.max_per_input = count(value, k);
      else if (k == "max_perturbations")
        c.max_perturbations = count(value, k);
      else if (k == "all_occurrences")
        c.all_occurrences = value.cast<bool>();
      else if (k == "broad_persons")
        c.broad_persons = value.cast<bool>();
      else if (k == "skip_checks")
        c.skip_checks = value.cast<std::vector<std::string>>();
      else if (k == "noun_modifiers")
        c.noun_modifiers = value.cast<bool>();
      else if (k == "analogy")
        c.no_analogy = !value.cast<bool>();
      else if (k == "active")
        c.no_active = !value.cast<bool>();
      else if (k == "coreference")
        c.no_coreference = !value.cast<bool>();
      else if (k == "gender_lexicon")
        r.gender_lexicon = value.is_none() ? "none" : value.cast<std::string>();
      else if (k == "first_names")
        r.first_names = value.is_none() ? "none" : value.cast<std::string>();
      else if (k == "name_groups")
        r.name_groups = value.is_none() ? "none" : value.cast<std::string>();
      else if (k == "seed")
        c.seed = value.cast<std::uint64_t>();
      else if (k == "wordnet_dir")
        r.wordnet_dir = value.cast<std::string>();
      else if (k == "tagger_dir")
        r.tagger_dir = value.cast<std::string>();
      else
        throw py::type_error("unexpected keyword argument '" + k + "' (the perturbator's are " +
                             kPerturbationKeywords + ")");
    } catch (const py::cast_error&) {
      throw py::type_error(k + ": expected a value of another type, got " +
                           std::string(py::str(py::type::of(value).attr("__name__"))));
    }
  }
  if (vector_setting && c.resources.vectors.empty())
    throw core::UsageError(
        "vectors_format, vectors_limit, vectors_restrict, min_cosine and strict need vectors=FILE");
  if (c.no_analogy && c.no_active)
    throw core::UsageError("analogy=False and active=False leave nothing to perturb");
  return c;
}

}  // namespace assay::python
