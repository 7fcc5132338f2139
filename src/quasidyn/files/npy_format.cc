#include "quasidyn/files/npy_format.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "quasidyn/files/utf8.h"

namespace quasidyn {
namespace {

[[noreturn]] void Fail(const std::string& where, const std::string& problem) {
  throw std::invalid_argument(where + ": " + problem);
}

// ---- little-endian integers ----

void Put(std::string* out, std::uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out->push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
}

std::uint64_t Get(const std::string& in, size_t at, int bytes, const std::string& where) {
  if (at > in.size() || in.size() - at < static_cast<size_t>(bytes))
    Fail(where, "truncated (needs " + std::to_string(bytes) + " bytes at offset " +
                    std::to_string(at) + ")");
  std::uint64_t value = 0;
  for (int i = 0; i < bytes; ++i)
    value |= static_cast<std::uint64_t>(static_cast<unsigned char>(in[at + i])) << (8 * i);
  return value;
}

template <typename T>
void PutValues(std::string* out, const std::vector<T>& values) {
  static_assert(std::numeric_limits<double>::is_iec559);
  const size_t start = out->size();
  out->resize(start + values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(out->data() + start, values.data(), values.size() * sizeof(T));
}

template <typename T>
std::vector<T> GetValues(const std::string& in, size_t at, std::int64_t count) {
  std::vector<T> values(static_cast<size_t>(count));
  if (count > 0) std::memcpy(values.data(), in.data() + at, values.size() * sizeof(T));
  return values;
}

// ---- .npy ----

size_t ItemSize(const NpyArray& a, int unicode_width) {
  switch (a.type) {
    case NpyArray::Type::kFloat64:
    case NpyArray::Type::kInt64:
      return 8;
    case NpyArray::Type::kInt32:
      return 4;
    case NpyArray::Type::kBool:
      return 1;
    case NpyArray::Type::kUnicode:
      return 4 * static_cast<size_t>(unicode_width);
  }
  return 0;
}

// A Python tuple: "()", "(3,)", "(3, 4)".
std::string ShapeText(const std::vector<std::int64_t>& shape) {
  std::string text = "(";
  for (size_t i = 0; i < shape.size(); ++i) text += (i > 0 ? ", " : "") + std::to_string(shape[i]);
  return text + (shape.size() == 1 ? ",)" : ")");
}

// The value of key 'key' in the header dict: the text from after "'key': " up to the next
// top-level ',' (shapes keep their parentheses).
std::string HeaderValue(const std::string& header, const std::string& key,
                        const std::string& where) {
  const std::string marker = "'" + key + "':";
  const size_t at = header.find(marker);
  if (at == std::string::npos) Fail(where, "the .npy header has no '" + key + "'");
  size_t i = at + marker.size();
  while (i < header.size() && header[i] == ' ') ++i;
  size_t end = i;
  int depth = 0;
  while (end < header.size() && (depth > 0 || (header[end] != ',' && header[end] != '}'))) {
    if (header[end] == '(') ++depth;
    if (header[end] == ')') --depth;
    ++end;
  }
  return header.substr(i, end - i);
}

std::vector<std::int64_t> ParseShape(const std::string& text, const std::string& where) {
  if (text.size() < 2 || text.front() != '(' || text.back() != ')')
    Fail(where, "bad shape " + text);
  std::vector<std::int64_t> shape;
  std::string item;
  const auto flush = [&] {
    if (item.empty()) return;
    if (item.size() > 12) Fail(where, "shape entry too large: " + item);
    for (char d : item)
      if (d < '0' || d > '9') Fail(where, "bad shape " + text);
    shape.push_back(std::stoll(item));
    item.clear();
  };
  for (size_t i = 1; i + 1 < text.size(); ++i) {
    if (text[i] == ',') {
      flush();
    } else if (text[i] != ' ') {
      item += text[i];
    }
  }
  flush();
  return shape;
}

}  // namespace

std::int64_t NpyArray::size() const {
  std::int64_t count = 1;
  for (std::int64_t d : shape) count *= d;
  return count;
}

NpyArray NpyArray::Float64(std::vector<std::int64_t> shape, std::vector<double> values) {
  NpyArray a;
  a.type = Type::kFloat64;
  a.shape = std::move(shape);
  a.f64 = std::move(values);
  return a;
}
NpyArray NpyArray::Int64(std::vector<std::int64_t> shape, std::vector<std::int64_t> values) {
  NpyArray a;
  a.type = Type::kInt64;
  a.shape = std::move(shape);
  a.i64 = std::move(values);
  return a;
}
NpyArray NpyArray::Int32(std::vector<std::int64_t> shape, std::vector<std::int32_t> values) {
  NpyArray a;
  a.type = Type::kInt32;
  a.shape = std::move(shape);
  a.i32 = std::move(values);
  return a;
}
NpyArray NpyArray::Bool(std::vector<std::int64_t> shape, std::vector<std::uint8_t> values) {
  NpyArray a;
  a.type = Type::kBool;
  a.shape = std::move(shape);
  a.b1 = std::move(values);
  return a;
}
NpyArray NpyArray::Unicode(std::vector<std::int64_t> shape, std::vector<std::string> values) {
  NpyArray a;
  a.type = Type::kUnicode;
  a.shape = std::move(shape);
  a.text = std::move(values);
  return a;
}

std::string NpyBytes(const std::string& name, const NpyArray& a) {
  const std::int64_t count = a.size();
  const auto check_count = [&](size_t n) {
    if (static_cast<std::int64_t>(n) != count)
      Fail(name, "holds " + std::to_string(n) + " values for shape " + ShapeText(a.shape));
  };
  std::vector<std::u32string> codes;
  int width = 1;
  switch (a.type) {
    case NpyArray::Type::kFloat64:
      check_count(a.f64.size());
      break;
    case NpyArray::Type::kInt64:
      check_count(a.i64.size());
      break;
    case NpyArray::Type::kInt32:
      check_count(a.i32.size());
      break;
    case NpyArray::Type::kBool:
      check_count(a.b1.size());
      break;
    case NpyArray::Type::kUnicode:
      check_count(a.text.size());
      codes.resize(a.text.size());
      for (size_t i = 0; i < a.text.size(); ++i) {
        if (!DecodeUtf8(a.text[i], &codes[i])) Fail(name, "a string is not UTF-8");
        width = std::max(width, static_cast<int>(codes[i].size()));
      }
      break;
  }
  const char* descr = a.type == NpyArray::Type::kFloat64 ? "<f8"
                      : a.type == NpyArray::Type::kInt64 ? "<i8"
                      : a.type == NpyArray::Type::kInt32 ? "<i4"
                      : a.type == NpyArray::Type::kBool  ? "|b1"
                                                         : nullptr;
  std::string header = "{'descr': '" + (descr ? std::string(descr) : "<U" + std::to_string(width)) +
                       "', 'fortran_order': False, 'shape': " + ShapeText(a.shape) + ", }";
  // Magic (6) + version (2) + header length (2) + header + '\n', a multiple of 64.
  const size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string out("\x93NUMPY\x01\x00", 8);
  Put(&out, header.size(), 2);
  out += header;
  out.reserve(out.size() + static_cast<size_t>(count) * ItemSize(a, width));
  switch (a.type) {
    case NpyArray::Type::kFloat64:
      PutValues(&out, a.f64);
      break;
    case NpyArray::Type::kInt64:
      PutValues(&out, a.i64);
      break;
    case NpyArray::Type::kInt32:
      PutValues(&out, a.i32);
      break;
    case NpyArray::Type::kBool:
      PutValues(&out, a.b1);
      break;
    case NpyArray::Type::kUnicode:
      for (const std::u32string& s : codes)
        for (int i = 0; i < width; ++i) Put(&out, i < static_cast<int>(s.size()) ? s[i] : 0, 4);
      break;
  }
  return out;
}

NpyArray ParseNpy(const std::string& bytes, const std::string& where) {
  if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0)
    Fail(where, "not a .npy array (bad magic)");
  const int major = static_cast<unsigned char>(bytes[6]);
  size_t header_length = 0, at = 0;
  if (major == 1) {
    header_length = Get(bytes, 8, 2, where);
    at = 10;
  } else if (major == 2 || major == 3) {
    header_length = Get(bytes, 8, 4, where);
    at = 12;
  } else {
    Fail(where, ".npy version " + std::to_string(major) + " is not supported");
  }
  if (bytes.size() - at < header_length) Fail(where, "truncated .npy header");
  const std::string header = bytes.substr(at, header_length);
  at += header_length;
  const std::string descr = HeaderValue(header, "descr", where);
  const std::string fortran = HeaderValue(header, "fortran_order", where);
  NpyArray a;
  a.shape = ParseShape(HeaderValue(header, "shape", where), where);
  std::int64_t count = 1;
  for (std::int64_t d : a.shape) {
    if (d < 0 || (d > 0 && count > std::numeric_limits<std::int64_t>::max() / 8 / d))
      Fail(where, "shape too large");
    count *= d;
  }
  if (fortran != "False" && a.shape.size() > 1)
    Fail(where, "Fortran-ordered arrays are not supported (save in C order)");
  int width = 0;
  if (descr == "'<f8'") {
    a.type = NpyArray::Type::kFloat64;
  } else if (descr == "'<i8'") {
    a.type = NpyArray::Type::kInt64;
  } else if (descr == "'<i4'") {
    a.type = NpyArray::Type::kInt32;
  } else if (descr == "'|b1'") {
    a.type = NpyArray::Type::kBool;
  } else if (descr.size() >= 5 && descr.compare(0, 3, "'<U") == 0 && descr.back() == '\'') {
    a.type = NpyArray::Type::kUnicode;
    const std::string digits = descr.substr(3, descr.size() - 4);
    if (digits.empty() || digits.size() > 6) Fail(where, "bad dtype " + descr);
    for (char d : digits)
      if (d < '0' || d > '9') Fail(where, "bad dtype " + descr);
    width = std::stoi(digits);
  } else {
    Fail(where, "dtype " + descr + " is not supported (<f8, <i8, <i4, |b1, <U)");
  }
  const size_t item = ItemSize(a, width);
  if (item == 0 && count > 0) Fail(where, "zero-width strings");
  if (item > 0 && static_cast<std::uint64_t>(count) > (bytes.size() - at) / item)
    Fail(where, "holds fewer bytes than its shape " + ShapeText(a.shape) + " needs");
  if (bytes.size() - at != static_cast<size_t>(count) * item)
    Fail(where, "holds more bytes than its shape " + ShapeText(a.shape) + " needs");
  switch (a.type) {
    case NpyArray::Type::kFloat64:
      a.f64 = GetValues<double>(bytes, at, count);
      break;
    case NpyArray::Type::kInt64:
      a.i64 = GetValues<std::int64_t>(bytes, at, count);
      break;
    case NpyArray::Type::kInt32:
      a.i32 = GetValues<std::int32_t>(bytes, at, count);
      break;
    case NpyArray::Type::kBool:
      a.b1 = GetValues<std::uint8_t>(bytes, at, count);
      break;
    case NpyArray::Type::kUnicode:
      a.text.resize(static_cast<size_t>(count));
      for (std::int64_t k = 0; k < count; ++k) {
        for (int i = 0; i < width; ++i) {
          const auto code = static_cast<char32_t>(Get(bytes, at + 4 * (k * width + i), 4, where));
          if (code == 0) break;
          if (!AppendUtf8(code, &a.text[k])) Fail(where, "a string holds an invalid code point");
        }
      }
      break;
  }
  return a;
}

}  // namespace quasidyn
