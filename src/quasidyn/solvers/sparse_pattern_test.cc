#include "quasidyn/solvers/sparse_pattern.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace quasidyn {
namespace {

// A square n × n pattern with the diagonal and a few random entries per column, values equal
// to their own storage index (so that a lookup can be checked against the value).
Eigen::SparseMatrix<double> IndexedPattern(int n, std::mt19937* engine) {
  std::uniform_int_distribution<int> row(0, n - 1);
  std::vector<Eigen::Triplet<double>> entries;
  for (int col = 0; col < n; ++col) {
    entries.emplace_back(col, col, 0.0);
    for (int k = 0; k < 4; ++k) entries.emplace_back(row(*engine), col, 0.0);
  }
  Eigen::SparseMatrix<double> m(n, n);
  m.setFromTriplets(entries.begin(), entries.end());
  m.makeCompressed();
  for (int e = 0; e < m.nonZeros(); ++e) m.valuePtr()[e] = e;
  return m;
}

// Both ways of finding an entry, the table (n <= kTableSize) and the binary search (larger),
// give every stored entry's own index, also when the same object is indexed again for
// another pattern of the same size.
TEST(SparsePositionsTest, EveryStoredEntryIsFoundByTableAndBySearch) {
  std::mt19937 engine(5);
  for (const int n : {1, 69, SparsePositions::kTableSize, SparsePositions::kTableSize + 1, 700}) {
    SparsePositions positions;
    for (int pattern = 0; pattern < 2; ++pattern) {
      const Eigen::SparseMatrix<double> m = IndexedPattern(n, &engine);
      positions.Index(m);
      int checked = 0;
      for (int col = 0; col < n; ++col) {
        for (Eigen::SparseMatrix<double>::InnerIterator it(m, col); it; ++it) {
          ASSERT_EQ(positions(static_cast<int>(it.row()), col), static_cast<int>(it.value()))
              << "n = " << n << ", entry (" << it.row() << ", " << col << ")";
          ++checked;
        }
      }
      EXPECT_EQ(checked, m.nonZeros());
    }
  }
}

}  // namespace
}  // namespace quasidyn
