#pragma once
// Writes an output file all at once or not at all (POSIX): the content goes to a fresh
// temporary file in the target's directory, named ".<file name>.tmp-<pid>-<n>" and created with
// O_EXCL (never an existing file), which is flushed, fsync'ed and closed, every step checked;
// only then is it renamed over the target. rename(2) within one directory is atomic, so a reader
// sees the old file or the whole new one, and a write that fails midway (a full disk, an
// exception in the writer, a killed process before the rename) leaves the previous file as it
// was. On failure the temporary file is removed (a killed process can leave one behind).
//
// Details:
//  * the new file keeps the permission bits (not the owner) of the file it replaces; a new
//    file gets 0666 minus the umask, as std::ofstream gives; an existing file that the
//    process may not write is refused, as opening it for writing would be;
//  * a target that is a symbolic link is followed: the file it points to is replaced and the
//    link stays;
//  * a target that exists and is not a regular file (/dev/null, a pipe, a terminal) is
//    written in place: there is no previous content to keep;
//  * the directory is fsync'ed after the rename so the new name survives a crash; this last step
//    is best effort (some file systems refuse it) and its failure is not reported.
//
// Every output file of the library and the quasidyn program (trajectory JSON, the viewer
// page, SVG plots) is written through these functions.

#include <filesystem>
#include <functional>
#include <ostream>
#include <string_view>

namespace quasidyn {

// Calls `write` with a stream to the temporary file, then moves it over `target`.
// Throws
//  * std::invalid_argument("WriteFileAtomically: the output path is empty") for an empty path;
//  * std::runtime_error("cannot write '<target>': <reason>") when the target is an existing
//    directory or names one ("out/"), when the target is a read-only file, when the temporary file
//    cannot be created, written, flushed, synced or closed, when `write` leaves the stream failed,
//    or when the rename fails; the reason includes strerror's text where the system gave one;
//  * whatever `write` throws, unchanged.
// In every case the target is untouched and the temporary file is removed.
void WriteFileAtomically(const std::filesystem::path& target,
                         const std::function<void(std::ostream&)>& write);

// The same with the whole content at hand.
void WriteFileAtomically(const std::filesystem::path& target, std::string_view content);

}  // namespace quasidyn
