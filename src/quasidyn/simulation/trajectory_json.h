#pragma once
// Trajectory files: a Trajectory (trajectory.h) as JSON, every field documented with its
// unit in docs/trajectory-format.md. Numbers are written with enough digits (shortest
// round-trip form) that reading a file back gives the same doubles bit for bit; the
// non-finite numbers JSON cannot hold are written as the strings "NaN", "Infinity" and
// "-Infinity".

#include <nlohmann/json.hpp>
#include <string>

#include "quasidyn/simulation/trajectory.h"

namespace quasidyn {

// The format written by this version (the header field "format_version").
inline constexpr int kTrajectoryFormatVersion = 1;

nlohmann::json TrajectoryToJson(const Trajectory& trajectory);

// Throws std::invalid_argument naming the field (e.g. "steps[3].q: expected 7 numbers, got 6")
// on a missing field, a wrong type or size, or an unsupported format version.
Trajectory TrajectoryFromJson(const nlohmann::json& json);

// Writes the JSON (indented with `indent` spaces, or compact when indent < 0) to `path`,
// atomically (common/atomic_file_writer.h: a failed write leaves a previous file as it was).
// Throws std::invalid_argument for an empty path, std::runtime_error naming the path and the
// reason when it cannot be written.
void WriteTrajectoryFile(const Trajectory& trajectory, const std::string& path, int indent = -1);

// Reads a file written by WriteTrajectoryFile. Throws std::runtime_error naming the path on a
// missing file or bad JSON, std::invalid_argument (prefixed with the path) on bad content.
Trajectory ReadTrajectoryFile(const std::string& path);

}  // namespace quasidyn
