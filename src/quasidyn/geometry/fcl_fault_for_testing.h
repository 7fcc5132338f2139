#pragma once
// A test-only switch that makes every FCL query of the process throw, as libccd does on some
// degenerate configurations, so that tests reach the failure paths of fcl_distance.h (retry,
// then a false return naming the pair in geometry_model.h). No input makes FCL 0.7 fail
// reliably: on degenerate input it returns some answer, or loops.
//
//   {
//     ScopedFclFaultForTesting fault("the origin is outside of the polytope");
//     EXPECT_FALSE(model.Query(X_WB, tolerance, &data));
//   }
//
// While an object of this class is alive, every call into fcl::distance made by
// fcl_distance.cc throws std::runtime_error(message) instead, in every thread. Not for use
// outside tests.

namespace quasidyn {

class ScopedFclFaultForTesting {
 public:
  explicit ScopedFclFaultForTesting(const char* message);  // message must outlive this
  ~ScopedFclFaultForTesting();
  ScopedFclFaultForTesting(const ScopedFclFaultForTesting&) = delete;
  ScopedFclFaultForTesting& operator=(const ScopedFclFaultForTesting&) = delete;
};

// The message of the live ScopedFclFaultForTesting, or null (read by fcl_distance.cc).
const char* ActiveFclFaultForTesting();

}  // namespace quasidyn
