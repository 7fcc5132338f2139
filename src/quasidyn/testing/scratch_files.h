#pragma once
// Helpers for the tests of file output (header-only, POSIX): a fresh private directory
// removed with everything in it at the end of the test, whole-file reads and writes, the
// names in a directory, a private TMPDIR, and a lowered file-size limit under which write(2) fails
// midway with EFBIG, as on a full disk.

#include <signal.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace quasidyn::testing {

class ScratchDirectory {
 public:
  ScratchDirectory() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "quasidyn-test-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr)
      throw std::runtime_error("ScratchDirectory: mkdtemp failed for " + pattern);
    path_ = pattern;
  }
  ScratchDirectory(const ScratchDirectory&) = delete;
  ScratchDirectory& operator=(const ScratchDirectory&) = delete;
  ~ScratchDirectory() {
    std::error_code error;
    // A test may have made a subdirectory read-only; make everything removable again.
    for (const auto& entry : std::filesystem::recursive_directory_iterator(path_, error)) {
      if (entry.is_directory(error) && !entry.is_symlink(error))
        std::filesystem::permissions(entry.path(), std::filesystem::perms::owner_all,
                                     std::filesystem::perm_options::add, error);
    }
    std::filesystem::remove_all(path_, error);
  }

  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }
  // Writes `content` to the file `name` in this directory; returns its path.
  std::string Write(const std::string& name, const std::string& content) const {
    const std::filesystem::path file = path_ / name;
    std::ofstream(file, std::ios::binary) << content;
    return file.string();
  }

 private:
  std::filesystem::path path_;
};

inline std::string ReadWholeFile(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw std::runtime_error("ReadWholeFile: cannot open " + path.string());
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

inline void WriteWholeFile(const std::filesystem::path& path, const std::string& content) {
  std::ofstream file(path, std::ios::binary);
  file << content;
  if (!file.flush()) throw std::runtime_error("WriteWholeFile: cannot write " + path.string());
}

// A path inside `directory` that no one can write, root included: its folder is a regular
// file (`directory`/a_file/`name`), so neither the file nor its folder can be created. Tests
// of unwritable outputs use it instead of a path outside their directory, which root could
// create.
inline std::filesystem::path UnwritablePath(const std::filesystem::path& directory,
                                            const std::string& name) {
  WriteWholeFile(directory / "a_file", "a regular file, not a folder\n");
  return directory / "a_file" / name;
}

// The names of the entries of `directory`, sorted (hidden ones included).
inline std::vector<std::string> FileNames(const std::filesystem::path& directory) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(directory))
    names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// While alive, TMPDIR (which std::filesystem::temp_directory_path reads) points at a fresh
// private directory, removed at the end: ctest runs test processes in parallel on one system
// temporary folder, so a test that counts what a loader stages there needs a folder of its own.
class PrivateTemporaryDirectory {
 public:
  PrivateTemporaryDirectory() {
    const char* previous = std::getenv("TMPDIR");
    if (previous != nullptr) previous_ = previous;
    ::setenv("TMPDIR", scratch_.path().c_str(), 1);
  }
  PrivateTemporaryDirectory(const PrivateTemporaryDirectory&) = delete;
  PrivateTemporaryDirectory& operator=(const PrivateTemporaryDirectory&) = delete;
  ~PrivateTemporaryDirectory() {
    if (previous_)
      ::setenv("TMPDIR", previous_->c_str(), 1);
    else
      ::unsetenv("TMPDIR");
  }

 private:
  std::optional<std::string> previous_;
  ScratchDirectory scratch_;  // made before TMPDIR moves to it, removed after it moves back
};

// The number of entries of `directory` whose name starts with `prefix`.
inline int CountEntriesStartingWith(const std::filesystem::path& directory,
                                    const std::string& prefix) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(directory))
    if (entry.path().filename().string().rfind(prefix, 0) == 0) ++count;
  return count;
}

// While alive, no file of this process may grow beyond `bytes` (RLIMIT_FSIZE; SIGXFSZ is
// ignored so write(2) returns EFBIG instead of the signal ending the process). Applies to
// root as well.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    if (::getrlimit(RLIMIT_FSIZE, &previous_) != 0)
      throw std::runtime_error("FileSizeLimit: getrlimit failed");
    rlimit lowered = previous_;
    lowered.rlim_cur = bytes;
    previous_handler_ = ::signal(SIGXFSZ, SIG_IGN);
    if (::setrlimit(RLIMIT_FSIZE, &lowered) != 0)
      throw std::runtime_error("FileSizeLimit: setrlimit failed");
  }
  FileSizeLimit(const FileSizeLimit&) = delete;
  FileSizeLimit& operator=(const FileSizeLimit&) = delete;
  ~FileSizeLimit() {
    ::setrlimit(RLIMIT_FSIZE, &previous_);
    ::signal(SIGXFSZ, previous_handler_);
  }

 private:
  rlimit previous_{};
  void (*previous_handler_)(int) = SIG_DFL;
};

}  // namespace quasidyn::testing
