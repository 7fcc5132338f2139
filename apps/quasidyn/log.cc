#include "log.h"

#include <unistd.h>

#include <algorithm>
#include <iostream>
#include <stdexcept>

namespace quasidyn::cli {
namespace {

LogLevel current_level = LogLevel::kInfo;

}  // namespace

const char* LogLevelName(LogLevel level) {
  switch (level) {
    case LogLevel::kError:
      return "error";
    case LogLevel::kWarning:
      return "warning";
    case LogLevel::kInfo:
      return "info";
    case LogLevel::kDebug:
      return "debug";
  }
  return "unknown";
}

LogLevel ParseLogLevel(const std::string& name) {
  for (LogLevel level : {LogLevel::kError, LogLevel::kWarning, LogLevel::kInfo, LogLevel::kDebug})
    if (name == LogLevelName(level)) return level;
  throw std::invalid_argument("--log-level must be error, warning, info or debug (got '" + name +
                              "')");
}

void SetLogLevel(LogLevel level) { current_level = level; }
LogLevel CurrentLogLevel() { return current_level; }
bool Logs(LogLevel level) { return static_cast<int>(level) <= static_cast<int>(current_level); }
bool StderrIsTerminal() { return isatty(STDERR_FILENO) == 1; }
bool ShowsProgress() { return Logs(LogLevel::kInfo) && StderrIsTerminal(); }
std::ostream& LogStream() { return std::cerr; }

void AddQuietFlag(CLI::App* command) {
  command->add_flag_callback(
      "--quiet", [] { SetLogLevel(std::min(CurrentLogLevel(), LogLevel::kWarning)); },
      "No progress on stderr (bar, lines, per-iteration table): --log-level warning");
}

}  // namespace quasidyn::cli
