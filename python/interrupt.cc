#include "interrupt.h"

namespace assay::python {

void CallHooks::report(std::uint64_t done, std::uint64_t total) const {
  check();
  if (progress_.is_none()) return;
  pybind11::gil_scoped_acquire acquire;
  progress_(done, total);
}

}  // namespace assay::python
