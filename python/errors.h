// The library's errors as Python exceptions, with the same messages ("file:line: what was
// expected"):
//   assay.Error (Exception)                  core::Error
//   ├── assay.ParseError (ValueError)        core::ParseError: malformed content of a file
//   ├── assay.UsageError (ValueError)        core::UsageError: a bad argument or option value
//   ├── assay.IoError (OSError)              core::IoError: a file that cannot be read or written
//   ├── assay.MissingResourceError           core::MissingResourceError: data not installed
//   └── assay.ModelError                     models::ModelError: the model under test misbehaved
// Each carries `path`, `line` and `column` (None when unknown) and `detail` (the message
// without its location).
#pragma once

#include <pybind11/pybind11.h>

namespace assay::python {

void register_errors(pybind11::module_& m);

}  // namespace assay::python
