#include "quasidyn/files/npz_archive.h"

#include <gtest/gtest.h>
#include <zip.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace quasidyn {
namespace {

std::string NpzArchiveErrorOf(const std::string& bytes) {
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

// An archive of `archive`'s arrays as np.savez_compressed writes it: deflated entries.
std::string Deflated(const NpzArchive& archive) {
  zip_error_t error;
  zip_error_init(&error);
  zip_source_t* buffer = zip_source_buffer_create(nullptr, 0, 0, &error);
  zip_source_keep(buffer);
  zip_t* zip = zip_open_from_source(buffer, ZIP_TRUNCATE, &error);
  std::vector<std::string> entries;
  for (const auto& [name, array] : archive) entries.push_back(NpyBytes(name, array));
  size_t k = 0;
  for (const auto& [name, array] : archive) {
    zip_source_t* entry = zip_source_buffer(zip, entries[k].data(), entries[k].size(), 0);
    ++k;
    const zip_int64_t index = zip_file_add(zip, (name + ".npy").c_str(), entry, 0);
    zip_set_file_compression(zip, static_cast<zip_uint64_t>(index), ZIP_CM_DEFLATE, 9);
  }
  zip_close(zip);
  zip_stat_t stat;
  zip_stat_init(&stat);
  zip_source_stat(buffer, &stat);
  std::string out(static_cast<size_t>(stat.size), '\0');
  zip_source_open(buffer);
  zip_source_read(buffer, out.data(), out.size());
  zip_source_close(buffer);
  zip_source_free(buffer);
  zip_error_fini(&error);
  return out;
}

void ExpectBitwiseEqual(const NpzArchive& a, const NpzArchive& b) {
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

TEST(NpzArchive, EveryDtypeRoundTripsBitForBit) {
  const NpzArchive a = Sample();
  ExpectBitwiseEqual(a, NpzFromBytes(NpzToBytes(a)));
}

TEST(NpzArchive, DeflatedEntriesAsNpSavezCompressedWritesThemAreRead) {
  const NpzArchive a = Sample();
  const std::string deflated = Deflated(a);
  ASSERT_LT(deflated.size(), NpzToBytes(a).size());  // really compressed
  ExpectBitwiseEqual(a, NpzFromBytes(deflated));
}

TEST(NpzArchive, EqualArraysGiveEqualBytesStoredWithTheZipEpochAsTime) {
  const std::string bytes = NpzToBytes(Sample());
  EXPECT_EQ(bytes, NpzToBytes(Sample()));
  // The first local header (APPNOTE 4.3.7): method 0 (stored) at offset 8, the MS-DOS time and
  // date at 10 and 12: 00:00 on 1980-01-01, whatever the clock and the time zone.
  ASSERT_EQ(bytes.compare(0, 4, "PK\x03\x04"), 0);
  const auto u16 = [&](size_t at) {
    return static_cast<unsigned>(static_cast<unsigned char>(bytes[at])) |
           static_cast<unsigned>(static_cast<unsigned char>(bytes[at + 1])) << 8;
  };
  EXPECT_EQ(u16(8), 0u);
  EXPECT_EQ(u16(10), 0u);
  EXPECT_EQ(u16(12), 0x21u);
}

TEST(NpzArchive, MalformedArchivesAreNamedNotCrashed) {
  const std::string good = NpzToBytes(Sample());
  EXPECT_NE(NpzArchiveErrorOf("").find("too short"), std::string::npos);
  EXPECT_NE(NpzArchiveErrorOf(std::string(100, 'x')).find("not a ZIP"), std::string::npos);
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
  EXPECT_NE(NpzArchiveErrorOf(flipped), "no exception");
  // A stored entry declared deflated (the central entry's method) does not inflate.
  std::string method = good;
  method[good.find(std::string("PK\x01\x02", 4)) + 10] = 8;
  EXPECT_NE(NpzArchiveErrorOf(method), "no exception");
  // Values that do not fit the shape are refused when writing.
  NpzArchive wrong;
  wrong["x"] = NpyArray::Float64({2, 2}, {1.0});
  EXPECT_THROW(NpzToBytes(wrong), std::invalid_argument);
}

}  // namespace
}  // namespace quasidyn
