// `assay vectors analogy` (a : b :: c : ?, 3CosAdd) and `assay vectors neighbors` (nearest
// words by cosine): one JSON line per result {"rank", "word", "similarity"} plus the query.
#include <iostream>
#include <memory>
#include <string>

#include "command.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/jsonl.h"
#include "option_checks.h"
#include "vectors/similarity_search.h"
#include "vectors/vector_reader.h"

namespace assay::cli {
namespace {

struct VectorsQueryOptions {
  std::string vectors;
  std::string vectors_format = "word2vec";
  std::string a, b, c;  // analogy
  std::string word;     // neighbors
  std::size_t top_k = 10;
  std::size_t restrict_to = 0;
  std::string out;
};

int run(const VectorsQueryOptions& o, bool analogy) {
  const auto format = vectors::parse_vector_format(o.vectors_format);
  if (o.top_k == 0) throw core::UsageError("--top-k must be at least 1");
  const auto matrix = vectors::read_vectors(o.vectors, format);
  const auto query =
      analogy ? vectors::analogy_query(o.a, o.b, o.c) : vectors::neighbor_query(o.word);
  vectors::SearchOptions search;
  search.top_k = o.top_k;
  search.restrict_to = o.restrict_to;
  const auto results = vectors::most_similar(matrix, query, search);
  auto write = [&](std::ostream& os) {
    std::size_t rank = 0;
    for (const auto& nb : results) {
      nlohmann::ordered_json j;
      if (analogy) {
        j["a"] = o.a;
        j["b"] = o.b;
        j["c"] = o.c;
      } else {
        j["query"] = o.word;
      }
      j["rank"] = ++rank;
      j["word"] = matrix.word(nb.index);
      j["similarity"] = nb.similarity;
      core::write_jsonl(os, j);
    }
  };
  if (o.out.empty()) {
    write(std::cout);
  } else {
    core::AtomicFileWriter writer(o.out);
    write(writer.stream());
    writer.commit();
  }
  return kOk;
}

void add_common(CLI::App* cmd, VectorsQueryOptions& o) {
  cmd->add_option("--vectors", o.vectors, "Word-vector file")->required();
  cmd->add_option("--vectors-format", o.vectors_format,
                  "glove, word2vec (text), word2vec-bin or fasttext (.vec)")
      ->capture_default_str();
  add_count(cmd, "--top-k", o.top_k, "Number of results", {.min = 1, .max = 1'000'000'000})
      ->capture_default_str();
  add_count(cmd, "--restrict", o.restrict_to,
            "Search only the first N words of the file (the N most frequent); 0 = all",
            {.min = 0, .max = 1'000'000'000'000})
      ->capture_default_str();
  add_output_file(cmd, "--out", o.out, "Write the JSON lines to FILE (atomically)");
}

void add_vectors_analogy_command(CLI::App& group, CommandResult& result) {
  auto opts = std::make_shared<VectorsQueryOptions>();
  auto* cmd = group.add_subcommand(
      "analogy", "a : b :: c : ? by 3CosAdd (gensim most_similar(positive=[b, c], negative=[a]))");
  add_common(cmd, *opts);
  cmd->add_option("--a", opts->a, "a (e.g. man)")->required();
  cmd->add_option("--b", opts->b, "b (e.g. king)")->required();
  cmd->add_option("--c", opts->c, "c (e.g. woman)")->required();
  cmd->callback([opts, &result] { result.exit_code = run(*opts, true); });
}

void add_vectors_neighbors_command(CLI::App& group, CommandResult& result) {
  auto opts = std::make_shared<VectorsQueryOptions>();
  auto* cmd = group.add_subcommand("neighbors", "Nearest words to --word by cosine similarity");
  add_common(cmd, *opts);
  cmd->add_option("--word", opts->word, "Query word")->required();
  cmd->callback([opts, &result] { result.exit_code = run(*opts, false); });
}

}  // namespace

ASSAY_REGISTER_COMMAND("vectors", "Word vectors: nearest neighbours and analogies", "analogy",
                       add_vectors_analogy_command)
ASSAY_REGISTER_COMMAND("vectors", "Word vectors: nearest neighbours and analogies", "neighbors",
                       add_vectors_neighbors_command)

}  // namespace assay::cli
