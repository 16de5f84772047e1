// `assay text tag`: tokens with byte offsets, part-of-speech tags (Lingua::EN::Tagger tables)
// and WordNet lemmas for each line of the input, as JSON lines or word/TAG text.
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>

#include "command.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/jsonl.h"
#include "core/line_reader.h"
#include "option_checks.h"
#include "text/pos_tagger.h"
#include "text/unicode_props.h"
#include "text/wordnet_lemmatizer.h"

namespace assay::cli {
namespace {

struct TextTagOptions {
  std::string input = "-";
  std::string format = "jsonl";
  std::string decoder = "lingua";
  std::string tagger_dir = text::LinguaTables::kDefaultDir;
  std::string wordnet_dir = wordnet::kDefaultDir;
  bool no_lemmas = false;
  std::size_t max_line_bytes = std::size_t{1} << 20;
  std::string out;
};

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 32);
  }
  return out;
}

// Lemma of a content word (nn*, vb*, jj*, rb*) from its lower-cased form; other tokens are
// their own lemma.
std::string lemma_of(const text::WordNetLemmatizer& lemmatizer, const std::string& token,
                     std::string_view tag) {
  const auto pos = text::wordnet_pos_of_tag(tag);
  if (!pos) return token;
  return lemmatizer.lemmatize(text::to_lower(token), *pos);
}

void tag_lines(const TextTagOptions& o, std::ostream& os) {
  text::PosTaggerOptions topts;
  topts.tables_dir = o.tagger_dir;
  if (o.decoder == "viterbi") {
    topts.decoder = text::Decoder::kViterbi;
  } else if (o.decoder != "lingua") {
    throw core::UsageError("--decoder must be 'lingua' or 'viterbi', got '" + o.decoder + "'");
  }
  if (o.format != "jsonl" && o.format != "text") {
    throw core::UsageError("--format must be 'jsonl' or 'text', got '" + o.format + "'");
  }
  const text::PosTagger tagger(topts);
  std::optional<text::WordNetLemmatizer> lemmatizer;
  if (!o.no_lemmas) lemmatizer.emplace(o.wordnet_dir);

  core::LineReader reader(o.input);
  reader.set_max_line_bytes(o.max_line_bytes);
  std::string_view line;
  while (reader.next(line)) {
    text::TaggedText tagged;
    try {
      tagged = tagger.tag_text(line);
    } catch (core::Error& e) {
      e.set_location_if_missing(reader.location());
      throw;
    }
    if (o.format == "text") {
      for (std::size_t k = 0; k < tagged.tokens.size(); ++k) {
        os << (k ? " " : "") << tagged.tokens[k].text << '/'
           << upper(tagger.tag_name(tagged.tags[k]));
      }
      os << '\n';
      continue;
    }
    nlohmann::ordered_json j;
    j["line"] = reader.line_number();
    j["text"] = std::string(line);
    auto tokens = nlohmann::json::array(), offsets = nlohmann::json::array(),
         tags = nlohmann::json::array(), lemmas = nlohmann::json::array();
    for (std::size_t k = 0; k < tagged.tokens.size(); ++k) {
      const text::Token& t = tagged.tokens[k];
      const std::string_view tag = tagger.tag_name(tagged.tags[k]);
      tokens.push_back(t.text);
      offsets.push_back({t.begin, t.end});
      tags.push_back(std::string(tag));
      if (lemmatizer) lemmas.push_back(lemma_of(*lemmatizer, t.text, tag));
    }
    j["tokens"] = std::move(tokens);
    j["offsets"] = std::move(offsets);
    j["tags"] = std::move(tags);
    if (lemmatizer) j["lemmas"] = std::move(lemmas);
    core::write_jsonl(os, j);
  }
}

int run(const TextTagOptions& o) {
  if (o.out.empty()) {
    // Buffered so that a bad line part-way leaves no partial output on stdout either.
    std::ostringstream buffer;
    tag_lines(o, buffer);
    std::cout << buffer.str();
  } else {
    core::AtomicFileWriter writer(o.out);
    tag_lines(o, writer.stream());
    writer.commit();
  }
  return kOk;
}

void add_text_tag_command(CLI::App& group, CommandResult& result) {
  auto opts = std::make_shared<TextTagOptions>();
  auto* cmd = group.add_subcommand(
      "tag", "Tokenise and POS-tag each input line (Lingua::EN::Tagger tables, WordNet lemmas)");
  cmd->add_option("--input", opts->input, "UTF-8 text, one text per line ('-' for stdin)")
      ->capture_default_str();
  add_count(cmd, "--max-line-bytes", opts->max_line_bytes, "Longest line accepted",
            {.min = 1, .max = 1'000'000'000'000})
      ->capture_default_str();
  cmd->add_option("--format", opts->format,
                  "jsonl (tokens, byte offsets, tags, lemmas) or text (word/TAG)")
      ->capture_default_str();
  cmd->add_option("--decoder", opts->decoder,
                  "lingua (the Perl module's greedy decoding) or viterbi (exact)")
      ->capture_default_str();
  cmd->add_option("--tagger-dir", opts->tagger_dir, "Directory of words.yml, tags.yml, unknown.yml")
      ->capture_default_str();
  cmd->add_option("--wordnet-dir", opts->wordnet_dir, "WordNet 3.0 dict directory")
      ->capture_default_str();
  cmd->add_flag("--no-lemmas", opts->no_lemmas, "Do not load WordNet or output lemmas");
  add_output_file(cmd, "--out", opts->out, "Write to FILE (atomically) instead of stdout");
  cmd->callback([opts, &result] { result.exit_code = run(*opts); });
}

}  // namespace

ASSAY_REGISTER_COMMAND("text", "Text processing: tokenise, tag, lemmatise", "tag",
                       add_text_tag_command)

}  // namespace assay::cli
