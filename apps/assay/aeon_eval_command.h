#pragma once

#include <CLI/CLI.hpp>

#include "command.h"

namespace assay::cli {

// `assay aeon eval`: agreement (AP, AUC, PCC) of metric columns of an annotation CSV with the
// human consistency or fluency judgments.
void add_aeon_eval_command(CLI::App& aeon, CommandResult& result);

}  // namespace assay::cli
