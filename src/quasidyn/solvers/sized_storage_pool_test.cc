// SizedStoragePool (sized_storage_pool.h): once every size has been met, resizing among them
// allocates nothing; the spares stay within their bounds.
#include "quasidyn/solvers/sized_storage_pool.h"

#include <gtest/gtest.h>

#include "quasidyn/testing/malloc_counter.h"

namespace quasidyn {
namespace {

TEST(SizedStoragePoolTest, SizesMetBeforeAllocateNothing) {
  if (!testing::MallocCountingAvailable()) GTEST_SKIP() << "malloc counting is off (sanitizers)";
  SizedStoragePool pool;
  Eigen::VectorXd a, b;
  Eigen::MatrixXd M;
  const int sizes[] = {6, 2, 4, 0, 6, 4, 2};
  for (int size : sizes) {  // first pass: every size met
    pool.Resize(&a, size);
    pool.Resize(&b, size);
    pool.Resize(&M, size, 3);
  }
  long allocations = 0;
  {
    testing::MallocCounter counter;
    for (int pass = 0; pass < 3; ++pass) {
      for (int size : sizes) {
        pool.Resize(&a, size);
        pool.Resize(&b, size);
        pool.Resize(&M, size, 3);
        ASSERT_EQ(a.size(), size);
        ASSERT_EQ(b.size(), size);
        ASSERT_EQ(M.rows(), size);
        ASSERT_EQ(M.cols(), 3);
        a.setConstant(1.0);  // the storage is usable
        M.setConstant(2.0);
      }
    }
    allocations = counter.count();
  }
  EXPECT_EQ(allocations, 0);
  // Without the pool the same resizes allocate (the test can fail).
  Eigen::VectorXd plain;
  long plain_allocations = 0;
  {
    testing::MallocCounter counter;
    for (int size : sizes) plain.resize(size);
    plain_allocations = counter.count();
  }
  EXPECT_GT(plain_allocations, 0);
}

// More sizes than spares, and a buffer beyond the entry bound: the oldest spares are given back,
// so a size met long ago allocates again, and the large buffer is never kept.
TEST(SizedStoragePoolTest, KeepsAtMostItsBoundOfSpares) {
  if (!testing::MallocCountingAvailable()) GTEST_SKIP() << "malloc counting is off (sanitizers)";
  SizedStoragePool pool;
  Eigen::VectorXd v;
  for (int size = 1; size <= SizedStoragePool::kMaxSpares + 5; ++size) pool.Resize(&v, size);
  long allocations = 0;
  {
    testing::MallocCounter counter;
    pool.Resize(&v, 1);  // the first spare was given back: allocates
    allocations = counter.count();
  }
  EXPECT_EQ(allocations, 1);
  pool.Resize(&v, SizedStoragePool::kMaxSpareEntries + 1);
  pool.Resize(&v, 2);
  {
    testing::MallocCounter counter;
    pool.Resize(&v, SizedStoragePool::kMaxSpareEntries + 1);  // not kept: allocates
    allocations = counter.count();
  }
  EXPECT_EQ(allocations, 1);
}

}  // namespace
}  // namespace quasidyn
