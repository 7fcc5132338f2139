#pragma once
// Array arguments of the bindings: real numbers only. pybind11's Eigen conversion force-casts
// any numpy array, so a complex q would silently lose its imaginary part; RealVector and
// RealMatrix convert like Eigen::VectorXd / MatrixXd but raise TypeError for complex, boolean,
// string and object data.

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

}  // namespace pybind11::detail
