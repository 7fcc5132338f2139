#pragma once
// The resident memory of this process, for the soak tests (tests/soak/, docs/development.md,
// "Soak tests"): VmRSS of /proc/self/status, in KiB.

#include <fstream>
#include <stdexcept>
#include <string>

namespace quasidyn::soak {

// VmRSS [KiB] of /proc/self/status; std::runtime_error when the file or the line is missing
// (not Linux).
inline long ResidentKib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  }
  throw std::runtime_error("/proc/self/status: no VmRSS line (the soak tests need Linux)");
}

}  // namespace quasidyn::soak
