#pragma once
// Path arguments of the bindings: what Python's own file functions take, a str, bytes or any
// os.PathLike (pathlib.Path), converted with the file-system encoding (os.fspath, then
// os.fsencode) to the library's std::string. Every argument that names a file or a folder is a
// PathArgument (python/tests/test_paths.py checks the signatures).

#include <pybind11/pybind11.h>

#include <string>

namespace quasidyn::python {

struct PathArgument {
  std::string value;
};

}  // namespace quasidyn::python

namespace pybind11::detail {

template <>
struct type_caster<quasidyn::python::PathArgument> {
  PYBIND11_TYPE_CASTER(quasidyn::python::PathArgument, const_name("Union[str, os.PathLike]"));

  // Not a path (an int, None): false, so pybind11 raises its TypeError listing the signature.
  // A path Python itself refuses (an embedded NUL byte, unencodable text) raises its ValueError
  // or UnicodeError.
  bool load(handle src, bool) {
    object fs_path = reinterpret_steal<object>(PyOS_FSPath(src.ptr()));
    if (!fs_path) {
      PyErr_Clear();
      return false;
    }
    PyObject* encoded = nullptr;
    if (PyUnicode_FSConverter(fs_path.ptr(), &encoded) == 0) throw error_already_set();
    const object bytes = reinterpret_steal<object>(encoded);
    char* data = nullptr;
    ssize_t size = 0;
    if (PyBytes_AsStringAndSize(bytes.ptr(), &data, &size) != 0) throw error_already_set();
    value.value.assign(data, static_cast<size_t>(size));
    return true;
  }

  static handle cast(const quasidyn::python::PathArgument& src, return_value_policy, handle) {
    return PyUnicode_DecodeFSDefaultAndSize(src.value.data(),
                                            static_cast<ssize_t>(src.value.size()));
  }
};

}  // namespace pybind11::detail
