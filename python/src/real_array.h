#pragma once
// Array arguments of the bindings: real numbers only. pybind11's Eigen conversion force-casts
// any numpy array, so a complex q would silently lose its imaginary part; RealVector and
// RealMatrix convert like Eigen::VectorXd / MatrixXd, and RealArray (any number of dimensions,
// e.g. the (B, N, nu) commands of rollout_batch) like a C-ordered float64 numpy array, but all
// raise TypeError for complex, boolean, string and object data.

#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <Eigen/Core>

namespace quasidyn::python {

struct RealVector {
  Eigen::VectorXd value;
};
struct RealMatrix {
  Eigen::MatrixXd value;
};
struct RealArray {
  pybind11::array_t<double, pybind11::array::c_style | pybind11::array::forcecast> value;
};

// Throws pybind11::type_error unless `src` converts to an array of integers or floats.
void RequireRealNumbers(pybind11::handle src);

}  // namespace quasidyn::python

namespace pybind11::detail {

template <typename Wrapper, typename Eigen_type>
struct real_array_caster {
  PYBIND11_TYPE_CASTER(Wrapper, make_caster<Eigen_type>::name);
  bool load(handle src, bool convert) {
    quasidyn::python::RequireRealNumbers(src);
    make_caster<Eigen_type> inner;
    if (!inner.load(src, convert)) return false;
    value.value = cast_op<Eigen_type&&>(std::move(inner));
    return true;
  }
  static handle cast(const Wrapper& src, return_value_policy policy, handle parent) {
    return make_caster<Eigen_type>::cast(src.value, policy, parent);
  }
};

template <>
struct type_caster<quasidyn::python::RealVector>
    : real_array_caster<quasidyn::python::RealVector, Eigen::VectorXd> {};
template <>
struct type_caster<quasidyn::python::RealMatrix>
    : real_array_caster<quasidyn::python::RealMatrix, Eigen::MatrixXd> {};

template <>
struct type_caster<quasidyn::python::RealArray> {
  using Array = decltype(quasidyn::python::RealArray::value);
  PYBIND11_TYPE_CASTER(quasidyn::python::RealArray, make_caster<Array>::name);
  bool load(handle src, bool convert) {
    quasidyn::python::RequireRealNumbers(src);
    make_caster<Array> inner;
    if (!inner.load(src, convert)) return false;
    value.value = cast_op<Array&&>(std::move(inner));
    return true;
  }
  static handle cast(const quasidyn::python::RealArray& src, return_value_policy, handle) {
    return src.value.inc_ref();
  }
};

}  // namespace pybind11::detail
