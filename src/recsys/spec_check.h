// A recommender spec checked before any work, whatever kind it names: a built-in one is built
// (an unknown name, key or value is a core::UsageError), a program's is resolved (one that
// cannot be found is an error; no file is written, nothing runs), a Python object's name looked
// up among the registered ones.
#pragma once

#include <string>

namespace assay::recsys {

void check_recommender_spec(const std::string& spec);

}  // namespace assay::recsys
