#pragma once
// Trajectory files in NumPy's .npz format (files/npz_archive.h): the fields of the JSON file
// (trajectory_json.h, docs/trajectory-format.md) as arrays, binary and exact (doubles
// round-trip bit for bit), about a third of the JSON's size and written tens of times faster;
// `np.load("run.npz")` reads it without quasidyn. Contacts of all steps are stacked (row i of
// every contact_* array is one contact; contact_count[k] of them belong to step k, in order)
// and their shape and body names are indices into `names`.

#include <string>

#include "quasidyn/files/npz_archive.h"
#include "quasidyn/simulation/trajectory.h"

namespace quasidyn {

NpzArchive TrajectoryToNpz(const Trajectory& trajectory);

// Throws std::invalid_argument naming the array (e.g. "q: expected shape (24, 6)") for a
// missing array, a wrong dtype or shape, or an unsupported format version.
Trajectory TrajectoryFromNpz(const NpzArchive& archive);

}  // namespace quasidyn
