// DiffBindings.cpp - diff_tolerance and compare_buffers (DiffBindings.h).
#include "DiffBindings.h"

#include <pybind11/stl.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "CompileCache.h"
#include "interpreter/Interpreter.h"
#include "interpreter/Numeric.h"
#include "runtime/Compare.h"

namespace py = pybind11;

namespace tilevm::py_ext {

void bindDiff(py::module_& m) {
  m.def(
      "diff_tolerance",
      [](const std::string& signature, const std::map<std::string, std::string>& defines, const py::object& unit,
         int64_t unitKey) {
        // The tolerance `tilevm diff` grants a kernel given none (rt::defaultTolerance).
        auto c = compileUnit(unitKey, unit, signature, defines);
        const rt::Tolerance d = rt::defaultTolerance(*c->loaded.kernel);
        py::dict t;
        t["max_ulps"] = d.maxUlps;
        t["relative"] = d.relative;
        t["scale_by_rms"] = d.scaleByRms;
        t["tf32_dot"] = d.tf32Dot;
        t["rounded_rtol"] = d.roundedRtol;
        // Programs ordered by a lock: floats summed in the order they take it (GPU vs interpreter
        // as between the interpreter's own schedules).
        t["order_dependent"] = rt::orderDependence(*c->loaded.kernel);
        // Computed operands rounded before a dot: named by a report of a few divergent elements.
        t["rounded_operands"] = rt::roundedDotOperands(*c->loaded.module, *c->loaded.kernel);
        return t;
      },
      py::arg("signature"), py::arg("defines"), py::arg("unit"), py::arg("unit_key"),
      "The tolerance `tilevm diff` grants the compiled kernel: {max_ulps, relative, scale_by_rms, tf32_dot, rounded_rtol,\n"
      "order_dependent, rounded_operands}");
  m.def(
      "compare_buffers",
      [](const std::string& name, const std::string& dtype, const std::vector<int64_t>& shape, const py::buffer& expected,
         const py::buffer& actual, const py::dict& tolerance) {
        // rt::compareBuffers, `tilevm diff`'s comparison: `expected` (the interpreter's) and
        // `actual` (the GPU's) are the elements' bytes in row-major order of `shape`.
        auto bufferOf = [&](const py::buffer& b) {
          py::buffer_info info = b.request();
          interp::Buffer out;
          out.name = name;
          out.elem = kindOf(dtype);
          out.shape = shape;
          const uint8_t* p = static_cast<const uint8_t*>(info.ptr);
          out.bytes.assign(p, p + size_t(info.size) * size_t(info.itemsize));
          return out;
        };
        interp::Buffer e = bufferOf(expected), a = bufferOf(actual);
        size_t want = size_t(e.numel()) * interp::storageBytes(e.elem);
        if (e.bytes.size() != want || a.bytes.size() != want)
          throw py::value_error("compare_buffers('" + name + "'): " + std::to_string(e.bytes.size()) + " and " +
                                std::to_string(a.bytes.size()) + " bytes for " + std::to_string(e.numel()) + " elements of " +
                                dtype + " (" + std::to_string(want) + " bytes)");
        rt::Tolerance tol;
        tol.maxUlps = tolerance.contains("max_ulps") ? tolerance["max_ulps"].cast<uint64_t>() : 0;
        tol.relative = tolerance.contains("relative") && tolerance["relative"].cast<bool>();
        tol.scaleByRms = tolerance.contains("scale_by_rms") && tolerance["scale_by_rms"].cast<bool>();
        tol.tf32Dot = tolerance.contains("tf32_dot") && tolerance["tf32_dot"].cast<bool>();
        tol.roundedRtol = tolerance.contains("rounded_rtol") ? tolerance["rounded_rtol"].cast<double>() : 0;
        tol.rtol = tolerance.contains("rtol") ? tolerance["rtol"].cast<double>() : -1;
        tol.atol = tolerance.contains("atol") ? tolerance["atol"].cast<double>() : -1;
        if (tolerance.contains("order_dependent")) tol.orderDependent = tolerance["order_dependent"].cast<std::string>();
        rt::BufferDiff d = rt::compareBuffers(e, a, tol);
        py::dict r;
        r["buffer"] = d.buffer;
        r["elements"] = d.elements;
        r["mismatches"] = d.mismatches;
        r["max_abs_error"] = d.maxAbsError;
        r["max_ulps"] = d.maxUlps;
        r["order_dependent"] = d.orderDependent;  // elements within the summation-order tolerance
        r["is_float"] = d.isFloat;
        r["shape_error"] = d.shapeError;
        r["text"] = rt::describe(d);
        if (d.first) {
          py::dict f;
          f["flat"] = d.first->flat;
          f["index"] = py::tuple(py::cast(d.first->index));
          f["expected"] = d.first->expected;  // the interpreter's value
          f["actual"] = d.first->actual;      // the GPU's value
          f["ulps"] = d.first->ulps == UINT64_MAX ? py::object(py::none()) : py::object(py::int_(d.first->ulps));
          f["nan_in_one"] = d.first->ulps == UINT64_MAX;
          r["first"] = f;
        } else {
          r["first"] = py::none();
        }
        return r;
      },
      py::arg("name"), py::arg("dtype"), py::arg("shape"), py::arg("expected"), py::arg("actual"), py::arg("tolerance"),
      "`tilevm diff`'s comparison of one buffer: exact for integers and booleans, ulps or relative error for floats, "
      "NaN positions matched; the first divergence located");
}

}  // namespace tilevm::py_ext
