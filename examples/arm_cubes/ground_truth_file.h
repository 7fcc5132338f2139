// The ground-truth run of the time-step study, written to a CSV once and read back by later
// runs (232,000 second-order steps at h = 5e-5 s take minutes; the study's other runs seconds).
//
// File format (text):
//   # arm_cubes ground truth: <key>                 (formulation, h, stride, end time, scene)
//   # wall_seconds=<s> failed_steps=<n> first_failure=<text> cut_short=<text>
//   t,x,y,z,qw,qx,qy,qz                             [s], [m], unit quaternion
//   one row per sample
// A file is reused only when its key is the one asked for (same formulation, h, stride, end
// time and scene text), so an edited scene or another h computes a new ground truth. The files
// the scene refers to (the arm's URDF) are not in the key: after editing one, delete the file.
#pragma once

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>

#include "arm_cubes/cube_trajectory.h"

namespace arm_cubes {

// FNV-1a of the scene file's text: a fingerprint that is the same on every platform.
inline std::uint64_t TextFingerprint(const std::string& text) {
  std::uint64_t hash = 14695981039346656037ull;
  for (unsigned char c : text) hash = (hash ^ c) * 1099511628211ull;
  return hash;
}

// What a ground-truth file must have been computed from to be reused.
inline std::string GroundTruthKey(const std::string& formulation, double h, int stride,
                                  double end_time, const std::string& scene_text) {
  char key[256];
  std::snprintf(key, sizeof key, "formulation=%s h=%.9g stride=%d end_time=%.9g scene=%016llx",
                formulation.c_str(), h, stride, end_time,
                static_cast<unsigned long long>(TextFingerprint(scene_text)));
  return key;
}

inline void WriteGroundTruth(const std::string& path, const std::string& key,
                             const CubeTrajectory& run) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write " + path);
  out.precision(12);
  out << "# arm_cubes ground truth: " << key << "\n# wall_seconds=" << run.wall_seconds
      << " failed_steps=" << run.failed_steps << " first_failure=" << run.first_failure
      << " cut_short=" << run.cut_short << "\nt,x,y,z,qw,qx,qy,qz\n";
  for (size_t k = 0; k < run.position.size(); ++k) {
    const Eigen::Vector3d& p = run.position[k];
    const Eigen::Quaterniond& r = run.orientation[k];
    out << k * run.SampleInterval() << "," << p.x() << "," << p.y() << "," << p.z() << "," << r.w()
        << "," << r.x() << "," << r.y() << "," << r.z() << "\n";
  }
  if (!out) throw std::runtime_error("error writing " + path);
}

// The trajectory stored in `path` when the file exists and was computed for `key`; nothing
// when it does not exist or is for another key; std::runtime_error when it is damaged.
inline std::optional<CubeTrajectory> ReadGroundTruth(const std::string& path,
                                                     const std::string& key,
                                                     const std::string& formulation, double h,
                                                     int stride) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::string line;
  if (!std::getline(in, line) || line != "# arm_cubes ground truth: " + key) return std::nullopt;
  CubeTrajectory run;
  run.formulation = formulation;
  run.h = h;
  run.stride = stride;
  std::getline(in, line);  // the run's statistics
  std::istringstream statistics(line);
  std::string field;
  while (statistics >> field) {
    if (field.rfind("wall_seconds=", 0) == 0) run.wall_seconds = std::stod(field.substr(13));
    if (field.rfind("failed_steps=", 0) == 0) run.failed_steps = std::stoi(field.substr(13));
  }
  if (const size_t at = line.find(" first_failure="); at != std::string::npos) {
    const size_t end = line.find(" cut_short=", at);
    run.first_failure = line.substr(at + 15, end == std::string::npos ? end : end - at - 15);
    if (end != std::string::npos) run.cut_short = line.substr(end + 11);
  }
  std::getline(in, line);  // the column names
  while (std::getline(in, line)) {
    double v[8];
    if (std::sscanf(line.c_str(), "%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf", &v[0], &v[1], &v[2], &v[3],
                    &v[4], &v[5], &v[6], &v[7]) != 8)
      throw std::runtime_error(path + ": a damaged row: " + line);
    run.position.emplace_back(v[1], v[2], v[3]);
    run.orientation.emplace_back(v[4], v[5], v[6], v[7]);
  }
  if (run.position.empty()) throw std::runtime_error(path + ": no samples");
  return run;
}

}  // namespace arm_cubes
