// The user's own recommender (`cmd:PROGRAM [ARGS...]`): any program, in any language, trained
// and asked for everyone's top-k through files. Stability testing needs nothing else from a
// recommender: the engine compares top-k lists (stability/algorithm_baseline.h).
//
// One training = one call of recommend_all(). assay writes, into a fresh directory under the
// work directory:
//   train.tsv   the training ratings, one `user<TAB>item<TAB>rating` line each, with the data's
//               own ids (its labels), no header, in (user, item) order
//   users.txt   the users to recommend for, one id a line (every user of the data)
// and then, in one-shot mode (`cmd:`), runs
//   PROGRAM [ARGS...] TRAIN_TSV USERS_TXT K SEED OUTPUT
// which must exit 0 after writing OUTPUT; in persistent mode (`cmd+persistent:`) the program is
// started once (one child per concurrent training) and sent one JSON line per training on stdin,
//   {"train": "...", "users": "...", "k": 10, "seed": 42, "output": "..."}
// answering with one line on stdout once OUTPUT is written: {"done": true}, or {"error": "why"}.
//
// OUTPUT holds every user's top-k, best first, as JSON lines
//   {"user": "196", "items": ["242", "302", ...]}     (ids as strings or integers; an entry
//                                                     may also be {"item": "242", ...})
// or as TSV, one `user<TAB>item[<TAB>anything]` line per recommended item in rank order. Every
// user must get min(k, number of items the user has not rated) distinct items, none of them
// rated by the user in train.tsv. SEED varies across the noise-floor retrainings, so a
// stochastic recommender's own noise is measured.
//
// Anything else is a RecommenderFailure with the reason and the tail of the program's stderr:
// a program that cannot start, exits non-zero or is killed, runs past the timeout (it is then
// killed), or writes a malformed or incomplete OUTPUT, or one that recommends a rated item.
// Training files are removed after each training, failed or not.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "core/error.h"
#include "recsys/ratings.h"
#include "recsys/recommender.h"

namespace assay::recsys {

// One training of a user's recommender failed; what() gives the adapter, the reason and the
// stderr tail; reason() and stderr_tail() give them apart (a campaign records them).
class RecommenderFailure : public core::Error {
 public:
  RecommenderFailure(const std::string& adapter, std::string reason, std::string stderr_tail);
  const std::string& reason() const { return reason_; }
  const std::string& stderr_tail() const { return stderr_tail_; }

 private:
  std::string reason_;
  std::string stderr_tail_;
};

struct CommandRecommenderOptions {
  // Seconds one training may take (one-shot: the whole run; persistent: until the answer line).
  double timeout_seconds = 600;
  // Where the training files go; empty: a private directory under $TMPDIR (or /tmp), removed
  // when the adapter ends.
  std::string work_dir;
  std::size_t stderr_tail_bytes = 2000;
  std::size_t max_line_bytes = std::size_t{1} << 20;  // a longer answer or OUTPUT line fails
};

// True for "cmd:..." and "cmd+persistent:...".
bool is_command_spec(std::string_view spec);

class CommandRecommender {
 public:
  // `spec` is "cmd:PROGRAM [ARGS...]" or "cmd+persistent:PROGRAM [ARGS...]". Throws
  // core::UsageError for an empty command or a program that is not found.
  CommandRecommender(const std::string& spec, CommandRecommenderOptions options);
  ~CommandRecommender();
  CommandRecommender(const CommandRecommender&) = delete;
  CommandRecommender& operator=(const CommandRecommender&) = delete;

  // Everyone's top-k (result[u] for dense user u) from one training on `train` with `seed`.
  // Thread-safe: concurrent calls use their own files (and, persistent, their own child).
  // Throws RecommenderFailure.
  TopKLists recommend_all(const Ratings& train, std::size_t k, std::uint64_t seed);

  // The spec plus the SHA-256 of every word that names a regular file (program, script), so
  // an edited script is another recommender.
  const std::string& identity() const { return identity_; }

 private:
  struct Child;
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string identity_;
};

// The options every adapter made by command_recommender() gets; set them before first use
// (the command line's --timeout, the campaign's work directory under its store).
void set_command_recommender_options(const CommandRecommenderOptions& options);
CommandRecommenderOptions command_recommender_options();

// The process-wide adapter of `spec` (one per spec, made on first use, so persistent children
// live as long as the process).
CommandRecommender& command_recommender(const std::string& spec);

}  // namespace assay::recsys
