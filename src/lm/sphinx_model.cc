#include "lm/sphinx_model.h"

#include <sphinxbase/err.h>
#include <sphinxbase/logmath.h>
#include <sphinxbase/ngram_model.h>

#include <filesystem>
#include <string>

#include "core/check.h"
#include "core/error.h"

namespace assay::lm {
namespace {

// The base sphinx_lm_eval uses by default; scores are integers in this base.
constexpr double kLogBase = 1.0001;

// sphinxbase logs INFO lines to stderr while loading; the library must not print.
void silence_sphinxbase() {
  static std::once_flag once;
  std::call_once(once, [] { err_set_logfp(nullptr); });
}

}  // namespace

struct SphinxModel::Handles {
  logmath_t* logmath = nullptr;
  ngram_model_t* model = nullptr;
  ~Handles() {
    if (model) ngram_model_free(model);
    if (logmath) logmath_free(logmath);
  }
};

std::unique_ptr<SphinxModel> SphinxModel::load(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    throw core::MissingResourceError(
        core::SourceLocation{path},
        std::string("n-gram language model not found; the CMU English trigram model is in the "
                    "Debian package ") +
            kCmuTrigramPackage + " (apt-get install " + kCmuTrigramPackage + ")");
  }
  silence_sphinxbase();
  std::unique_ptr<SphinxModel> m(new SphinxModel());
  m->handles_ = std::make_unique<Handles>();
  m->handles_->logmath = logmath_init(kLogBase, 0, 0);
  ASSAY_CHECK(m->handles_->logmath != nullptr);
  m->handles_->model = ngram_model_read(nullptr, path.c_str(), NGRAM_AUTO, m->handles_->logmath);
  if (!m->handles_->model) {
    throw core::ParseError(core::SourceLocation{path},
                           "sphinxbase cannot read this file as an n-gram language model "
                           "(expected the binary trie, DMP or ARPA format)");
  }
  ngram_model_t* model = m->handles_->model;
  m->name_ = "sphinx:" + path;
  m->order_ = ngram_model_get_size(model);
  m->n_words_ = static_cast<WordId>(ngram_model_get_counts(model)[0]);
  m->unknown_ = ngram_unknown_wid(model);
  if (m->unknown_ < 0) m->unknown_ = kNoWord;
  m->begin_ = m->find("<s>");
  m->end_ = m->find("</s>");
  if (m->begin_ == kNoWord || m->end_ == kNoWord) {
    throw core::ParseError(core::SourceLocation{path},
                           "the model lacks the sentence markers <s> and </s>");
  }
  return m;
}

SphinxModel::~SphinxModel() = default;

std::string_view SphinxModel::word(WordId id) const {
  ASSAY_CHECK(id >= 0 && id < n_words_);
  const char* w = ngram_word(handles_->model, id);
  ASSAY_CHECK(w != nullptr);
  return w;
}

WordId SphinxModel::find(std::string_view w) const {
  const std::string key(w);
  const int32 id = ngram_wid(handles_->model, key.c_str());
  // ngram_wid maps unknown words to the unknown-word id when the model has one.
  if (id < 0 || id >= n_words_ || (id == unknown_ && word(id) != w)) return kNoWord;
  return id;
}

int SphinxModel::raw_score(WordId w, std::span<const WordId> context) const {
  ASSAY_CHECK(w >= 0 && w < n_words_);
  // sphinxbase wants the history most recent first; it stops at the first invalid id.
  int32 history[16];
  const std::size_t max_history = static_cast<std::size_t>(order_ > 1 ? order_ - 1 : 0);
  std::size_t n = 0;
  for (std::size_t i = context.size(); i > 0 && n < max_history && n < std::size(history); --i) {
    if (context[i - 1] == kNoWord) break;
    history[n++] = context[i - 1];
  }
  int32 n_used = 0;
  const std::lock_guard lock(mutex_);
  return ngram_ng_prob(handles_->model, w, history, static_cast<int32>(n), &n_used);
}

double SphinxModel::log_prob(WordId w, std::span<const WordId> context) const {
  const int score = raw_score(w, context);
  // Pure arithmetic on the immutable logmath table: no lock needed.
  return logmath_log_to_ln(handles_->logmath, score);
}

}  // namespace assay::lm
