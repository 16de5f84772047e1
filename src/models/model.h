// Model: the model under test, a black box M : text -> R^n (class scores). Its label for a text
// is the label of the largest score (argmax). Adapters (a child process, an HTTP endpoint, the
// built-in logistic regression, a local BERT classifier) implement this one interface; the tool
// never looks inside.
//
// Contract of every implementation:
// - predict(texts) returns one score vector per text, in order, each of size labels().size(),
//   every score finite. An adapter that cannot honour this throws core::Error naming the adapter,
//   the text's position in the batch and what was expected; it never returns a partial batch.
// - identity() is a stable string naming the adapter and its configuration and, for local files
//   (a model file, a script), their content hash, so a changed model never reuses cached
//   answers. It never contains secrets (HTTP header values).
// - Not thread-safe unless an adapter says so; adapters may parallelise inside predict().
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace assay::models {

class Model {
 public:
  virtual ~Model();
  virtual std::vector<std::vector<double>> predict(const std::vector<std::string>& texts) = 0;
  virtual const std::vector<std::string>& labels() const = 0;
  virtual std::string identity() const = 0;
  // Files that may change the answers but are not part of identity(), e.g. the modules beside
  // a cmd: script that it may import. The answer cache warns when one changed after the
  // answers it reuses were stored. Default: none.
  virtual std::vector<std::string> files_outside_identity() const { return {}; }
  // Asks a predict() running on another thread to stop: it throws ModelError ("cancelled")
  // soon (a cmd: child within a second, its child killed; an http: request at once, its
  // connection closed). A cancel that comes before predict() starts may be missed, so a caller
  // repeats it until predict() returns. Thread-safe. Default: nothing (predict runs to its
  // end, as an in-process model does in moments).
  virtual void cancel() {}
};

// Index of the largest score (the first on ties). Precondition: scores is not empty.
std::size_t argmax(const std::vector<double>& scores);

}  // namespace assay::models
