#include "aeon/score_run.h"

#include <cstdio>
#include <sstream>

#include "aeon/score_record.h"
#include "core/jsonl.h"

namespace assay::aeon {

const std::string& score_csv_header() {
  static const std::string header =
      "original,generated,SemEval,SynEval,SynEval_original,SynEval_relative,semeval_backend,"
      "syneval_backend\n";
  return header;
}

std::string score_lines(TestCaseScorer& scorer, const std::vector<TestCase>& cases,
                        std::size_t begin, std::size_t end, ScoreFormat format, int threads) {
  const std::vector<TestCase> chunk(cases.begin() + static_cast<std::ptrdiff_t>(begin),
                                    cases.begin() + static_cast<std::ptrdiff_t>(end));
  const std::vector<TestCaseScore> scores = scorer.score_all(chunk, threads);
  std::ostringstream os;
  char buf[64];
  for (std::size_t i = 0; i < chunk.size(); ++i) {
    const TestCase& c = chunk[i];
    const TestCaseScore& s = scores[i];
    if (format == ScoreFormat::kCsv) {
      std::snprintf(buf, sizeof buf, "%.6f,%.6f,%.6f,%.6f", s.semeval, s.syneval,
                    s.syneval_original, s.syneval_relative());
      os << csv_field(c.original) << ',' << csv_field(c.generated) << ',' << buf << ','
         << csv_field(scorer.semeval_backend()) << ',' << csv_field(scorer.syneval_backend())
         << '\n';
      continue;
    }
    core::write_jsonl(os, score_record(c, s, scorer.semeval_backend(), scorer.syneval_backend()));
  }
  return os.str();
}

std::unique_ptr<core::ChunkStore> open_score_store(const std::string& path) {
  return std::make_unique<core::ChunkStore>(path, "aeon_score", "assay aeon score chunks, v1");
}

core::ChunkedRun score_test_cases(TestCaseScorer& scorer, const std::vector<TestCase>& cases,
                                  ScoreFormat format, const ScoreRunOptions& options,
                                  const std::string& settings, core::ChunkStore* store) {
  core::ChunkedRunOptions co;
  co.chunk_inputs = options.chunk_inputs;
  co.threads = 1;
  co.shard = options.shard;
  co.progress = options.progress;
  co.label = "aeon score";
  const std::string all_settings = settings + "\nsemeval " + scorer.semeval_backend() +
                                   "\nsyneval " + scorer.syneval_backend() + "\nformat " +
                                   (format == ScoreFormat::kCsv ? "csv" : "jsonl");
  return core::run_chunked(
      cases.size(), co, all_settings,
      [&](const core::ChunkBounds& c) {
        std::string content;
        for (std::size_t i = c.begin; i < c.end; ++i) {
          content += '\0';
          content += cases[i].original;
          content += '\0';
          content += cases[i].generated;
        }
        return content;
      },
      [&](const core::ChunkBounds& c) {
        return score_lines(scorer, cases, c.begin, c.end, format, options.threads);
      },
      store);
}

}  // namespace assay::aeon
