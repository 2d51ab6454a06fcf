// DiffBindings.h - the module's comparison functions, `tilevm diff`'s (runtime/Compare.h) for
// --diff triton: diff_tolerance (a kernel's default tolerance) and compare_buffers.
#pragma once

#include <pybind11/pybind11.h>

namespace tilevm::py_ext {

/// Adds diff_tolerance and compare_buffers to the module.
void bindDiff(pybind11::module_& m);

}  // namespace tilevm::py_ext
