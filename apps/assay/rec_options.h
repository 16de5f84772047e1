// Options every `rec` command shares: the data and algorithm help texts, and what a program of
// the user's own (`--algorithm cmd:PROGRAM [ARGS...]`) is given (--timeout).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace assay::cli {

// Help of --data: every data spec form.
extern const char* const kRecDataHelp;
// Help of --algorithm / --algorithms: built-in specs and cmd:PROGRAM.
extern const char* const kRecAlgorithmHelp;

struct RecProgramOptions {
  double timeout_seconds = 600;
};

// Adds --timeout (seconds one training of a cmd: program may take).
void add_rec_program_options(CLI::App* cmd, RecProgramOptions& options);

// Makes every cmd: recommender of this process use `options`; call before the first training.
void apply_rec_program_options(const RecProgramOptions& options);

// Checks a cmd: spec's program can run (core::UsageError otherwise); other specs: nothing.
void check_rec_program(const std::string& spec);

}  // namespace assay::cli
