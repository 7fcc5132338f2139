#include "interrupt.h"

#include <CLI/CLI.hpp>
#include <csignal>
#include <iostream>
#include <utility>

namespace quasidyn::cli {
namespace {

// What the handler may touch: a lock-free atomic and a sig_atomic_t (async-signal-safe).
CancellationToken interrupt_token;
volatile std::sig_atomic_t interrupt_signal = 0;

extern "C" void OnInterrupt(int signal_number) {
  interrupt_signal = signal_number;
  interrupt_token.Cancel();
}

struct sigaction previous_int, previous_term;

}  // namespace

InterruptScope::InterruptScope() {
  interrupt_signal = 0;
  interrupt_token.Reset();
  struct sigaction action {};
  action.sa_handler = OnInterrupt;
  sigemptyset(&action.sa_mask);
  // The default action returns once the handler has run: a second signal kills at once.
  action.sa_flags = SA_RESETHAND;
  // A signal the program was started with ignored (a background job of a shell without job
  // control: SIGINT) stays ignored, as without the scope.
  for (auto [number, previous] :
       {std::pair{SIGINT, &previous_int}, std::pair{SIGTERM, &previous_term}}) {
    sigaction(number, nullptr, previous);
    if (previous->sa_handler != SIG_IGN) sigaction(number, &action, nullptr);
  }
}

InterruptScope::~InterruptScope() {
  sigaction(SIGINT, &previous_int, nullptr);
  sigaction(SIGTERM, &previous_term, nullptr);
}

const CancellationToken* InterruptScope::token() const { return &interrupt_token; }

bool InterruptScope::interrupted() const { return interrupt_token.cancelled(); }

int InterruptedExitCode() { return 128 + (interrupt_signal != 0 ? interrupt_signal : SIGINT); }

void ReportInterrupted(const std::string& command, const std::string& what) {
  std::cout << std::flush;
  std::cerr << "quasidyn: " << command << ": interrupted " << what << "\n" << std::flush;
  throw CLI::RuntimeError(InterruptedExitCode());
}

}  // namespace quasidyn::cli
