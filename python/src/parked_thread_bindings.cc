// The process-wide spin of the batches' parked threads (common/parallel_for.h,
// SetParkedThreadSpin): how long the other workers of rollout_batch and BatchLinearizer keep a
// CPU busy after a call, waiting for the next, before they block.

#include <chrono>

#include "bindings.h"
#include "quasidyn/common/parallel_for.h"

namespace quasidyn::python {

namespace py = pybind11;

void BindParkedThreadSpin(py::module_& m) {
  m.def(
      "set_parked_thread_spin",
      [](long long microseconds) {
        Named("set_parked_thread_spin",
              [&] { SetParkedThreadSpin(std::chrono::microseconds(microseconds)); });
      },
      py::arg("microseconds"),
      "How long [µs, 0 to 1e6] a batch's other worker threads spin after a call of "
      "rollout_batch or BatchLinearizer before they block (default 4000, about what GCC's OpenMP "
      "runtime spins by default; none after a call with more threads than CPUs; 0: 50 µs, "
      "between calls in a loop only). A spinning thread takes the next call's items at once "
      "instead of tens of microseconds late on a cold CPU, but holds a CPU busy for the whole "
      "spin even when no call comes (OpenMP's OMP_WAIT_POLICY): 0 suits a process that shares "
      "its CPUs with other busy processes and makes its batches far apart. Process-wide; "
      "ValueError outside 0 to 1e6.");
  m.def(
      "parked_thread_spin", [] { return static_cast<long long>(ParkedThreadSpin().count()); },
      "The spin set by set_parked_thread_spin [µs].");
}

}  // namespace quasidyn::python
