// Throughput of the tokeniser + tagger on one thread: tags every line of the input `repeats`
// times (one tag_text call per line, as `assay text tag` does) and prints one figure per
// repeat; run.sh takes the median. Optionally writes the tags of the first pass for an
// agreement check against the Perl tagger.
//
//   text_tag_bench FILE [FILE...] --repeats N [--decoder lingua|viterbi] [--dump OUT]
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/line_reader.h"
#include "text/pos_tagger.h"

int main(int argc, char** argv) {
  using Clock = std::chrono::steady_clock;
  std::vector<std::string> files;
  int repeats = 5;
  std::string dump;
  assay::text::PosTaggerOptions options;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--repeats") == 0 && i + 1 < argc) {
      repeats = std::stoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--dump") == 0 && i + 1 < argc) {
      dump = argv[++i];
    } else if (std::strcmp(argv[i], "--decoder") == 0 && i + 1 < argc) {
      options.decoder = std::strcmp(argv[++i], "viterbi") == 0 ? assay::text::Decoder::kViterbi
                                                               : assay::text::Decoder::kLingua;
    } else {
      files.emplace_back(argv[i]);
    }
  }
  try {
    std::vector<std::string> lines;
    for (const std::string& f : files) {
      assay::core::LineReader reader(f);
      std::string_view line;
      while (reader.next(line)) lines.emplace_back(line);
    }
    const auto t0 = Clock::now();
    const assay::text::PosTagger tagger(options);
    const double load_s = std::chrono::duration<double>(Clock::now() - t0).count();
    std::printf("load_seconds %.4f\n", load_s);
    for (int r = 0; r < repeats; ++r) {
      std::size_t n_tokens = 0;
      std::size_t checksum = 0;
      const auto start = Clock::now();
      for (const std::string& line : lines) {
        const auto tagged = tagger.tag_text(line);
        n_tokens += tagged.tokens.size();
        for (auto t : tagged.tags) checksum += t;
      }
      const double s = std::chrono::duration<double>(Clock::now() - start).count();
      std::printf("repeat %d tokens %zu seconds %.4f tokens_per_s %.0f checksum %zu\n", r, n_tokens,
                  s, static_cast<double>(n_tokens) / s, checksum);
    }
    if (!dump.empty()) {
      std::ofstream out(dump);
      for (const std::string& line : lines) {
        const auto tagged = tagger.tag_text(line);
        for (std::size_t k = 0; k < tagged.tags.size(); ++k) {
          out << (k ? " " : "") << tagger.tag_name(tagged.tags[k]);
        }
        out << '\n';
      }
    }
  } catch (const assay::core::Error& e) {
    std::fprintf(stderr, "text_tag_bench: %s\n", e.what());
    return 2;
  }
  return 0;
}
