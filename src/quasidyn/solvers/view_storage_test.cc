// ViewStorage (view_storage.h): views of the requested sizes on disjoint, aligned parts of one
// storage; once the largest layout has been met, seating any layout within it allocates nothing.
#include "quasidyn/solvers/view_storage.h"

#include <gtest/gtest.h>

#include <cstdint>

#include "quasidyn/testing/malloc_counter.h"

namespace quasidyn {
namespace {

struct Views {
  ViewStorage::MatrixView A{nullptr, 0, 0}, B{nullptr, 0, 0};
  ViewStorage::VectorView x{nullptr, 0}, y{nullptr, 0};
};

void SeatViews(int n, int m, ViewStorage* storage, Views* views) {
  storage->Seat({{&views->A, n, n}, {&views->B, m, n}}, {{&views->x, n}, {&views->y, m}});
}

bool Aligned16(const double* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

TEST(ViewStorageTest, ViewsHaveTheirSizesAndDoNotOverlap) {
  ViewStorage storage;
  Views views;
  for (const auto& [n, m] : {std::pair{3, 5}, std::pair{7, 1}, std::pair{0, 4}, std::pair{3, 3}}) {
    SeatViews(n, m, &storage, &views);
    ASSERT_EQ(views.A.rows(), n);
    ASSERT_EQ(views.A.cols(), n);
    ASSERT_EQ(views.B.rows(), m);
    ASSERT_EQ(views.B.cols(), n);
    ASSERT_EQ(views.x.size(), n);
    ASSERT_EQ(views.y.size(), m);
    // Odd sizes are padded so that every view starts 16-byte aligned, as Eigen's own storage.
    for (const double* p : {views.A.data(), views.B.data(), views.x.data(), views.y.data()})
      EXPECT_TRUE(Aligned16(p)) << "n = " << n << ", m = " << m;
    // Each view written with its own value keeps it: no two views share an entry.
    views.A.setConstant(1.0);
    views.B.setConstant(2.0);
    views.x.setConstant(3.0);
    views.y.setConstant(4.0);
    EXPECT_TRUE((views.A.array() == 1.0).all());
    EXPECT_TRUE((views.B.array() == 2.0).all());
    EXPECT_TRUE((views.x.array() == 3.0).all());
    EXPECT_TRUE((views.y.array() == 4.0).all());
  }
}

TEST(ViewStorageTest, LayoutsWithinTheLargestMetAllocateNothing) {
  if (!testing::MallocCountingAvailable()) GTEST_SKIP() << "malloc counting is off (sanitizers)";
  ViewStorage storage;
  Views views;
  SeatViews(40, 30, &storage, &views);
  const std::size_t largest = storage.capacity();
  EXPECT_GE(largest, 40u * 40 + 30 * 40 + 40 + 30);
  long allocations = 0;
  {
    testing::MallocCounter counter;
    for (const auto& [n, m] : {std::pair{39, 29}, std::pair{1, 1}, std::pair{40, 30},
                               std::pair{0, 0}, std::pair{20, 60}}) {
      SeatViews(n, m, &storage, &views);
      views.A.setZero();
      views.B.setZero();
    }
    allocations = counter.count();
  }
  EXPECT_EQ(allocations, 0);
  EXPECT_EQ(storage.capacity(), largest);
  // A larger layout grows the storage (once).
  SeatViews(41, 30, &storage, &views);
  EXPECT_GT(storage.capacity(), largest);
}

}  // namespace
}  // namespace quasidyn
