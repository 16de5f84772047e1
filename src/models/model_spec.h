// open_model: the one parser of model specs, shared by every command.
//
//   lr:FILE                 the built-in logistic regression saved by `assay model train-lr`
//   cmd:PROGRAM [ARGS...]   a child process speaking JSON lines (see command_model.h); the
//                           words are split on blanks, '…' and "…" quote, no shell is involved
//   http:URL, http://…,     an HTTP(S) JSON endpoint (see http_model.h)
//   https://…
//   bert:DIR                a local Hugging Face BertForSequenceClassification folder
//   afinn:[FILE]            the built-in AFINN-165 lexicon sentiment model (lexicon_model.h),
//                           or one over another lexicon file in AFINN's format
//
// Throws core::UsageError for an unknown or empty spec (listing the forms above), and the
// adapter's own errors (a missing file, a child that cannot start).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "core/child_process.h"
#include "models/model.h"

namespace assay::models {

struct CommandModelOptions {
  std::size_t max_in_flight = 256;  // requests written before their answers are read
  int max_restarts = 3;             // a child that dies is restarted at most this many times
  std::string stderr_prefix;        // empty: "[<program name>] "
  // The longest line the child may send (an answer or its labels line), refused as soon as it
  // is passed; a line of its stderr longer than this is copied in pieces.
  std::size_t max_line_bytes = std::size_t{1} << 20;
  // Extra files whose content is part of the identity (--model-file): modules the program
  // imports, data it loads that its command line does not name.
  std::vector<std::string> identity_files;
};

struct HttpModelOptions {
  // Request body; {text} is replaced by the text as a JSON string, {texts} by a JSON array of
  // the batch's texts (one request per batch). Default: {"text": {text}}.
  std::string body_template = "{\"text\": {text}}";
  // RFC 6901 JSON pointer to the scores in the response: an array of numbers, or (with
  // label_map or a hosted classifier's answer) an array of {"label", "score"} objects. For a
  // {texts} template it points at an array with one entry per text. Empty: the whole body.
  std::string scores_pointer;
  // "NEGATIVE=neg,POSITIVE=pos": answers given as {"label","score"} objects are ordered by
  // these labels and renamed. Empty: the order of the first answer's labels.
  std::string label_map;
  // "Name: value" lines; ${VAR} is expanded from the environment. Never logged or cached.
  std::vector<std::string> headers;
  int concurrency = 4;           // connections in parallel
  int max_retries = 5;           // per request, on 429, 5xx, connection errors and time-outs
  double backoff_seconds = 0.5;  // first back-off; doubled each retry, with jitter
  std::string ca_file;           // extra CA certificate(s) for HTTPS; verification is always on
  // The largest answer body accepted (chunked or not), refused as soon as it is passed.
  std::size_t max_answer_bytes = std::size_t{16} << 20;
};

struct ModelOptions {
  // Label names; required for cmd: children that do not send {"labels": [...]} first, and
  // overrides what an adapter reports otherwise (same count).
  std::vector<std::string> labels;
  double timeout_seconds = 60;  // an answer that takes longer is an error (after retries)
  CommandModelOptions command;
  HttpModelOptions http;
};

std::unique_ptr<Model> open_model(const std::string& spec, const ModelOptions& options = {});

// core::split_command_words (core/child_process.h), which splits "PROGRAM ARGS..." into words.
using core::split_command_words;

}  // namespace assay::models
