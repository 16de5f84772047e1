#include "models/prediction_run.h"

#include <nlohmann/json.hpp>
#include <sstream>

#include "core/error.h"
#include "core/jsonl.h"
#include "models/model_error.h"

namespace assay::models {

std::unique_ptr<core::ChunkStore> open_prediction_store(const std::string& path) {
  return std::make_unique<core::ChunkStore>(path, "model_predict",
                                            "assay model predict chunks, v1");
}

PredictionRun predict_records(Model& model, const std::vector<TextRecord>& records,
                              const std::vector<std::optional<std::size_t>>& gold,
                              const PredictionRunOptions& options, const std::string& settings,
                              core::ChunkStore* store) {
  const auto& labels = model.labels();
  core::ChunkedRunOptions co;
  co.chunk_inputs = options.batch;
  co.threads = 1;  // models are asked one batch at a time
  co.shard = options.shard;
  co.progress = options.progress;
  co.label = "predict";
  std::string all_settings = settings + "\nmodel " + model.identity() + "\nlabels";
  for (const auto& l : labels) all_settings += " " + l;
  PredictionRun out;
  out.chunks = core::run_chunked(
      records.size(), co, all_settings,
      [&](const core::ChunkBounds& c) {
        std::string content;
        for (std::size_t i = c.begin; i < c.end; ++i) {
          content += '\0';
          content += records[i].text;
          content += '\0';
          content += gold[i] ? std::to_string(*gold[i]) : std::string("-");
        }
        return content;
      },
      [&](const core::ChunkBounds& c) {
        std::vector<std::string> texts;
        texts.reserve(c.end - c.begin);
        for (std::size_t i = c.begin; i < c.end; ++i) texts.push_back(records[i].text);
        std::vector<std::vector<double>> scores;
        try {
          scores = model.predict(texts);
        } catch (BudgetExhausted& e) {
          const std::size_t remaining = e.n_unanswered() + (records.size() - c.end);
          throw core::Error(std::string(e.what()) + ": " + std::to_string(remaining) + " of " +
                            std::to_string(records.size()) + " inputs remain unanswered; the " +
                            std::to_string(records.size() - remaining) + " answered are kept in " +
                            options.cache +
                            "; rerun the same command with a larger --budget (or none) to "
                            "continue without asking them again");
        } catch (ModelError& e) {
          if (e.batch_index() && *e.batch_index() < texts.size()) {
            e.set_location_if_missing(records[c.begin + *e.batch_index()].location);
          } else {
            e.add_context("while predicting " + records[c.begin].location.to_string() +
                          " to line " + std::to_string(records[c.end - 1].location.line));
          }
          throw;
        }
        std::ostringstream lines;
        std::size_t correct = 0;
        for (std::size_t k = 0; k < texts.size(); ++k) {
          nlohmann::ordered_json j;
          j["text"] = texts[k];
          j["scores"] = scores[k];
          const std::size_t label = argmax(scores[k]);
          j["label"] = labels.at(label);
          if (const auto& g = gold[c.begin + k]) {
            j["gold"] = labels.at(*g);
            correct += *g == label;
          }
          core::write_jsonl(lines, j);
        }
        nlohmann::ordered_json r;
        r["correct"] = correct;
        r["lines"] = lines.str();
        return r.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      },
      store);
  if (!out.chunks.complete) return out;
  const std::string where = store ? store->path() : std::string("model predict");
  for (auto& text : out.chunks.results) {
    try {
      const auto r = nlohmann::json::parse(text);
      out.n_correct += r.at("correct").get<std::size_t>();
      out.lines += r.at("lines").get<std::string>();
    } catch (const nlohmann::json::exception& e) {
      throw core::ParseError(core::SourceLocation(where),
                             std::string("unreadable model predict chunk: ") + e.what());
    }
    text.clear();
  }
  out.chunks.results.clear();
  return out;
}

}  // namespace assay::models
