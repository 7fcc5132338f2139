#pragma once
// A test-only switch that makes every GJK/EPA query of the process (convex_distance_3d.h)
// answer as if it had stopped on round-off far from its tolerance (status kDegenerate, an
// infinite error bound, so ConvexDistanceResult::Usable() is false), so that tests reach the
// failure paths of the narrow phase (a false return naming the pair in geometry_model.h, a
// failed step that keeps the state). No known input makes GJK/EPA fail that way.
//
//   {
//     ScopedConvexDistanceFaultForTesting fault;
//     EXPECT_FALSE(model.Query(X_WB, tolerance, &data));
//   }
//
// While an object of this class is alive, in every thread. Not for use outside tests.

namespace quasidyn {

class ScopedConvexDistanceFaultForTesting {
 public:
  ScopedConvexDistanceFaultForTesting();
  ~ScopedConvexDistanceFaultForTesting();
  ScopedConvexDistanceFaultForTesting(const ScopedConvexDistanceFaultForTesting&) = delete;
  ScopedConvexDistanceFaultForTesting& operator=(const ScopedConvexDistanceFaultForTesting&) =
      delete;
};

// True while a ScopedConvexDistanceFaultForTesting is alive (read by convex_distance_3d.cc).
bool ConvexDistanceFaultActiveForTesting();

}  // namespace quasidyn
