// `assay kg query`: inspect the knowledge graph for one word — IsA links, hyponyms, antonyms,
// derivation / form-of links, glosses, is_person (with the IsA path) and gendered counterparts
// — as JSON lines on stdout, one line per (relation, sense). The sense relations are the
// graph's noun senses; antonyms and forms answer for the part of speech --pos names.
#include <algorithm>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "command.h"
#include "core/error.h"
#include "core/jsonl.h"
#include "knowledge/gender_counterpart_finder.h"
#include "knowledge/open_graph.h"
#include "knowledge/person_classifier.h"
#include "knowledge/wordnet_graph.h"
#include "option_checks.h"
#include "wordnet/part_of_speech.h"

namespace assay::cli {
namespace {

struct KgQueryOptions {
  std::vector<std::string> words;
  std::string kg = "wordnet";
  knowledge::GraphOptions graph;
  std::vector<std::string> relations;
  std::string pos = "noun";
};

const std::vector<std::string> kRelations = {"isa",   "hyponyms", "antonyms",   "forms",
                                             "gloss", "person",   "counterpart"};

// The relations that take --pos; the others are relations of noun senses.
bool takes_pos(const std::string& relation) {
  return relation == "antonyms" || relation == "forms";
}

knowledge::PartOfSpeech parse_pos(const std::string& s) {
  for (const auto pos : wordnet::kAllPartsOfSpeech) {
    if (s == wordnet::file_suffix(pos)) return pos;
  }
  throw core::UsageError("--pos must be noun, verb, adj or adv; got '" + s + "'");
}

nlohmann::ordered_json links(const knowledge::KnowledgeGraph& g,
                             const std::vector<knowledge::WeightedNode>& nodes) {
  auto out = nlohmann::ordered_json::array();
  for (const auto& n : nodes) out.push_back({{"node", g.node_name(n.node)}, {"weight", n.weight}});
  return out;
}

void query(const knowledge::KnowledgeGraph& g, const knowledge::PersonClassifier& persons,
           const knowledge::GenderCounterpartFinder& finder, const std::string& word,
           const std::string& relation, knowledge::PartOfSpeech pos, std::ostream& out) {
  auto line = [&] {
    nlohmann::ordered_json j;
    j["word"] = word;
    j["relation"] = relation;
    j["backend"] = std::string(g.backend_name());
    return j;
  };
  const auto senses = g.noun_senses(word);
  if (relation == "isa" || relation == "hyponyms" || relation == "gloss") {
    for (const auto s : senses) {
      auto j = line();
      j["sense"] = g.node_name(s);
      if (relation == "gloss") {
        j["words"] = g.node_words(s);
        j["gloss"] = g.gloss(s);
      } else {
        j["targets"] = links(g, relation == "isa" ? g.hypernyms(s) : g.hyponyms(s));
      }
      core::write_jsonl(out, j);
    }
    if (senses.empty()) {
      auto j = line();
      j["sense"] = nullptr;
      core::write_jsonl(out, j);
    }
  } else if (relation == "antonyms" || relation == "forms") {
    auto j = line();
    j["words"] = relation == "antonyms" ? g.antonyms(word, pos) : g.related_forms(word, pos);
    core::write_jsonl(out, j);
  } else if (relation == "person") {
    auto j = line();
    j["is_person"] = persons.is_person(word);
    auto path = nlohmann::ordered_json::array();
    for (const auto s : persons.considered_senses(word)) {
      std::vector<knowledge::NodeId> p;
      if (persons.sense_is_person(s, &p)) {
        for (const auto n : p) path.push_back(g.node_name(n));
        break;
      }
    }
    j["path"] = path;
    j["senses_considered"] = persons.considered_senses(word).size();
    core::write_jsonl(out, j);
  } else {
    auto j = line();
    j["gender"] = std::string(knowledge::to_string(finder.gender_of(word)));
    auto list = nlohmann::ordered_json::array();
    for (const auto& c : finder.counterparts(word)) {
      list.push_back({{"word", c.word},
                      {"gender", std::string(knowledge::to_string(c.gender))},
                      {"evidence", std::string(knowledge::to_string(c.evidence))},
                      {"score", c.score}});
    }
    j["counterparts"] = list;
    core::write_jsonl(out, j);
  }
}

int run(const KgQueryOptions& o) {
  const knowledge::PartOfSpeech pos = parse_pos(o.pos);
  const bool noun = pos == knowledge::PartOfSpeech::kNoun;
  std::vector<std::string> relations = o.relations;
  if (relations.empty()) {  // every relation; for another part of speech, those that take it
    for (const auto& r : kRelations) {
      if (noun || takes_pos(r)) relations.push_back(r);
    }
  }
  for (const auto& r : relations) {
    if (std::find(kRelations.begin(), kRelations.end(), r) == kRelations.end()) {
      throw core::UsageError(
          "--relation must be one of isa, hyponyms, antonyms, forms, gloss, person, "
          "counterpart; got '" +
          r + "'");
    }
    if (!noun && !takes_pos(r)) {
      throw core::UsageError("--relation " + r + " is a relation of noun senses; --pos " + o.pos +
                             " applies to antonyms and forms only");
    }
  }
  const auto graph = knowledge::open_graph(o.kg, o.graph);
  const knowledge::PersonClassifier persons(*graph, knowledge::default_person_options(*graph));
  const knowledge::GenderCounterpartFinder finder(*graph, persons);
  for (const auto& w : o.words) {
    for (const auto& r : relations) query(*graph, persons, finder, w, r, pos, std::cout);
  }
  return kOk;
}

void add_kg_query_command(CLI::App& kg, CommandResult& result) {
  auto opts = std::make_shared<KgQueryOptions>();
  auto* cmd = kg.add_subcommand("query", "Look a word up in the knowledge graph (JSON lines)");
  cmd->add_option("--word", opts->words, "Word (lemma) to look up; repeatable")->required();
  cmd->add_option("--kg", opts->kg, "wordnet, or conceptnet:FILE (assertions .csv / .csv.gz)")
      ->capture_default_str();
  cmd->add_option("--wordnet-dir", opts->graph.wordnet_dir,
                  "WordNet database directory (package wordnet-base)")
      ->capture_default_str();
  add_cache_file(cmd, "--kg-cache", opts->graph.conceptnet_cache,
                 "ConceptNet cache file (default FILE.assay-cache)");
  cmd->add_option(
      "--relation", opts->relations,
      "isa, hyponyms, antonyms, forms, gloss, person or counterpart; repeatable (default all "
      "that --pos allows)");
  cmd->add_option("--pos", opts->pos,
                  "Part of speech of the word for antonyms and forms: noun, verb, adj or adv "
                  "(the other relations are of noun senses)")
      ->capture_default_str();
  cmd->callback([opts, &result] { result.exit_code = run(*opts); });
}

}  // namespace

ASSAY_REGISTER_COMMAND("kg", "Knowledge graphs (WordNet, ConceptNet): inspect words", "query",
                       add_kg_query_command)

}  // namespace assay::cli
