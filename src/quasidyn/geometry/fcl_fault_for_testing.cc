#include "quasidyn/geometry/fcl_fault_for_testing.h"

#include <atomic>

namespace quasidyn {
namespace {

std::atomic<const char*> g_fault{nullptr};

}  // namespace

ScopedFclFaultForTesting::ScopedFclFaultForTesting(const char* message) { g_fault.store(message); }

ScopedFclFaultForTesting::~ScopedFclFaultForTesting() { g_fault.store(nullptr); }

const char* ActiveFclFaultForTesting() { return g_fault.load(std::memory_order_relaxed); }

}  // namespace quasidyn
