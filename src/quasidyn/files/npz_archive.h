#pragma once
// NumPy's .npz files: a ZIP archive of .npy arrays (npy_format.h), one entry "<name>.npy" per
// array. The ZIP container is libzip's (PKWARE APPNOTE, ZIP64 where an entry or the archive
// passes 4 GiB): NpzToBytes writes stored (uncompressed) entries as np.savez does, with a fixed
// modification time so that equal archives are equal bytes; NpzFromBytes reads stored and
// deflated entries (np.savez and np.savez_compressed), with libzip's CRC-32 check.

#include <map>
#include <string>

#include "quasidyn/files/npy_format.h"

namespace quasidyn {

// Array name (without ".npy") → array.
using NpzArchive = std::map<std::string, NpyArray>;

// The bytes of the .npz file. Throws std::invalid_argument("<array>: <problem>") for an array
// whose values do not match its shape or a string that is not UTF-8.
std::string NpzToBytes(const NpzArchive& archive);

// Parses a .npz file's bytes. Throws std::invalid_argument("<array or npz>: <problem>") for
// anything malformed: not a ZIP archive, a truncated or inconsistent one, a CRC mismatch, an
// encrypted entry, an entry that is not .npy, an unsupported dtype or Fortran order, a size
// that does not match the shape.
NpzArchive NpzFromBytes(const std::string& bytes);

}  // namespace quasidyn
