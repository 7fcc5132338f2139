#include "quasidyn/files/npz_archive.h"

#include <zip.h>

#include <memory>
#include <stdexcept>
#include <vector>

namespace quasidyn {
namespace {

[[noreturn]] void FailNpz(const std::string& where, const std::string& problem) {
  throw std::invalid_argument(where + ": " + problem);
}

// A libzip error record, released on every path.
struct ZipError {
  zip_error_t error;
  ZipError() { zip_error_init(&error); }
  ~ZipError() { zip_error_fini(&error); }
  ZipError(const ZipError&) = delete;
  ZipError& operator=(const ZipError&) = delete;
  std::string text() { return zip_error_strerror(&error); }
};

struct SourceFree {
  void operator()(zip_source_t* source) const { zip_source_free(source); }
};
using SourcePtr = std::unique_ptr<zip_source_t, SourceFree>;

struct ArchiveDiscard {
  void operator()(zip_t* zip) const { zip_discard(zip); }
};
using ArchivePtr = std::unique_ptr<zip_t, ArchiveDiscard>;

struct EntryClose {
  void operator()(zip_file_t* file) const { zip_fclose(file); }
};
using EntryPtr = std::unique_ptr<zip_file_t, EntryClose>;

// The ZIP format's epoch, 1980-01-01 00:00 as MS-DOS date and time (APPNOTE 4.4.6): every
// entry carries it, so the bytes depend on the arrays only (not on the clock or time zone).
constexpr zip_uint16_t kDosTime = 0, kDosDate1980 = 0x21;

// The whole content of a buffer source (after zip_close wrote the archive into it).
std::string SourceBytes(zip_source_t* source) {
  zip_stat_t stat;
  zip_stat_init(&stat);
  if (zip_source_stat(source, &stat) != 0 || (stat.valid & ZIP_STAT_SIZE) == 0 ||
      zip_source_open(source) != 0)
    FailNpz("npz", "cannot read the written archive back");
  std::string out(static_cast<size_t>(stat.size), '\0');
  const zip_int64_t read = zip_source_read(source, out.data(), out.size());
  zip_source_close(source);
  if (read != static_cast<zip_int64_t>(out.size()))
    FailNpz("npz", "cannot read the written archive back");
  return out;
}

// The uncompressed content of entry `index`, read in slices so that memory follows the data
// actually inflated, not the size the archive claims; at most `limit` bytes.
std::string EntryBytes(zip_t* zip, zip_uint64_t index, zip_uint64_t claimed, zip_uint64_t limit,
                       const std::string& where) {
  if (claimed > limit)
    FailNpz(where, "claims " + std::to_string(claimed) + " bytes, more than this archive can hold");
  EntryPtr file(zip_fopen_index(zip, index, 0));
  if (!file) FailNpz(where, zip_strerror(zip));
  std::string out;
  out.reserve(static_cast<size_t>(claimed) + 1);
  constexpr size_t kSlice = size_t{1} << 20;
  for (;;) {
    const size_t at = out.size();
    out.resize(at + kSlice);
    const zip_int64_t n = zip_fread(file.get(), out.data() + at, kSlice);
    if (n < 0) FailNpz(where, zip_file_strerror(file.get()));
    out.resize(at + static_cast<size_t>(n));
    if (n == 0) break;
    if (out.size() > claimed) FailNpz(where, "holds more bytes than its header says");
  }
  if (out.size() != claimed) FailNpz(where, "holds fewer bytes than its header says");
  return out;
}

}  // namespace

std::string NpzToBytes(const NpzArchive& archive) {
  // libzip reads each entry's bytes at zip_close: they live here until then.
  std::vector<std::string> entries;
  entries.reserve(archive.size());
  for (const auto& [name, array] : archive) entries.push_back(NpyBytes(name, array));
  ZipError error;
  SourcePtr buffer(zip_source_buffer_create(nullptr, 0, 0, &error.error));
  if (!buffer) FailNpz("npz", error.text());
  zip_source_keep(buffer.get());  // the archive releases its hold at zip_close; we keep ours
  ArchivePtr zip(zip_open_from_source(buffer.get(), ZIP_TRUNCATE, &error.error));
  if (!zip) {
    zip_source_free(buffer.get());  // the hold zip_open_from_source did not take
    FailNpz("npz", error.text());
  }
  size_t k = 0;
  for (const auto& [name, array] : archive) {
    const std::string& bytes = entries[k++];
    zip_source_t* entry = zip_source_buffer(zip.get(), bytes.data(), bytes.size(), 0);
    const zip_int64_t index =
        entry ? zip_file_add(zip.get(), (name + ".npy").c_str(), entry, ZIP_FL_ENC_UTF_8) : -1;
    if (index < 0) {
      if (entry) zip_source_free(entry);
      FailNpz(name, zip_strerror(zip.get()));
    }
    const auto i = static_cast<zip_uint64_t>(index);
    if (zip_set_file_compression(zip.get(), i, ZIP_CM_STORE, 0) != 0 ||
        zip_file_set_dostime(zip.get(), i, kDosTime, kDosDate1980, 0) != 0)
      FailNpz(name, zip_strerror(zip.get()));
  }
  if (zip_close(zip.get()) != 0) FailNpz("npz", zip_strerror(zip.get()));
  zip.release();  // closed: zip_close freed it
  return SourceBytes(buffer.get());
}

NpzArchive NpzFromBytes(const std::string& bytes) {
  // The end of central directory record alone is 22 bytes (APPNOTE 4.3.16).
  if (bytes.size() < 22) FailNpz("npz", "too short for a ZIP archive");
  ZipError error;
  zip_source_t* source = zip_source_buffer_create(bytes.data(), bytes.size(), 0, &error.error);
  if (!source) FailNpz("npz", error.text());
  ArchivePtr zip(zip_open_from_source(source, ZIP_RDONLY | ZIP_CHECKCONS, &error.error));
  if (!zip) {
    zip_source_free(source);
    FailNpz("npz", "not a ZIP archive, or a damaged one (" + error.text() + ")");
  }
  // Deflate inflates at most 1032:1 (RFC 1951's longest match per code): a larger claim is a lie.
  const zip_uint64_t limit = static_cast<zip_uint64_t>(bytes.size()) * 1032;
  NpzArchive archive;
  const zip_int64_t count = zip_get_num_entries(zip.get(), 0);
  for (zip_int64_t e = 0; e < count; ++e) {
    const auto index = static_cast<zip_uint64_t>(e);
    zip_stat_t stat;
    zip_stat_init(&stat);
    if (zip_stat_index(zip.get(), index, 0, &stat) != 0) FailNpz("npz", zip_strerror(zip.get()));
    std::string file = (stat.valid & ZIP_STAT_NAME) ? stat.name : "entry " + std::to_string(e);
    if ((stat.valid & ZIP_STAT_ENCRYPTION_METHOD) && stat.encryption_method != ZIP_EM_NONE)
      FailNpz(file, "is encrypted");
    if (file.size() < 4 || file.compare(file.size() - 4, 4, ".npy") != 0)
      FailNpz(file, "is not a .npy array");
    if ((stat.valid & ZIP_STAT_SIZE) == 0) FailNpz(file, "has no size");
    const std::string content = EntryBytes(zip.get(), index, stat.size, limit, file);
    file.resize(file.size() - 4);
    archive[file] = ParseNpy(content, file);
  }
  return archive;
}

}  // namespace quasidyn
