#pragma once
// One NumPy array in NumPy's .npy format 1.0 (numpy.lib.format; versions 2.0 and 3.0 are also
// read): magic "\x93NUMPY", a Python-literal header dict with 'descr', 'fortran_order' and
// 'shape', padded to a multiple of 64 bytes, then the data in C order, little endian. Ours:
// the format is a header line and raw bytes, and no packaged C++ library writes it
// (docs/dependencies.md); the .npz container around it is libzip's (npz_archive.h).
//
// dtypes: '<f8' (double), '<i8' (int64), '<i4' (int32), '|b1' (bool), '<U<w>' (fixed-width
// UTF-32 strings, held here as UTF-8).

#include <cstdint>
#include <string>
#include <vector>

namespace quasidyn {

struct NpyArray {
  enum class Type { kFloat64, kInt64, kInt32, kBool, kUnicode };
  Type type = Type::kFloat64;
  std::vector<std::int64_t> shape;  // () for a scalar
  // The values, in C order, in the vector of the type (the others empty).
  std::vector<double> f64;
  std::vector<std::int64_t> i64;
  std::vector<std::int32_t> i32;
  std::vector<std::uint8_t> b1;
  std::vector<std::string> text;  // UTF-8

  std::int64_t size() const;  // product of shape (1 for a scalar)

  static NpyArray Float64(std::vector<std::int64_t> shape, std::vector<double> values);
  static NpyArray Int64(std::vector<std::int64_t> shape, std::vector<std::int64_t> values);
  static NpyArray Int32(std::vector<std::int64_t> shape, std::vector<std::int32_t> values);
  static NpyArray Bool(std::vector<std::int64_t> shape, std::vector<std::uint8_t> values);
  static NpyArray Unicode(std::vector<std::int64_t> shape, std::vector<std::string> values);
};

// The .npy bytes of `array`. Throws std::invalid_argument("<name>: <problem>") for values that
// do not match the shape or a string that is not UTF-8.
std::string NpyBytes(const std::string& name, const NpyArray& array);

// Parses .npy bytes. Throws std::invalid_argument("<where>: <problem>") for a bad magic or
// header, an unsupported dtype or Fortran order, or a size that does not match the shape.
NpyArray ParseNpy(const std::string& bytes, const std::string& where);

}  // namespace quasidyn
