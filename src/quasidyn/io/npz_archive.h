#pragma once
// NumPy's .npz files, written and read by us (no library): a ZIP archive (PKWARE APPNOTE 6.3,
// "stored" entries, no compression, no ZIP64: each array < 4 GiB) of .npy files (NumPy's
// format 1.0, numpy.lib.format: magic "\x93NUMPY", a Python-literal header dict with 'descr',
// 'fortran_order' and 'shape', padded to a multiple of 64 bytes, then the data in C order,
// little endian). np.load(path) reads what NpzToBytes writes; NpzFromBytes reads the stored
// entries np.savez writes, with the dtypes below (np.savez_compressed's deflated entries are
// refused with a message saying so).
//
// dtypes: '<f8' (double), '<i8' (int64), '<i4' (int32), '|b1' (bool), '<U<w>' (fixed-width
// UTF-32 strings, held here as UTF-8).

#include <cstdint>
#include <map>
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

// Array name (without ".npy") → array.
using NpzArchive = std::map<std::string, NpyArray>;

// The bytes of the .npz file. Throws std::invalid_argument for an array whose values do not
// match its shape, a string that is not UTF-8, or an array of 4 GiB or more.
std::string NpzToBytes(const NpzArchive& archive);

// Parses a .npz file's bytes. Throws std::invalid_argument("<array>: <problem>") for anything
// malformed: a truncated or inconsistent archive, a CRC mismatch, a compressed entry, an
// unsupported dtype or Fortran order, a size that does not match the shape.
NpzArchive NpzFromBytes(const std::string& bytes);

// CRC-32 of the ZIP format (ISO 3309 / ITU-T V.42, polynomial 0xEDB88320 reflected).
std::uint32_t Crc32(const char* data, size_t size);

}  // namespace quasidyn
