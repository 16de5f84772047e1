#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <set>
#include <unordered_set>

#include "core/error.h"
#include "core/utf8.h"
#include "fairness/coreference.h"
#include "fairness/group_words.h"
#include "fairness/person_context.h"
#include "fairness/perturbation_builder.h"
#include "fairness/perturbator_internal.h"
#include "text/sentence_splitter.h"
#include "text/text_edit.h"
#include "text/unicode_props.h"
#include "vectors/similarity_search.h"

namespace assay::fairness {

using namespace perturbator_detail;

std::string_view to_string(MutationKind kind) {
  switch (kind) {
    case MutationKind::kAnalogy:
      return "analogy";
    case MutationKind::kActive:
      return "active";
    case MutationKind::kName:
      return "name";
    case MutationKind::kGroup:
      return "group";
  }
  return "analogy";
}

std::size_t PerturbationSet::count(MutationKind kind) const {
  return static_cast<std::size_t>(std::count_if(perturbations.begin(), perturbations.end(),
                                                [&](const auto& p) { return p.kind == kind; }));
}

std::string_view to_string(CounterpartChoice c) {
  switch (c) {
    case CounterpartChoice::kRank:
      return "rank";
    case CounterpartChoice::kFrequency:
      return "frequency";
    case CounterpartChoice::kMutual:
      return "mutual";
    case CounterpartChoice::kContext:
      return "context";
  }
  return "rank";
}

CounterpartChoice parse_counterpart_choice(std::string_view name) {
  if (name == "rank") return CounterpartChoice::kRank;
  if (name == "frequency") return CounterpartChoice::kFrequency;
  if (name == "mutual") return CounterpartChoice::kMutual;
  if (name == "context") return CounterpartChoice::kContext;
  throw core::UsageError(
      "the counterpart choice must be rank, frequency, mutual or context; got '" +
      std::string(name) + "'");
}

Perturbator::Perturbator(const PerturbatorResources& resources, SensitiveAttribute attribute,
                         PerturbatorOptions options)
    : r_(resources),
      attribute_(std::move(attribute)),
      options_(options),
      fluency_(*resources.lm),
      impl_(std::make_unique<Impl>()) {
  if (attribute_.groups.size() < 2)
    throw core::UsageError("attribute '" + attribute_.name + "' needs at least two groups");
  if (attribute_.uses_gender_finder && !r_.finder)
    throw core::UsageError("the gender attribute needs the knowledge graph's gender finder");
  const auto& tables = r_.tagger->tables();
  impl_->nn = tables.find_tag("nn").value_or(0);
  impl_->nns = tables.find_tag("nns").value_or(0);
  impl_->nnp = tables.find_tag("nnp").value_or(0);
  impl_->nnps = tables.find_tag("nnps").value_or(0);
  impl_->blocks_active.assign(tables.n_tags(), false);
  for (std::size_t t = 0; t < tables.n_tags(); ++t) {
    const auto name = tables.tag_name(static_cast<text::TagId>(t));
    // (and a participle that modifies the noun: "a british boxing promoter" gets no "boxing
    // male promoter")
    impl_->blocks_active[t] = name.rfind("jj", 0) == 0 || name.rfind("nn", 0) == 0 || name == "vbg";
  }
  impl_->nominal.assign(tables.n_tags(), false);
  impl_->adjective_like.assign(tables.n_tags(), false);
  for (std::size_t t = 0; t < tables.n_tags(); ++t) {
    const auto name = tables.tag_name(static_cast<text::TagId>(t));
    impl_->adjective_like[t] = name.rfind("jj", 0) == 0 || name == "cd";
    impl_->nominal[t] = impl_->adjective_like[t] || name.rfind("nn", 0) == 0;
  }
  if (r_.vectors) {
    for (const auto& g : attribute_.groups) {
      std::optional<std::size_t> row;
      for (const auto& a : g.anchors) {
        if ((row = r_.vectors->find(a))) break;
      }
      impl_->anchor_rows.push_back(row);
    }
  }
  if (attribute_.uses_gender_finder) {
    // An animal: the most frequent sense reaches WordNet's animal (ConceptNet's "animal").
    auto o = knowledge::default_person_options(*r_.graph);
    const bool conceptnet = r_.graph->backend_name() == "conceptnet";
    o.indicators = {conceptnet ? "animal" : "animal.n.01"};
    o.non_human.clear();
    o.sense_choice = knowledge::SenseChoice::kFirst;
    o.top_n = 1;
    impl_->animals = std::make_unique<knowledge::PersonClassifier>(*r_.graph, std::move(o));
  }
  if (!attribute_.uses_gender_finder) {
    impl_->group_words = std::make_unique<GroupWords>(attribute_, *r_.inflector, tables);
    for (std::size_t row = 0; row < attribute_.associated.size(); ++row) {
      for (const auto& w : attribute_.associated[row]) {
        if (w.empty()) continue;
        impl_->associated_forms.try_emplace(w, row, false);
        impl_->associated_forms.try_emplace(r_.inflector->pluralize(w), row, true);
      }
    }
    const auto& graph = *r_.graph;
    for (std::size_t g = 0; g < attribute_.targets; ++g) {
      std::vector<std::string> words = {attribute_.groups[g].name,
                                        text::to_lower(attribute_.groups[g].active)};
      for (const auto& row : attribute_.members) words.push_back(row[g]);
      for (const auto& w : words) {
        if (w.empty()) continue;
        for (const auto n : graph.noun_senses(w)) impl_->group_nodes.insert(n);
      }
    }
  }
}

Perturbator::~Perturbator() = default;

PerturbationSet Perturbator::perturb(std::string_view text) const {
  return perturb(text, std::numeric_limits<std::size_t>::max());
}

// The steps of perturbation_builder.h, in order: read the text, find its people, move its
// group words (file attributes) or its persons (gender: with co-reference), keep the best.
PerturbationSet Perturbator::perturb(std::string_view text, std::size_t max_perturbations) const {
  PerturbationBuilder b(*this, text, max_perturbations);
  if (!b.find_people()) return b.finish();
  b.perturb_groups();
  b.perturb_group_names();
  if (b.coreference()) {
    b.perturb_persons();
  } else {
    b.perturb_nouns();
  }
  return b.finish();
}

}  // namespace assay::fairness
