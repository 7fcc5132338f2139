#include "real_array.h"

#include <string>

namespace py = pybind11;

namespace quasidyn::python {

void RequireRealNumbers(py::handle src) {
  const py::array array = py::array::ensure(src);
  if (!array) return;  // not array-like: the Eigen conversion reports it
  const char kind = array.dtype().kind();
  if (kind != 'f' && kind != 'i' && kind != 'u') {
    throw py::type_error("expected an array of real numbers, got dtype " +
                         py::str(array.dtype()).cast<std::string>() +
                         (kind == 'c' ? " (complex values are not cast to real)" : ""));
  }
}

}  // namespace quasidyn::python
