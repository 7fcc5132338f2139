#include "quasidyn/geometry/convex_distance_fault_for_testing.h"

#include <atomic>

namespace quasidyn {
namespace {

std::atomic<bool> g_fault{false};

}  // namespace

ScopedConvexDistanceFaultForTesting::ScopedConvexDistanceFaultForTesting() { g_fault.store(true); }

ScopedConvexDistanceFaultForTesting::~ScopedConvexDistanceFaultForTesting() {
  g_fault.store(false);
}

bool ConvexDistanceFaultActiveForTesting() { return g_fault.load(std::memory_order_relaxed); }

}  // namespace quasidyn
