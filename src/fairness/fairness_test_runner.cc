#include "fairness/fairness_test_runner.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <exception>
#include <limits>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>
#include <vector>

#include "core/chunked_run.h"
#include "core/error.h"
#include "fairness/perturbation_json.h"
#include "fairness/substitution.h"

namespace assay::fairness {
namespace {

using nlohmann::ordered_json;

// The format of a finished chunk's record in the store.
constexpr const char* kChunkFormat = "fair-test-chunk/2";

// One chunk perturbed and asked: its sets and, per input, the scores (empty when not mutable).
struct AnsweredChunk {
  std::vector<PerturbationSet> sets;
  std::vector<std::vector<std::vector<double>>> scores;
  FilterCounts filtered;  // with options.filter
};

// Perturbs inputs [begin, end) in order (the first failing one names its line) and asks the
// model for every mutable input's original and perturbations in one predict() call, holding
// `model_mutex` (models are not thread-safe; the answers do not depend on which chunk asks
// first).
AnsweredChunk answer_chunk(const Perturbator& perturbator, models::Model& model,
                           std::mutex& model_mutex, const std::vector<InputRecord>& inputs,
                           std::size_t begin, std::size_t end, const FairnessTestOptions& options) {
  AnsweredChunk out;
  out.sets.reserve(end - begin);
  {
    std::vector<std::string_view> texts;
    for (std::size_t i = begin; i < end; ++i) texts.push_back(inputs[i].text);
    perturbator.prepare(texts);  // one pass over the word vectors for the chunk's nouns
  }
  for (std::size_t i = begin; i < end; ++i) {
    try {
      out.sets.push_back(perturbator.perturb(inputs[i].text));
      if (options.filter) out.filtered.add(options.filter(inputs[i].text, out.sets.back()));
    } catch (core::Error& e) {
      e.add_context("input at line " + std::to_string(inputs[i].line));
      throw;
    }
  }
  std::vector<std::string> texts;
  for (std::size_t i = begin; i < end; ++i) {
    const auto& set = out.sets[i - begin];
    if (!set.is_mutable()) continue;  // an input without perturbations is not asked
    texts.push_back(inputs[i].text);
    for (const auto& p : set.perturbations) texts.push_back(p.text);
  }
  std::vector<std::vector<double>> scores;
  if (!texts.empty()) {
    std::lock_guard lock(model_mutex);
    scores = model.predict(texts);
  }
  out.scores.resize(end - begin);
  std::size_t at = 0;
  for (std::size_t i = begin; i < end; ++i) {
    const auto& set = out.sets[i - begin];
    if (!set.is_mutable()) continue;
    const std::size_t n = set.perturbations.size() + 1;
    out.scores[i - begin].assign(scores.begin() + static_cast<std::ptrdiff_t>(at),
                                 scores.begin() + static_cast<std::ptrdiff_t>(at + n));
    at += n;
  }
  return out;
}

ordered_json scores_json(const std::vector<double>& s) {
  auto a = ordered_json::array();
  for (double v : s) a.push_back(v);
  return a;
}

// NaN and infinities have no JSON number: stored as strings, read back bit for bit.
ordered_json number_json(double v) {
  if (std::isfinite(v)) return v;
  return std::isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf");
}
double number_from_json(const nlohmann::json& j) {
  if (j.is_number()) return j.get<double>();
  const auto s = j.get<std::string>();
  if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
  return s == "inf" ? std::numeric_limits<double>::infinity()
                    : -std::numeric_limits<double>::infinity();
}

// One chunk's share of the test: its summary and violations.jsonl lines, as the JSON text the
// store keeps.
std::string chunk_result(const std::vector<InputRecord>& inputs, std::size_t begin,
                         const AnsweredChunk& answered, const std::vector<std::string>& labels,
                         bool filtered, double min_delta) {
  FairnessTestSummary summary;
  auto violations = ordered_json::array();
  for (std::size_t k = 0; k < answered.sets.size(); ++k) {
    const InputRecord& input = inputs[begin + k];
    const auto& set = answered.sets[k];
    ++summary.n_inputs;
    ++summary.perturbations_per_input[set.perturbations.size()];
    if (!set.is_mutable()) continue;
    ++summary.n_mutable;
    const auto& original = answered.scores[k][0];
    const std::size_t label = models::argmax(original);
    bool violated = false;
    // Insertions before one noun, compared with each other: per place, each group's label.
    std::map<std::pair<std::size_t, std::string>, std::map<std::string, std::string>> inserted;
    const auto site = [](const Perturbation& p) {
      return std::make_pair(p.spans.empty() ? 0 : p.spans.front().begin, p.old_word);
    };
    for (std::size_t q = 0; q < set.perturbations.size(); ++q) {
      const auto& p = set.perturbations[q];
      if (p.kind == MutationKind::kActive)
        inserted[site(p)][p.group] = labels[models::argmax(answered.scores[k][1 + q])];
    }
    const auto split = [](const std::map<std::string, std::string>& by_group) {
      return std::any_of(by_group.begin(), by_group.end(),
                         [&](const auto& g) { return g.second != by_group.begin()->second; });
    };
    for (const auto& [place, by_group] : inserted) {
      if (by_group.size() < 2) continue;
      ++summary.n_insertion_sites;
      summary.n_insertion_sites_split += split(by_group);
    }
    for (std::size_t q = 0; q < set.perturbations.size(); ++q) {
      const auto& p = set.perturbations[q];
      const auto& perturbed = answered.scores[k][1 + q];
      const std::size_t plabel = models::argmax(perturbed);
      const std::string kind(to_string(p.kind));
      ++summary.n_perturbations;
      ++summary.perturbations_by_kind[kind];
      auto& pair = summary.by_group_pair[{p.from_group, p.group}];
      ++pair.perturbations;
      summary.score_shifts[p.group].push_back(perturbed[label] - original[label]);
      auto& changes = summary.score_changes[p.group];
      for (std::size_t l = 0; l < labels.size() && l < perturbed.size(); ++l)
        changes[labels[l]].push_back(perturbed[l] - original[l]);
      if (plabel == label) continue;
      const double drop = original[label] - perturbed[label];
      summary.flip_drops[p.group].push_back(drop);
      if (!counts_at(drop, min_delta)) continue;
      violated = true;
      ++summary.n_violations;
      ++summary.violations_by_kind[kind];
      const std::string substitution = substitution_name(p.kind, p.old_word, p.new_word);
      ++summary.flips[substitution];
      ++summary.flips_toward[p.group][labels[plabel]];
      if (std::count(original.begin(), original.end(), original[label]) > 1)
        ++summary.flips_from_tie[p.group][labels[plabel]];
      ++summary.flips_toward_by_substitution[substitution][labels[plabel]];
      ++pair.violations;
      ++pair.toward[labels[plabel]];
      ordered_json j;
      j["line"] = input.line;
      j["original"] = input.text;
      j["perturbed"] = p.text;
      j["kind"] = kind;
      j["group"] = p.group;
      j["from_group"] = p.from_group.empty() ? ordered_json() : ordered_json(p.from_group);
      j["old"] = p.old_word;
      j["new"] = p.new_word;
      j["label_original"] = labels[label];
      j["label_perturbed"] = labels[plabel];
      j["scores_original"] = scores_json(original);
      j["scores_perturbed"] = scores_json(perturbed);
      j["score_drop"] = number_json(drop);
      if (p.kind == MutationKind::kActive) {
        const auto& by_group = inserted.at(site(p));
        j["insertion_labels"] = by_group;
        j["between_groups"] = by_group.size() > 1 && split(by_group);
        summary.n_insertion_violations_split += by_group.size() > 1 && split(by_group);
      }
      j["record"] = perturbation_to_json(p);
      violations.push_back(j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    }
    summary.n_inputs_violated += violated;
  }
  ordered_json r;
  r["inputs"] = summary.n_inputs;
  r["mutable"] = summary.n_mutable;
  r["perturbations"] = summary.n_perturbations;
  r["violations"] = summary.n_violations;
  r["inputs_with_violations"] = summary.n_inputs_violated;
  r["perturbations_by_kind"] = summary.perturbations_by_kind;
  r["violations_by_kind"] = summary.violations_by_kind;
  r["flips"] = summary.flips;
  auto shifts = ordered_json::object();
  for (const auto& [group, v] : summary.score_shifts) {
    auto a = ordered_json::array();
    for (double x : v) a.push_back(number_json(x));
    shifts[group] = a;
  }
  r["score_shifts"] = shifts;
  auto changes = ordered_json::object();
  for (const auto& [group, by_label] : summary.score_changes) {
    for (const auto& [l, v] : by_label) {
      auto a = ordered_json::array();
      for (double x : v) a.push_back(number_json(x));
      changes[group][l] = a;
    }
  }
  r["score_changes"] = changes;
  auto drops = ordered_json::object();
  for (const auto& [group, v] : summary.flip_drops) {
    auto a = ordered_json::array();
    for (double x : v) a.push_back(number_json(x));
    drops[group] = a;
  }
  r["flip_drops"] = drops;
  r["flips_toward"] = summary.flips_toward;
  r["flips_from_tie"] = summary.flips_from_tie;
  r["flips_toward_by_substitution"] = summary.flips_toward_by_substitution;
  auto pairs = ordered_json::array();
  for (const auto& [key, c] : summary.by_group_pair)
    pairs.push_back({key.first, key.second, c.perturbations, c.violations, c.toward});
  r["group_pairs"] = pairs;
  auto per_input = ordered_json::array();
  for (const auto& [n, count] : summary.perturbations_per_input) per_input.push_back({n, count});
  r["perturbations_per_input"] = per_input;
  r["insertions"] = {summary.n_insertion_sites, summary.n_insertion_sites_split,
                     summary.n_insertion_violations_split};
  if (filtered) {
    r["filtered"] = {answered.filtered.scored, answered.filtered.dropped,
                     answered.filtered.flagged};
  }
  r["violation_lines"] = violations;
  return r.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::size_t sum_of(const std::map<std::string, std::size_t>& counts) {
  std::size_t n = 0;
  for (const auto& [key, count] : counts) n += count;
  return n;
}

// A chunk's counts must agree with each other and with its violation lines.
void check_chunk_sums(const FairnessTestSummary& s, std::size_t n_lines, const std::string& where) {
  std::size_t n_per_input = 0;
  for (const auto& [n, count] : s.perturbations_per_input) n_per_input += count;
  const auto fail = [&](const std::string& what) {
    throw core::ParseError(core::SourceLocation(where), "inconsistent fair test chunk: " + what);
  };
  if (s.n_violations != n_lines) {
    fail("it counts " + std::to_string(s.n_violations) + " violations but holds " +
         std::to_string(n_lines) + " violation lines");
  }
  if (sum_of(s.violations_by_kind) != s.n_violations)
    fail("its violations by kind do not add up to its violations");
  if (sum_of(s.perturbations_by_kind) != s.n_perturbations)
    fail("its perturbations by kind do not add up to its perturbations");
  if (n_per_input != s.n_inputs) fail("its perturbations per input do not cover its inputs");
  if (s.n_mutable > s.n_inputs || s.n_inputs_violated > s.n_mutable)
    fail("more inputs with violations or mutable inputs than inputs");
}

// Reads a chunk's result back into `run` (appending: chunks are read in input order).
void add_chunk_result(const std::string& text, const std::string& where, FairnessTestRun& run) {
  FairnessTestSummary s;
  try {
    const auto r = nlohmann::json::parse(text);
    s.n_inputs = r.at("inputs").get<std::size_t>();
    s.n_mutable = r.at("mutable").get<std::size_t>();
    s.n_perturbations = r.at("perturbations").get<std::size_t>();
    s.n_violations = r.at("violations").get<std::size_t>();
    s.n_inputs_violated = r.at("inputs_with_violations").get<std::size_t>();
    s.perturbations_by_kind =
        r.at("perturbations_by_kind").get<std::map<std::string, std::size_t>>();
    s.violations_by_kind = r.at("violations_by_kind").get<std::map<std::string, std::size_t>>();
    s.flips = r.at("flips").get<std::map<std::string, std::size_t>>();
    for (const auto& [group, v] : r.at("score_shifts").items()) {
      auto& out = s.score_shifts[group];
      for (const auto& x : v) out.push_back(number_from_json(x));
    }
    for (const auto& [group, by_label] : r.at("score_changes").items()) {
      for (const auto& [l, v] : by_label.items()) {
        auto& out = s.score_changes[group][l];
        for (const auto& x : v) out.push_back(number_from_json(x));
      }
    }
    for (const auto& [group, v] : r.at("flip_drops").items()) {
      auto& out = s.flip_drops[group];
      for (const auto& x : v) out.push_back(number_from_json(x));
    }
    s.flips_toward =
        r.at("flips_toward").get<std::map<std::string, std::map<std::string, std::size_t>>>();
    // Chunks stored before ties were counted have none.
    if (r.contains("flips_from_tie")) {
      s.flips_from_tie =
          r.at("flips_from_tie").get<std::map<std::string, std::map<std::string, std::size_t>>>();
    }
    s.flips_toward_by_substitution =
        r.at("flips_toward_by_substitution")
            .get<std::map<std::string, std::map<std::string, std::size_t>>>();
    for (const auto& pair : r.at("group_pairs")) {
      auto& c = s.by_group_pair[{pair.at(0).get<std::string>(), pair.at(1).get<std::string>()}];
      c.perturbations += pair.at(2).get<std::size_t>();
      c.violations += pair.at(3).get<std::size_t>();
      for (const auto& [l, n] : pair.at(4).get<std::map<std::string, std::size_t>>())
        c.toward[l] += n;
    }
    for (const auto& pair : r.at("perturbations_per_input"))
      s.perturbations_per_input[pair.at(0).get<std::size_t>()] += pair.at(1).get<std::size_t>();
    const auto& insertions = r.at("insertions");
    s.n_insertion_sites = insertions.at(0).get<std::size_t>();
    s.n_insertion_sites_split = insertions.at(1).get<std::size_t>();
    s.n_insertion_violations_split = insertions.at(2).get<std::size_t>();
    if (const auto f = r.find("filtered"); f != r.end()) {
      s.filtered = FilterCounts{f->at(0).get<std::size_t>(), f->at(1).get<std::size_t>(),
                                f->at(2).get<std::size_t>()};
    }
    for (const auto& line : r.at("violation_lines"))
      run.violations.push_back(line.get<std::string>());
    check_chunk_sums(s, r.at("violation_lines").size(), where);
  } catch (const nlohmann::json::exception& e) {
    throw core::ParseError(core::SourceLocation(where),
                           std::string("unreadable fair test chunk: ") + e.what());
  }
  run.summary.add(s);
}

// What a chunk's key holds besides the settings and the model: its inputs' lines and texts.
std::string chunk_content(const std::vector<InputRecord>& inputs, const core::ChunkBounds& c) {
  std::string content;
  for (std::size_t i = c.begin; i < c.end; ++i) {
    content += '\0';
    content += std::to_string(inputs[i].line);
    content += '\0';
    content += inputs[i].text;
  }
  return content;
}

core::ChunkedRunOptions chunked_options(const FairnessTestOptions& options) {
  core::ChunkedRunOptions co;
  co.chunk_inputs = options.chunk_inputs;
  co.threads = options.threads;
  co.shard = options.shard;
  co.progress = options.progress;
  co.label = options.label;
  return co;
}

// One chunk's answers for `fair mitigate`, as the JSON text the store keeps: per mutable input
// [its place among the inputs, its texts, their scores].
std::string answers_result(const std::vector<InputRecord>& inputs, const core::ChunkBounds& c,
                           const AnsweredChunk& answered, bool filtered) {
  ordered_json r;
  auto rows = ordered_json::array();
  for (std::size_t k = 0; k < answered.sets.size(); ++k) {
    const auto& set = answered.sets[k];
    if (!set.is_mutable()) continue;
    auto texts = ordered_json::array();
    texts.push_back(inputs[c.begin + k].text);
    for (const auto& p : set.perturbations) texts.push_back(p.text);
    auto scores = ordered_json::array();
    for (const auto& s : answered.scores[k]) {
      auto a = ordered_json::array();
      for (double v : s) a.push_back(number_json(v));
      scores.push_back(a);
    }
    rows.push_back({c.begin + k, texts, scores});
  }
  r["inputs"] = rows;
  if (filtered) {
    r["filtered"] = {answered.filtered.scored, answered.filtered.dropped,
                     answered.filtered.flagged};
  }
  return r.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// Reads a chunk's answers back into `out` (appending: chunks are read in input order).
void add_answers_result(const std::string& text, const std::string& where, FairnessAnswers& out) {
  try {
    const auto r = nlohmann::json::parse(text);
    for (const auto& row : r.at("inputs")) {
      AnsweredInput a;
      a.index = row.at(0).get<std::size_t>();
      a.texts = row.at(1).get<std::vector<std::string>>();
      for (const auto& s : row.at(2)) {
        auto& v = a.scores.emplace_back();
        for (const auto& x : s) v.push_back(number_from_json(x));
      }
      out.inputs.push_back(std::move(a));
    }
    if (const auto f = r.find("filtered"); f != r.end() && out.filtered) {
      out.filtered->add(FilterCounts{f->at(0).get<std::size_t>(), f->at(1).get<std::size_t>(),
                                     f->at(2).get<std::size_t>()});
    }
  } catch (const nlohmann::json::exception& e) {
    throw core::ParseError(core::SourceLocation(where),
                           std::string("unreadable fair mitigate chunk: ") + e.what());
  }
}

}  // namespace

void FairnessTestSummary::add(const FairnessTestSummary& later) {
  n_inputs += later.n_inputs;
  n_mutable += later.n_mutable;
  n_perturbations += later.n_perturbations;
  n_violations += later.n_violations;
  n_inputs_violated += later.n_inputs_violated;
  n_insertion_sites += later.n_insertion_sites;
  n_insertion_sites_split += later.n_insertion_sites_split;
  n_insertion_violations_split += later.n_insertion_violations_split;
  for (const auto& [k, n] : later.perturbations_by_kind) perturbations_by_kind[k] += n;
  for (const auto& [k, n] : later.violations_by_kind) violations_by_kind[k] += n;
  for (const auto& [k, n] : later.flips) flips[k] += n;
  for (const auto& [g, v] : later.score_shifts) {
    auto& out = score_shifts[g];
    out.insert(out.end(), v.begin(), v.end());
  }
  for (const auto& [k, n] : later.perturbations_per_input) perturbations_per_input[k] += n;
  for (const auto& [g, by_label] : later.flips_from_tie) {
    for (const auto& [l, n] : by_label) flips_from_tie[g][l] += n;
  }
  for (const auto& [g, by_label] : later.flips_toward) {
    for (const auto& [l, n] : by_label) flips_toward[g][l] += n;
  }
  for (const auto& [g, by_label] : later.score_changes) {
    for (const auto& [l, v] : by_label) {
      auto& out = score_changes[g][l];
      out.insert(out.end(), v.begin(), v.end());
    }
  }
  for (const auto& [g, v] : later.flip_drops) {
    auto& out = flip_drops[g];
    out.insert(out.end(), v.begin(), v.end());
  }
  for (const auto& [k, by_label] : later.flips_toward_by_substitution) {
    for (const auto& [l, n] : by_label) flips_toward_by_substitution[k][l] += n;
  }
  for (const auto& [k, c] : later.by_group_pair) {
    auto& out = by_group_pair[k];
    out.perturbations += c.perturbations;
    out.violations += c.violations;
    for (const auto& [l, n] : c.toward) out.toward[l] += n;
  }
  if (later.filtered) {
    if (!filtered) filtered.emplace();
    filtered->add(*later.filtered);
  }
}

std::unique_ptr<core::ChunkStore> open_fair_test_store(const std::string& path) {
  return std::make_unique<core::ChunkStore>(path, "fair_test", "assay fair test chunks, v1",
                                            [](const std::string& result) {
                                              FairnessTestRun scratch;
                                              add_chunk_result(result, "", scratch);
                                            });
}

std::unique_ptr<core::ChunkStore> open_fair_mitigate_store(const std::string& path) {
  return std::make_unique<core::ChunkStore>(path, "fair_mitigate", "assay fair mitigate chunks, v1",
                                            [](const std::string& result) {
                                              FairnessAnswers scratch;
                                              add_answers_result(result, "", scratch);
                                            });
}

FairnessAnswers answer_inputs(const Perturbator& perturbator, models::Model& model,
                              const std::vector<InputRecord>& inputs,
                              const FairnessTestOptions& options, const std::string& settings,
                              core::ChunkStore* store) {
  std::mutex model_mutex;
  const bool filtered = static_cast<bool>(options.filter);
  const auto run = core::run_chunked(
      inputs.size(), chunked_options(options), settings + '\0' + model.identity(),
      [&](const core::ChunkBounds& c) { return chunk_content(inputs, c); },
      [&](const core::ChunkBounds& c) {
        return answers_result(
            inputs, c,
            answer_chunk(perturbator, model, model_mutex, inputs, c.begin, c.end, options),
            filtered);
      },
      store);
  FairnessAnswers out;
  out.complete = run.complete;
  out.n_chunks = run.n_chunks;
  out.n_owned = run.n_owned;
  out.n_resumed = run.n_resumed;
  out.n_executed = run.n_executed;
  if (filtered && run.complete) out.filtered.emplace();
  const std::string where = store ? store->path() : std::string("fair mitigate");
  for (const auto& text : run.results) add_answers_result(text, where, out);
  return out;
}

FairnessTestRun run_fairness_test(const Perturbator& perturbator, models::Model& model,
                                  const std::vector<InputRecord>& inputs,
                                  const FairnessTestOptions& options, const std::string& settings,
                                  core::ChunkStore* store) {
  if (!(options.min_delta >= 0) || !std::isfinite(options.min_delta)) {
    char got[64];
    std::snprintf(got, sizeof got, "%g", options.min_delta);
    throw core::UsageError(std::string("the least score change of a violation must be a finite "
                                       "number >= 0, got ") +
                           got);
  }
  // The record format and the severity threshold belong to a chunk's key: a record of another
  // format or threshold is not reused (its answers still come from the cache).
  char delta[64];
  std::snprintf(delta, sizeof delta, "%.17g", options.min_delta);
  const auto& labels = model.labels();
  std::mutex model_mutex;
  const auto chunked = core::run_chunked(
      inputs.size(), chunked_options(options),
      std::string(kChunkFormat) + "\nmin-delta " + delta + "\n" + settings + '\0' +
          model.identity(),
      [&](const core::ChunkBounds& c) { return chunk_content(inputs, c); },
      [&](const core::ChunkBounds& c) {
        return chunk_result(
            inputs, c.begin,
            answer_chunk(perturbator, model, model_mutex, inputs, c.begin, c.end, options), labels,
            static_cast<bool>(options.filter), options.min_delta);
      },
      store);
  FairnessTestRun run;
  run.n_chunks = chunked.n_chunks;
  run.n_owned = chunked.n_owned;
  run.n_resumed = chunked.n_resumed;
  run.n_executed = chunked.n_executed;
  if (!chunked.complete) return run;
  const std::string where = store ? store->path() : std::string("fair test");
  for (const auto& text : chunked.results) add_chunk_result(text, where, run);
  run.summary.labels = labels;
  run.summary.min_delta = options.min_delta;
  run.complete = true;
  return run;
}

}  // namespace assay::fairness
