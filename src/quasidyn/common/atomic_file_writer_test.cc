#include "quasidyn/common/atomic_file_writer.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "quasidyn/testing/scratch_files.h"

namespace quasidyn {
namespace {

namespace fs = std::filesystem;
using testing::FileNames;
using testing::ReadWholeFile;
using testing::ScratchDirectory;
using testing::WriteWholeFile;

// More than the writer's 64 KiB buffer, so a failure can come midway.
std::string LongText() {
  std::string text;
  for (int i = 0; text.size() < 300000; ++i) text += "line " + std::to_string(i) + "\n";
  return text;
}

// The message of the std::runtime_error `f` throws ("" and a test failure when none).
template <typename F>
std::string RuntimeErrorOf(F f) {
  try {
    f();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  ADD_FAILURE() << "no std::runtime_error";
  return "";
}

TEST(WriteFileAtomically, WritesTheContentAndLeavesNoTemporaryFile) {
  ScratchDirectory dir;
  const fs::path target = dir / "out.json";
  WriteFileAtomically(target, std::string_view("{\"a\": 1}\n"));
  EXPECT_EQ(ReadWholeFile(target), "{\"a\": 1}\n");
  // Streamed in pieces larger and smaller than the buffer.
  const std::string text = LongText();
  WriteFileAtomically(target, [&](std::ostream& out) {
    out << text.substr(0, 10);
    out << text.substr(10, 200000);
    for (size_t i = 200010; i < text.size(); ++i) out.put(text[i]);
  });
  EXPECT_EQ(ReadWholeFile(target), text);
  EXPECT_EQ(FileNames(dir.path()), std::vector<std::string>{"out.json"});
}

TEST(WriteFileAtomically, WritesARelativePathInTheWorkingDirectory) {
  ScratchDirectory dir;
  const fs::path previous = fs::current_path();
  fs::current_path(dir.path());
  WriteFileAtomically("plain.txt", std::string_view("x"));
  fs::current_path(previous);
  EXPECT_EQ(ReadWholeFile(dir / "plain.txt"), "x");
  EXPECT_EQ(FileNames(dir.path()), std::vector<std::string>{"plain.txt"});
}

TEST(WriteFileAtomically, ReplacesAFileKeepingItsPermissions) {
  ScratchDirectory dir;
  const fs::path target = dir / "out.txt";
  WriteWholeFile(target, "previous content, longer than the new one");
  ASSERT_EQ(::chmod(target.c_str(), 0640), 0);
  WriteFileAtomically(target, std::string_view("new"));
  EXPECT_EQ(ReadWholeFile(target), "new");
  struct stat status;
  ASSERT_EQ(::stat(target.c_str(), &status), 0);
  EXPECT_EQ(status.st_mode & 07777, 0640u);
}

TEST(WriteFileAtomically, AWriterThatThrowsMidwayKeepsThePreviousFile) {
  ScratchDirectory dir;
  const fs::path target = dir / "out.json";
  WriteWholeFile(target, "previous");
  const std::string text = LongText();
  try {
    WriteFileAtomically(target, [&](std::ostream& out) {
      out << text;  // past the buffer: bytes reach the disk before the failure
      throw std::logic_error("the writer gave up");
    });
    FAIL() << "the writer's exception was swallowed";
  } catch (const std::logic_error& e) {
    EXPECT_STREQ(e.what(), "the writer gave up");  // passed on unchanged
  }
  EXPECT_EQ(ReadWholeFile(target), "previous");
  EXPECT_EQ(FileNames(dir.path()), std::vector<std::string>{"out.json"});
}

TEST(WriteFileAtomically, AWriteErrorMidwayKeepsThePreviousFile) {
  ScratchDirectory dir;
  const fs::path target = dir / "out.json";
  WriteWholeFile(target, "previous");
  std::string message;
  {
    const testing::FileSizeLimit limit(4096);  // write(2) fails with EFBIG past 4 KiB
    message = RuntimeErrorOf([&] { WriteFileAtomically(target, std::string_view(LongText())); });
  }
  EXPECT_NE(message.find(target.string()), std::string::npos) << message;
  EXPECT_NE(message.find(std::strerror(EFBIG)), std::string::npos) << message;
  EXPECT_EQ(ReadWholeFile(target), "previous");
  EXPECT_EQ(FileNames(dir.path()), std::vector<std::string>{"out.json"});
}

TEST(WriteFileAtomically, AStreamLeftFailedIsAnError) {
  ScratchDirectory dir;
  const fs::path target = dir / "out.txt";
  WriteWholeFile(target, "previous");
  const std::string message = RuntimeErrorOf([&] {
    WriteFileAtomically(target, [](std::ostream& out) {
      out << "half";
      out.setstate(std::ios::failbit);
    });
  });
  EXPECT_NE(message.find(target.string()), std::string::npos) << message;
  EXPECT_EQ(ReadWholeFile(target), "previous");
  EXPECT_EQ(FileNames(dir.path()), std::vector<std::string>{"out.txt"});
}

TEST(WriteFileAtomically, AMissingDirectoryNamesThePathAndTheReason) {
  ScratchDirectory dir;
  const fs::path target = dir / "missing" / "out.json";
  const std::string message =
      RuntimeErrorOf([&] { WriteFileAtomically(target, std::string_view("x")); });
  EXPECT_NE(message.find(target.string()), std::string::npos) << message;
  EXPECT_NE(message.find(std::strerror(ENOENT)), std::string::npos) << message;
  EXPECT_FALSE(fs::exists(dir / "missing"));
}

TEST(WriteFileAtomically, AFileInPlaceOfTheDirectoryNamesTheReason) {
  ScratchDirectory dir;
  WriteWholeFile(dir / "file", "keep");
  const fs::path target = dir / "file" / "out.json";
  const std::string message =
      RuntimeErrorOf([&] { WriteFileAtomically(target, std::string_view("x")); });
  EXPECT_NE(message.find(target.string()), std::string::npos) << message;
  EXPECT_NE(message.find(std::strerror(ENOTDIR)), std::string::npos) << message;
  EXPECT_EQ(ReadWholeFile(dir / "file"), "keep");
}

TEST(WriteFileAtomically, ANonWritableDirectoryKeepsTheOldFile) {
  ScratchDirectory dir;
  const fs::path folder = dir / "locked";
  fs::create_directory(folder);
  const fs::path target = folder / "out.json";
  WriteWholeFile(target, "previous");
  ASSERT_EQ(::chmod(folder.c_str(), 0555), 0);
  // Root (CAP_DAC_OVERRIDE) writes anyway: nothing to test then.
  const int probe = ::open((folder / "probe").c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
  if (probe >= 0) {
    ::close(probe);
    GTEST_SKIP() << "this process may write into a read-only directory (root)";
  }
  const std::string message =
      RuntimeErrorOf([&] { WriteFileAtomically(target, std::string_view("new")); });
  EXPECT_NE(message.find(target.string()), std::string::npos) << message;
  EXPECT_NE(message.find(std::strerror(EACCES)), std::string::npos) << message;
  EXPECT_EQ(ReadWholeFile(target), "previous");
}

TEST(WriteFileAtomically, AReadOnlyFileIsRefused) {
  ScratchDirectory dir;
  const fs::path target = dir / "out.json";
  WriteWholeFile(target, "previous");
  ASSERT_EQ(::chmod(target.c_str(), 0444), 0);
  if (::access(target.c_str(), W_OK) == 0)
    GTEST_SKIP() << "this process may write a read-only file (root)";
  const std::string message =
      RuntimeErrorOf([&] { WriteFileAtomically(target, std::string_view("new")); });
  EXPECT_NE(message.find(target.string()), std::string::npos) << message;
  EXPECT_EQ(ReadWholeFile(target), "previous");
}

TEST(WriteFileAtomically, AnEmptyPathIsAnInvalidArgument) {
  try {
    WriteFileAtomically("", std::string_view("x"));
    FAIL() << "accepted an empty path";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("output path is empty"), std::string::npos) << e.what();
  }
}

TEST(WriteFileAtomically, ADirectoryIsRefused) {
  ScratchDirectory dir;
  const fs::path folder = dir / "folder";
  fs::create_directory(folder);
  WriteWholeFile(folder / "inside", "keep");
  for (const fs::path& target : {folder, fs::path(folder.string() + "/")}) {
    const std::string message =
        RuntimeErrorOf([&] { WriteFileAtomically(target, std::string_view("x")); });
    EXPECT_NE(message.find(target.string()), std::string::npos) << message;
    EXPECT_NE(message.find("directory"), std::string::npos) << message;
  }
  EXPECT_TRUE(fs::is_directory(folder));
  EXPECT_EQ(FileNames(folder), std::vector<std::string>{"inside"});
  EXPECT_EQ(FileNames(dir.path()), std::vector<std::string>{"folder"});
}

TEST(WriteFileAtomically, ReplacesTheFileASymbolicLinkPointsTo) {
  ScratchDirectory dir;
  fs::create_directory(dir / "real");
  WriteWholeFile(dir / "real" / "data.json", "previous");
  fs::create_symlink("real/data.json", dir / "link.json");
  WriteFileAtomically(dir / "link.json", std::string_view("new"));
  EXPECT_TRUE(fs::is_symlink(dir / "link.json"));
  EXPECT_EQ(ReadWholeFile(dir / "real" / "data.json"), "new");
  EXPECT_EQ(FileNames(dir / "real"), std::vector<std::string>{"data.json"});
}

TEST(WriteFileAtomically, WritesAPipeInPlace) {
  ScratchDirectory dir;
  const fs::path fifo = dir / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // A reader first, so the writer's open does not wait.
  const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(reader, 0);
  WriteFileAtomically(fifo, std::string_view("through the pipe"));
  char buffer[64] = {};
  const ssize_t n = ::read(reader, buffer, sizeof(buffer) - 1);
  ::close(reader);
  EXPECT_EQ(std::string(buffer, n > 0 ? n : 0), "through the pipe");
  EXPECT_TRUE(fs::is_fifo(fifo));  // not replaced by a regular file
  EXPECT_EQ(FileNames(dir.path()), std::vector<std::string>{"pipe"});
}

}  // namespace
}  // namespace quasidyn
