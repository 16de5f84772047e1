// The GNU build ID of the program or library that holds assay's code: the hash the linker
// writes into every ELF object (NT_GNU_BUILD_ID), the same for identical builds and different
// for any change of the code. Stores of results that the code computes (chunked_run.h) take it
// into their keys, so a rebuilt assay never serves a result of the code before it, and copies
// of one build on many machines (the shards of one run) agree.
#pragma once

#include <string>

namespace assay::core {

// Lower-case hex; empty where the object has no build ID (a linker told not to write one).
const std::string& build_id();

}  // namespace assay::core
