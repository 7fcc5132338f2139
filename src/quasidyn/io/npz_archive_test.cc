#include "quasidyn/io/npz_archive.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

namespace quasidyn {
namespace {

std::string ErrorOf(const std::string& bytes) {
  try {
    NpzFromBytes(bytes);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no exception";
}

NpzArchive Sample() {
  NpzArchive a;
  a["f"] = NpyArray::Float64({2, 3}, {1.0, -0.0, std::numeric_limits<double>::quiet_NaN(),
                                      std::numeric_limits<double>::infinity(), 1e-310, 1.0 / 3});
  a["i"] = NpyArray::Int64({3}, {-1, 0, std::numeric_limits<std::int64_t>::max()});
  a["j"] = NpyArray::Int32({0}, {});
  a["b"] = NpyArray::Bool({2}, {1, 0});
  a["s"] = NpyArray::Unicode({3}, {"", "gripper/x_left", "μ → ∞ 🙂"});
  a["scalar"] = NpyArray::Unicode({}, {"quasidyn"});
  return a;
}

TEST(NpzArchive, Crc32OfTheCheckString) {
  EXPECT_EQ(Crc32("123456789", 9), 0xCBF43926u);  // the CRC-32 check value
}

TEST(NpzArchive, EveryDtypeRoundTripsBitForBit) {
  const NpzArchive a = Sample();
  const NpzArchive b = NpzFromBytes(NpzToBytes(a));
  ASSERT_EQ(b.size(), a.size());
  for (const auto& [name, x] : a) {
    const NpyArray& y = b.at(name);
    EXPECT_EQ(x.type, y.type) << name;
    EXPECT_EQ(x.shape, y.shape) << name;
    ASSERT_EQ(x.f64.size(), y.f64.size()) << name;
    for (size_t i = 0; i < x.f64.size(); ++i)
      EXPECT_EQ(std::memcmp(&x.f64[i], &y.f64[i], sizeof(double)), 0) << name << i;
    EXPECT_EQ(x.i64, y.i64) << name;
    EXPECT_EQ(x.i32, y.i32) << name;
    EXPECT_EQ(x.b1, y.b1) << name;
    EXPECT_EQ(x.text, y.text) << name;
  }
}

TEST(NpzArchive, MalformedArchivesAreNamedNotCrashed) {
  const std::string good = NpzToBytes(Sample());
  EXPECT_NE(ErrorOf("").find("too short"), std::string::npos);
  EXPECT_NE(ErrorOf(std::string(100, 'x')).find("not a ZIP"), std::string::npos);
  // Every truncation and every single-byte corruption is an error or a valid archive, never a
  // crash (a flipped data byte is caught by the CRC).
  for (size_t cut = 0; cut < good.size(); cut += 7) {
    try {
      NpzFromBytes(good.substr(0, cut));
    } catch (const std::invalid_argument&) {
    }
  }
  for (size_t at = 0; at < good.size(); at += 3) {
    std::string bad = good;
    bad[at] = static_cast<char>(bad[at] ^ 0x5A);
    try {
      NpzFromBytes(bad);
    } catch (const std::invalid_argument&) {
    }
  }
  std::string flipped = good;
  flipped[200] = static_cast<char>(flipped[200] ^ 1);
  EXPECT_NE(ErrorOf(flipped), "no exception");
  // A deflated entry (np.savez_compressed) is refused with the reason.
  std::string method = good;
  method[good.find(std::string("PK\x01\x02", 4)) + 10] = 8;  // the central entry's method
  EXPECT_NE(ErrorOf(method).find("compressed"), std::string::npos) << ErrorOf(method);
  // Values that do not fit the shape are refused when writing.
  NpzArchive wrong;
  wrong["x"] = NpyArray::Float64({2, 2}, {1.0});
  EXPECT_THROW(NpzToBytes(wrong), std::invalid_argument);
}

}  // namespace
}  // namespace quasidyn
