// KeptCapacityMatrix (kept_capacity_matrix.h): its storage grows to the largest shape and is
// then reused for any shape of no more entries (no allocation, the same storage), and its
// view is the column-major matrix of the current shape.

#include "quasidyn/gradients/kept_capacity_matrix.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <utility>

#include "quasidyn/testing/malloc_counter.h"

namespace quasidyn {
namespace {

TEST(KeptCapacityMatrix, KeepsItsLargestStorageAcrossShapes) {
  KeptCapacityMatrix m;
  m.SetZero(4, 5);
  const double* storage = m.data();
  long allocations = 0;
  {
    testing::MallocCounter counter;
    for (const auto& [rows, cols] : {std::pair{2, 3}, std::pair{5, 4}, std::pair{1, 1},
                                     std::pair{0, 7}, std::pair{20, 1}, std::pair{4, 5}}) {
      m.Resize(rows, cols);
      EXPECT_EQ(m.rows(), rows);
      EXPECT_EQ(m.cols(), cols);
      EXPECT_EQ(m.data(), storage) << rows << " × " << cols;
    }
    allocations = counter.count();
  }
  if (testing::MallocCountingAvailable()) {
    EXPECT_EQ(allocations, 0);
  }
  m.Resize(6, 6);  // more entries than ever: grows
  EXPECT_EQ(m.view().size(), 36);
}

TEST(KeptCapacityMatrix, ItsViewIsTheColumnMajorMatrixOfTheCurrentShape) {
  KeptCapacityMatrix m;
  m.SetZero(3, 4);
  m.Resize(2, 3);
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 2; ++i) m(i, j) = 10 * i + j;
  const KeptCapacityMatrix::View v = m.view();
  ASSERT_EQ(v.rows(), 2);
  ASSERT_EQ(v.cols(), 3);
  for (int j = 0; j < 3; ++j) {
    EXPECT_EQ(m.col(j), m.data() + 2 * j);
    for (int i = 0; i < 2; ++i) EXPECT_EQ(v(i, j), 10 * i + j);
  }
  m.SetZero(2, 2);
  EXPECT_TRUE(m.view().isZero(0.0));
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(m.data()) % 16, 0u);  // Eigen's alignment
}

}  // namespace
}  // namespace quasidyn
