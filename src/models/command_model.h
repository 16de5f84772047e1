// CommandModel (`cmd:PROGRAM [ARGS...]`): a model served by a persistent child process that
// speaks JSON lines. The child is started directly (posix_spawnp, no shell; PROGRAM is looked up
// in PATH) with its stdin and stdout as pipes:
//
//   child -> assay, optional first line:  {"labels": ["neg", "pos"]}
//   assay -> child, one line per text:    {"id": 7, "text": "a fine film"}
//   child -> assay, one line per request: {"id": 7, "scores": [0.1, 0.9]}
//
// The child starts on first need: the first predict(), or labels() when the labels are to come
// from it, so a model whose every answer is cached (CachedModel) starts no process.
// Answers may come in any order (matched by id). Labels come from the first line or from
// ModelOptions::labels (--labels); without either the first use fails; with both, a labels
// line other than the options' is a ModelError. Requests are pipelined:
// up to `max_in_flight` are written before their answers are read, and one poll() loop serves
// both pipes, so a child that answers while it reads never deadlocks on a full pipe. The
// child's stderr is copied to ours line by line with a prefix ("[serve.py] ").
//
// A child that dies (EOF on its stdout) is restarted, at most `max_restarts` times over the
// adapter's life, and the texts it had not answered are sent again; a child that answers nothing
// for `timeout_seconds` while requests are pending is killed (SIGKILL) and reported. Malformed
// JSON, an unknown id, a score vector of the wrong length or a non-finite score are ModelErrors
// naming the adapter, the text's position in the batch and what was expected. A line longer than
// `max_line_bytes` (1 MiB) is refused as soon as that many bytes of it are read and the child is
// killed, so a child that never ends a line cannot make memory grow.
//
// identity() is "cmd:" + the words as a JSON array + the SHA-256 of every word that names a
// regular file (the program and, e.g., the script and model file it is given), so editing the
// script or retraining the model file gives a new identity; labels given in ModelOptions are
// part of it too, and so is the content of every file in CommandModelOptions::identity_files
// (--model-file: a module the script imports). files_outside_identity() lists the files beside
// each script named on the command line with the script's extension (its sibling modules), so
// the answer cache can warn when one changed after the answers it reuses were stored.
//
// SIGPIPE is ignored process-wide once a CommandModel starts (a write to a dead child must fail
// with EPIPE, not kill assay). Not thread-safe.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "models/model.h"
#include "models/model_spec.h"

namespace assay::models {

class CommandModel : public Model {
 public:
  // `command` is the part after "cmd:". Throws core::UsageError for an empty command,
  // ModelError when the program is not found (the first use throws ModelError when the child
  // cannot start or sends no labels in time).
  CommandModel(const std::string& command, const ModelOptions& options);
  ~CommandModel() override;
  CommandModel(const CommandModel&) = delete;
  CommandModel& operator=(const CommandModel&) = delete;

  std::vector<std::vector<double>> predict(const std::vector<std::string>& texts) override;
  // Starts the child when its labels are to come from it and it has not started yet.
  const std::vector<std::string>& labels() const override;
  std::string identity() const override { return identity_; }
  std::vector<std::string> files_outside_identity() const override;
  void cancel() override { cancelled_ = true; }

  // Restarts so far (for tests and reports).
  int n_restarts() const { return n_restarts_; }
  pid_t child_pid() const { return pid_; }

 private:
  struct Child;
  class Exchange;  // one predict() call's conversation with the child (command_model.cc)
  // Starts the child (and reads its labels line) on first need; later calls do nothing.
  void start_first_child();
  void start();
  void stop(bool kill_now);
  std::string describe_exit();
  void read_labels_line();
  // The message for a line from the child over CommandModelOptions::max_line_bytes.
  std::string too_long_line() const;
  std::string name() const;

  std::vector<std::string> words_;
  ModelOptions options_;
  std::string identity_;
  std::string prefix_;
  std::vector<std::string> labels_;
  bool labels_from_options_ = false;
  bool started_ = false;      // the first child was started (it may have died since)
  bool labels_seen_ = false;  // the current child's labels line was read (or will never come)
  pid_t pid_ = -1;
  int stdin_fd_ = -1;
  int stdout_fd_ = -1;
  int stderr_fd_ = -1;
  int exit_status_ = 0;
  std::string pending_input_;  // bytes read from stdout not yet forming a whole line
  std::thread stderr_thread_;
  std::atomic<bool> stop_stderr_{false};
  std::int64_t next_id_ = 0;
  int n_restarts_ = 0;
  std::atomic<bool> cancelled_{false};
};

}  // namespace assay::models
