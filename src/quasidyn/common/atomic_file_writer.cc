#include "quasidyn/common/atomic_file_writer.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <streambuf>
#include <string>
#include <system_error>
#include <vector>

namespace quasidyn {
namespace {

namespace fs = std::filesystem;

std::string ErrorText(int error) { return std::generic_category().message(error); }

[[noreturn]] void Fail(const fs::path& target, const std::string& reason) {
  throw std::runtime_error("cannot write '" + target.string() + "': " + reason);
}

// An output stream buffer over a file descriptor; remembers the first write(2) error, after
// which every write fails (so the stream goes bad).
class FileDescriptorBuffer : public std::streambuf {
 public:
  explicit FileDescriptorBuffer(int fd) : fd_(fd), buffer_(kBufferSize) { ResetBuffer(); }

  // Writes out what is buffered; false on an error (error() says which).
  bool Flush() {
    const bool ok = WriteAll(pbase(), pptr() - pbase());
    ResetBuffer();
    return ok;
  }
  int error() const { return error_; }

 protected:
  int_type overflow(int_type ch) override {
    if (!Flush()) return traits_type::eof();
    if (!traits_type::eq_int_type(ch, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(ch);
      pbump(1);
    }
    return traits_type::not_eof(ch);
  }

  std::streamsize xsputn(const char* text, std::streamsize count) override {
    if (count <= epptr() - pptr()) {
      std::memcpy(pptr(), text, static_cast<size_t>(count));
      pbump(static_cast<int>(count));
      return count;
    }
    if (!Flush() || !WriteAll(text, count)) return 0;
    return count;
  }

  int sync() override { return Flush() ? 0 : -1; }

 private:
  static constexpr size_t kBufferSize = size_t{1} << 16;

  void ResetBuffer() { setp(buffer_.data(), buffer_.data() + buffer_.size()); }

  bool WriteAll(const char* data, std::streamsize count) {
    if (error_ != 0) return false;
    while (count > 0) {
      const ssize_t written = ::write(fd_, data, static_cast<size_t>(count));
      if (written < 0 && errno == EINTR) continue;
      if (written <= 0) {
        error_ = written < 0 ? errno : EIO;
        return false;
      }
      data += written;
      count -= written;
    }
    return true;
  }

  int fd_;
  std::vector<char> buffer_;
  int error_ = 0;
};

// Runs `write` on a stream over `fd` and writes everything out; throws (naming `target`) on
// a write error or a failed stream.
void StreamTo(int fd, const fs::path& target, const std::function<void(std::ostream&)>& write) {
  FileDescriptorBuffer buffer(fd);
  std::ostream out(&buffer);
  write(out);
  const bool flushed = buffer.Flush();
  if (buffer.error() != 0) Fail(target, "write error: " + ErrorText(buffer.error()));
  if (!flushed || !out) Fail(target, "the content could not be written (the stream failed)");
}

// The temporary file: closed and removed on destruction unless Commit() renamed it.
class TemporaryFile {
 public:
  TemporaryFile(const fs::path& target, const fs::path& folder, const std::string& name) {
    static std::atomic<unsigned long> counter{0};
    // Room for the suffix within the usual 255-byte limit of a file name.
    // Appended piece by piece: "." + std::string&& trips GCC 12's -Wrestrict (a false positive
    // of its inlined insert at position 0, GCC bug 105329).
    std::string stem = ".";
    stem += name.substr(0, 200);
    stem += ".tmp-";
    stem += std::to_string(::getpid());
    stem += '-';
    for (int attempt = 0; attempt < 100; ++attempt) {
      path_ = folder / (stem + std::to_string(counter.fetch_add(1)));
      fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
      if (fd_ >= 0 || errno != EEXIST) break;
    }
    if (fd_ < 0) {
      const int error = errno;
      Fail(target, "cannot create a temporary file in directory '" + folder.string() +
                       "': " + ErrorText(error));
    }
  }
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;
  ~TemporaryFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!committed_) ::unlink(path_.c_str());
  }

  int fd() const { return fd_; }

  // fsync and close, checked.
  void SyncAndClose(const fs::path& target) {
    if (::fsync(fd_) != 0) {
      const int error = errno;
      Fail(target, "fsync failed: " + ErrorText(error));
    }
    const int fd = fd_;
    fd_ = -1;  // closed once, whatever close(2) says
    if (::close(fd) != 0) {
      const int error = errno;
      Fail(target, "close failed: " + ErrorText(error));
    }
  }

  void RenameOver(const fs::path& destination, const fs::path& target) {
    std::error_code error;
    fs::rename(path_, destination, error);
    if (error) {
      Fail(target,
           "cannot rename the temporary file '" + path_.string() + "' over it: " + error.message());
    }
    committed_ = true;
  }

 private:
  fs::path path_;
  int fd_ = -1;
  bool committed_ = false;
};

// A target that exists and is neither a folder nor a regular file (/dev/null, a pipe, a
// terminal): written in place, as there is no previous content to keep.
void WriteInPlace(const fs::path& target, const std::function<void(std::ostream&)>& write) {
  const int fd = ::open(target.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) {
    const int error = errno;
    Fail(target, "cannot open it: " + ErrorText(error));
  }
  try {
    StreamTo(fd, target, write);
  } catch (...) {
    ::close(fd);
    throw;
  }
  if (::close(fd) != 0) {
    const int error = errno;
    Fail(target, "close failed: " + ErrorText(error));
  }
}

// The path a symbolic link chain ends at (the target itself when it is no link), so the
// rename replaces the file and keeps the link.
fs::path FollowLinks(const fs::path& target) {
  fs::path path = target;
  for (int hops = 0; hops < 40; ++hops) {
    struct stat link_status;
    if (::lstat(path.c_str(), &link_status) != 0 || !S_ISLNK(link_status.st_mode)) return path;
    std::error_code error;
    const fs::path link = fs::read_symlink(path, error);
    if (error)
      Fail(target, "cannot read the symbolic link '" + path.string() + "': " + error.message());
    path = link.is_absolute() ? link : path.parent_path() / link;
  }
  Fail(target, ErrorText(ELOOP));
}

// Syncs the folder so that the rename survives a crash; best effort.
void SyncFolder(const fs::path& folder) {
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

}  // namespace

void WriteFileAtomically(const fs::path& target, const std::function<void(std::ostream&)>& write) {
  if (target.empty()) throw std::invalid_argument("WriteFileAtomically: the output path is empty");
  if (!target.has_filename()) Fail(target, "the path names a directory, not a file");
  struct stat status;
  const bool exists = ::stat(target.c_str(), &status) == 0;
  if (exists && S_ISDIR(status.st_mode)) Fail(target, "it is a directory");
  if (exists && !S_ISREG(status.st_mode)) {
    WriteInPlace(target, write);
    return;
  }
  const fs::path destination = FollowLinks(target);
  // A file made read-only stays protected, as it was when outputs were opened for writing.
  if (exists && ::faccessat(AT_FDCWD, destination.c_str(), W_OK, AT_EACCESS) != 0) {
    const int error = errno;
    Fail(target, ErrorText(error));
  }
  const fs::path folder = destination.has_parent_path() ? destination.parent_path() : ".";

  TemporaryFile temporary(target, folder, destination.filename().string());
  if (exists && ::fchmod(temporary.fd(), status.st_mode & 07777) != 0) {
    const int error = errno;
    Fail(target, "cannot give the new file the old one's permissions: " + ErrorText(error));
  }
  StreamTo(temporary.fd(), target, write);
  temporary.SyncAndClose(target);
  temporary.RenameOver(destination, target);
  SyncFolder(folder);
}

void WriteFileAtomically(const fs::path& target, std::string_view content) {
  WriteFileAtomically(target,
                      [content](std::ostream& out) { out.write(content.data(), content.size()); });
}

}  // namespace quasidyn
