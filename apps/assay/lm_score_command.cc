// `assay lm score`: sentence log-probability and Ge et al. fluency under an n-gram model, one
// JSON line per input line: {"sentence", "logprob" (natural log), "n_tokens", "n_oov",
// "fluency"}.
#include <cctype>
#include <iostream>
#include <memory>
#include <string>

#include "command.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/jsonl.h"
#include "core/line_reader.h"
#include "lm/model_spec.h"
#include "lm/sentence_scorer.h"
#include "option_checks.h"

namespace assay::cli {
namespace {

struct LmScoreOptions {
  std::string model = "cmu";
  std::string input = "-";
  std::string oov = "skip";
  bool lowercase = false;
  bool no_boundaries = false;
  std::size_t max_line_bytes = std::size_t{1} << 20;
  std::string out;
};

lm::OovPolicy parse_oov(const std::string& s) {
  if (s == "skip") return lm::OovPolicy::kSkip;
  if (s == "unk") return lm::OovPolicy::kUnknownToken;
  throw core::UsageError("--oov must be skip or unk, got '" + s + "'");
}

void score_lines(const LmScoreOptions& o, const lm::NgramModel& model, std::ostream& os) {
  lm::ScoreOptions score;
  score.oov = parse_oov(o.oov);
  score.sentence_boundaries = !o.no_boundaries;
  core::LineReader lines(o.input);
  lines.set_max_line_bytes(o.max_line_bytes);
  std::string_view line;
  while (lines.next(line)) {
    std::string text(line);
    if (o.lowercase) {
      for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    const auto s = lm::score_sentence(model, lm::split_words(text), score);
    nlohmann::ordered_json j;
    j["sentence"] = std::string(line);
    j["logprob"] = s.log_prob;
    j["n_tokens"] = s.n_tokens;
    j["n_oov"] = s.n_oov;
    j["fluency"] = s.fluency();  // NaN (nothing scored) is written as null
    core::write_jsonl(os, j);
  }
}

int run(const LmScoreOptions& o) {
  parse_oov(o.oov);
  const auto model = lm::open_ngram_model(o.model);
  if (o.out.empty()) {
    score_lines(o, *model, std::cout);
  } else {
    core::AtomicFileWriter writer(o.out);
    score_lines(o, *model, writer.stream());
    writer.commit();
  }
  return kOk;
}

void add_lm_score_command(CLI::App& group, CommandResult& result) {
  auto opts = std::make_shared<LmScoreOptions>();
  auto* cmd = group.add_subcommand(
      "score", "Log-probability and fluency 1/(1+H) of each input line under an n-gram model");
  cmd->add_option("--ngram-model", opts->model,
                  "cmu (the CMU trigram of pocketsphinx-en-us), arpa:FILE or sphinx:FILE")
      ->capture_default_str();
  cmd->add_option("--input", opts->input, "One whitespace-tokenised sentence per line; - is stdin")
      ->capture_default_str();
  add_count(cmd, "--max-line-bytes", opts->max_line_bytes, "Longest line accepted",
            {.min = 1, .max = 1'000'000'000'000})
      ->capture_default_str();
  cmd->add_option("--oov", opts->oov,
                  "skip: OOV words are not scored (sphinx_lm_eval); unk: scored as <unk>")
      ->capture_default_str();
  cmd->add_flag("--lowercase", opts->lowercase, "Lower-case ASCII letters before lookup");
  cmd->add_flag("--no-boundaries", opts->no_boundaries, "Do not wrap sentences in <s> ... </s>");
  add_output_file(cmd, "--out", opts->out, "Write the JSON lines to FILE (atomically)");
  cmd->callback([opts, &result] { result.exit_code = run(*opts); });
}

}  // namespace

ASSAY_REGISTER_COMMAND("lm", "Language models: score sentences", "score", add_lm_score_command)

}  // namespace assay::cli
