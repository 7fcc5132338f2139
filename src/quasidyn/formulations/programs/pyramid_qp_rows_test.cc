// The pyramid QP's contact rows (pyramid_qp.h, BuildPyramidConstraints) store every entry on
// their contact's columns, exact zeros included, so G's sparsity pattern follows the contact set
// alone and the solver keeps its pattern while the contacts stay (solvers/qp.h). The cubes of
// examples/arm_cubes start axis-aligned, where some entries (n + μ d_j)ᵀ J_i are exactly zero.

#include <gtest/gtest.h>

#include "quasidyn/formulations/programs/pyramid_qp.h"
#include "quasidyn/formulations/quasi_dynamic/quasi_dynamic_model.h"
#include "quasidyn/testing/pick_place_rollout.h"

namespace quasidyn {
namespace {

TEST(PyramidQpRows, AContactsRowsStoreEveryEntryOnItsColumnsZerosIncluded) {
  const auto model = testing::PickPlaceModel("qp");
  const auto data = model->CreateData();
  const testing::PickPlaceRun run = testing::RollPickPlace(*model, data.get(), /*cold=*/true);
  const auto previous = model->CreateData();
  int exact_zeros = 0, contacts_checked = 0;
  for (int k = 2; k <= testing::kPickPlaceSteps; ++k) {
    testing::CalcConsecutiveSteps(*model, run, k, previous.get(), data.get());
    const auto& d = static_cast<const QuasiDynamicData&>(*data);
    const ContactSet& contacts = d.contact().contacts();
    const SparseRowMatrix& G =
        dynamic_cast<const PyramidQpWorkspace&>(d.workspace()).qp.G;  // the step's QP
    ASSERT_GE(G.rows(), contacts.size() * contacts.ray_count());
    for (int i = 0; i < contacts.size(); ++i, ++contacts_checked) {
      const std::span<const int> columns = contacts.Columns(i);
      for (int j = 0; j < contacts.ray_count(); ++j) {
        const int row = i * contacts.ray_count() + j;
        ASSERT_EQ(G.row_start(row + 1) - G.row_start(row), static_cast<int>(columns.size()))
            << "step " << k << ", contact " << i << ", ray " << j;
        for (size_t e = 0; e < columns.size(); ++e) {
          const int entry = G.row_start(row) + static_cast<int>(e);
          EXPECT_EQ(G.column(entry), columns[e]);
          exact_zeros += G.value(entry) == 0.0;
        }
      }
    }
  }
  EXPECT_GT(contacts_checked, 0);
  EXPECT_GT(exact_zeros, 0);  // the rollout has such entries: the test can tell
}

}  // namespace
}  // namespace quasidyn
