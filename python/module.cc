// `import assay`: the library for Python (docs/python.md). Errors are assay.Error and its
// subclasses (errors.h); long calls release the GIL, stop on Ctrl-C and take an optional
// progress callback (interrupt.h).
#include <pybind11/pybind11.h>

#include "bindings.h"
#include "core/version.h"
#include "errors.h"

PYBIND11_MODULE(assay, m) {
  m.doc() =
      "assay: tests of ML software. assay.fair (fairness of NLP models), assay.aeon (quality "
      "of generated test cases), assay.rec (recommender stability), assay.models (the "
      "library's model adapters). See docs/python.md.";
  m.attr("__version__") = assay::core::kVersion;
  assay::python::register_errors(m);
  assay::python::add_fair(m);
  assay::python::add_aeon(m);
  assay::python::add_rec(m);
  assay::python::add_models(m);
}
