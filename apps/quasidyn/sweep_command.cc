#include "sweep_command.h"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

namespace quasidyn::cli {
namespace {

// The folders where the quasidyn Python package may sit relative to this program: <bin>/python
// in the build tree, <bin>/../lib/python3.*/dist-packages in an install; then PYTHONPATH.
std::string PythonPath() {
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::path program = fs::read_symlink("/proc/self/exe", error);
  std::vector<fs::path> candidates;
  if (!error) {
    const fs::path bin = program.parent_path();
    candidates.push_back(bin / "python");
    const fs::path lib = bin.parent_path() / "lib";
    for (fs::directory_iterator it(lib, error), end; !error && it != end; it.increment(error))
      if (it->path().filename().string().rfind("python3", 0) == 0)
        candidates.push_back(it->path() / "dist-packages");
  }
  std::string joined;
  for (const fs::path& candidate : candidates)
    if (fs::exists(candidate / "quasidyn" / "distributed.py", error))
      joined += (joined.empty() ? "" : ":") + candidate.string();
  if (const char* existing = std::getenv("PYTHONPATH"); existing != nullptr && *existing)
    joined += (joined.empty() ? "" : ":") + std::string(existing);
  return joined;
}

}  // namespace

int RunSweepCommand(const std::vector<std::string>& arguments) {
  std::vector<std::string> command{QUASIDYN_PYTHON, "-m", "quasidyn.distributed", "sweep"};
  command.insert(command.end(), arguments.begin(), arguments.end());
  const std::string path = PythonPath();
  if (!path.empty()) setenv("PYTHONPATH", path.c_str(), 1);
  std::vector<char*> argv;
  for (std::string& a : command) argv.push_back(a.data());
  argv.push_back(nullptr);
  execv(argv[0], argv.data());
  std::cerr << "quasidyn: error: sweep: cannot run " << QUASIDYN_PYTHON << ": "
            << std::strerror(errno) << "\n";
  return 2;
}

void AddSweepCommand(CLI::App& app) {
  // Never parsed here: RunCommandLine hands `quasidyn sweep ...` to RunSweepCommand first.
  app.add_subcommand(
      "sweep",
      "Roll out a scene for every formulation and combination of parameter values on a Dask "
      "cluster (python3 -m quasidyn.distributed sweep; docs/distributed.md). `quasidyn sweep "
      "--help` lists its options");
}

}  // namespace quasidyn::cli
