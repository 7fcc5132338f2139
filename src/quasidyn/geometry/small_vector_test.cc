// SmallVector: inline storage that spills to the heap, and keeps the heap's capacity.
#include "quasidyn/geometry/small_vector.h"

#include <gtest/gtest.h>

#include "quasidyn/testing/malloc_counter.h"

namespace quasidyn {
namespace {

TEST(SmallVector, KeepsOrderAcrossTheSpillToTheHeap) {
  SmallVector<int, 4> v;
  EXPECT_TRUE(v.empty());
  for (int i = 0; i < 10; ++i) v.push_back(10 * i);  // 4 inline, then 6 more on the heap
  ASSERT_EQ(v.size(), 10u);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(v[i], 10 * i);
  int sum = 0;
  for (int x : v) sum += x;
  EXPECT_EQ(sum, 450);  // 10 · (0 + 1 + … + 9)
  v.clear();
  EXPECT_TRUE(v.empty());
  v.push_back(7);  // back to inline storage after clear
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0], 7);
}

TEST(SmallVector, ResizeInlineAndPastCapacityKeepsTheWrittenPrefix) {
  SmallVector<int, 4> v;
  v.resize(3);
  for (int i = 0; i < 3; ++i) v[i] = i + 1;
  v.resize(9);  // spills: the first 3 stay
  ASSERT_EQ(v.size(), 9u);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(v[i], i + 1);
  v.resize(2);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[1], 2);
}

TEST(SmallVector, ClearKeepsTheSpilledCapacity) {
  if (!testing::MallocCountingAvailable()) GTEST_SKIP() << "no allocation counting";
  SmallVector<int, 4> v;
  for (int i = 0; i < 20; ++i) v.push_back(i);  // spills once
  v.clear();
  testing::MallocCounter counter;
  for (int i = 0; i < 20; ++i) v.push_back(i);  // spills again into the kept capacity
  v.clear();
  v.resize(20);
  EXPECT_EQ(counter.count(), 0);
  EXPECT_EQ(v.size(), 20u);
}

}  // namespace
}  // namespace quasidyn
