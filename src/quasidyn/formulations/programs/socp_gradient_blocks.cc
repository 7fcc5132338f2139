#include "quasidyn/formulations/programs/socp_gradient_blocks.h"

#include <span>
#include <stdexcept>
#include <string>

#include "quasidyn/common/argument_check.h"

namespace quasidyn {
namespace {

// blocks[count] set to (contact, first_row) with R zero of size rows × cols, reusing the
// element's storage; returns its R.
Eigen::MatrixXd& NextBlock(std::vector<ContactConeBlock>* blocks, size_t count, int contact,
                           int first_row, int rows, int cols) {
  if (count == blocks->size()) blocks->emplace_back();
  ContactConeBlock& block = (*blocks)[count];
  block.contact = contact;
  block.first_row = first_row;
  block.R.setZero(rows, cols);
  return block.R;
}

}  // namespace

std::vector<int> ContactFirstRows(const ContactSet& contacts) {
  std::vector<int> first(contacts.size() + 1, 0);
  for (int i = 0; i < contacts.size(); ++i) first[i + 1] = first[i] + 1 + contacts.tangent_count();
  return first;
}

void SocpConeBlocks(const ContactSet& contacts, std::vector<ContactConeBlock>* blocks) {
  const int nt = contacts.tangent_count(), nr = 1 + nt;
  size_t count = 0;
  for (int i = 0; i < contacts.size(); ++i) {
    const Contact& c = contacts[i];
    const int first = i * nr;
    if (!(c.friction > 0)) {
      NextBlock(blocks, count++, i, first, 1, nr)(0, 0) = 1.0;
    } else if (nt == 1) {  // t ± z >= 0
      Eigen::MatrixXd& plus = NextBlock(blocks, count++, i, first, 1, 2);
      plus << 1.0, c.friction;
      Eigen::MatrixXd& minus = NextBlock(blocks, count++, i, first, 1, 2);
      minus << 1.0, -c.friction;
    } else {  // R = diag(1, μ I)
      Eigen::MatrixXd& R = NextBlock(blocks, count++, i, first, nr, nr);
      R(0, 0) = 1.0;
      for (int k = 1; k < nr; ++k) R(k, k) = c.friction;
    }
  }
  blocks->resize(count);
}

std::vector<ContactConeBlock> SocpConeBlocks(const ContactSet& contacts) {
  std::vector<ContactConeBlock> blocks;
  SocpConeBlocks(contacts, &blocks);
  return blocks;
}

void BarrierConeBlocks(const ContactSet& contacts, std::vector<ContactConeBlock>* blocks) {
  const int nt = contacts.tangent_count(), nr = 1 + nt;
  for (int i = 0; i < contacts.size(); ++i) {
    const Contact& c = contacts[i];
    if (c.friction > 0) {  // R = diag(1, μ I)
      Eigen::MatrixXd& R = NextBlock(blocks, i, i, i * nr, nr, nr);
      R(0, 0) = 1.0;
      for (int k = 1; k < nr; ++k) R(k, k) = c.friction;
    } else {
      NextBlock(blocks, i, i, i * nr, 1, nr)(0, 0) = 1.0;
    }
  }
  blocks->resize(contacts.size());
}

std::vector<ContactConeBlock> BarrierConeBlocks(const ContactSet& contacts) {
  std::vector<ContactConeBlock> blocks;
  BarrierConeBlocks(contacts, &blocks);
  return blocks;
}

void GapVelocities(const ContactSet& contacts, const Eigen::VectorXd& v, double time_step,
                   Eigen::VectorXd* out) {
  CheckSize("GapVelocities", "v", v.size(), contacts.nv(), "n_v");
  const int nt = contacts.tangent_count(), nr = 1 + nt;
  Eigen::VectorXd& c = *out;
  c.resize(contacts.size() * nr);
  for (int i = 0; i < contacts.size(); ++i) {
    const std::span<const int> columns = contacts.Columns(i);
    const ContactSet::RowsMap J_t = contacts.TangentJacobian(i);
    c[i * nr] = contacts[i].phi / time_step + contacts.NormalVelocity(i, v);
    for (int t = 0; t < nt; ++t) {
      double sum = 0.0;
      for (size_t k = 0; k < columns.size(); ++k)
        sum += J_t(t, static_cast<int>(k)) * v[columns[k]];
      c[i * nr + 1 + t] = sum;
    }
  }
}

Eigen::VectorXd GapVelocities(const ContactSet& contacts, const Eigen::VectorXd& v,
                              double time_step) {
  Eigen::VectorXd c;
  GapVelocities(contacts, v, time_step, &c);
  return c;
}

std::vector<Eigen::VectorXd> BlockValues(const std::vector<ContactConeBlock>& blocks,
                                         const Eigen::VectorXd& gap_velocities) {
  std::vector<Eigen::VectorXd> values;
  values.reserve(blocks.size());
  for (const ContactConeBlock& b : blocks)
    values.push_back(b.R * gap_velocities.segment(b.first_row, b.R.cols()));
  return values;
}

Eigen::MatrixXd CompactBlockJacobian(const ContactSet& contacts, const ContactConeBlock& block) {
  const int nt = contacts.tangent_count();
  const int k = static_cast<int>(contacts.Columns(block.contact).size());
  Eigen::MatrixXd Jc(1 + nt, k);
  Jc.row(0) = contacts.NormalJacobian(block.contact);
  Jc.bottomRows(nt) = contacts.TangentJacobian(block.contact);
  return block.R * Jc;
}

Eigen::MatrixXd BlockJacobian(const ContactSet& contacts, const ContactConeBlock& block) {
  const Eigen::MatrixXd compact = CompactBlockJacobian(contacts, block);
  const std::span<const int> columns = contacts.Columns(block.contact);
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(compact.rows(), contacts.nv());
  for (size_t c = 0; c < columns.size(); ++c) A.col(columns[c]) = compact.col(static_cast<int>(c));
  return A;
}

void SocpBlockMultipliers(const ContactSet& contacts, const std::vector<ContactConeBlock>& blocks,
                          const FormulationSolution& solution, std::vector<Eigen::VectorXd>* out) {
  QUASIDYN_CHECK_ARGUMENT(static_cast<int>(solution.normal_impulse.size()) == contacts.size() &&
                              static_cast<int>(solution.friction_impulse.size()) == contacts.size(),
                          "SocpBlockMultipliers",
                          "the solution has " + std::to_string(solution.normal_impulse.size()) +
                              " impulses for " + std::to_string(contacts.size()) + " contacts");
  std::vector<Eigen::VectorXd>& y = *out;
  y.resize(blocks.size());
  for (size_t b = 0; b < blocks.size(); ++b) {
    const int i = blocks[b].contact;
    const Contact& c = contacts[i];
    const double normal = solution.normal_impulse[i];
    const Eigen::Vector3d friction = solution.friction_impulse[i];
    const int m = static_cast<int>(blocks[b].R.rows());
    y[b].resize(m);
    if (!(c.friction > 0)) {
      y[b][0] = normal;
    } else if (m == 1) {  // planar row t ± z: ζ± = (λ_n ± λ̂_t/μ)/2, sign from R(0, 1)
      const double tangential = c.tangent1.dot(friction) / c.friction;
      y[b][0] = 0.5 * (normal + (blocks[b].R(0, 1) > 0 ? tangential : -tangential));
    } else {
      y[b][0] = normal;
      y[b][1] = c.tangent1.dot(friction) / c.friction;
      if (m > 2) y[b][2] = c.tangent2.dot(friction) / c.friction;
    }
  }
}

std::vector<Eigen::VectorXd> SocpBlockMultipliers(const ContactSet& contacts,
                                                  const std::vector<ContactConeBlock>& blocks,
                                                  const FormulationSolution& solution) {
  std::vector<Eigen::VectorXd> y;
  SocpBlockMultipliers(contacts, blocks, solution, &y);
  return y;
}

void StackedImpulseCoordinates(const ContactSet& contacts,
                               const std::vector<ContactConeBlock>& blocks,
                               const std::vector<Eigen::VectorXd>& multipliers,
                               Eigen::VectorXd* lambda) {
  lambda->setZero(contacts.size() * (1 + contacts.tangent_count()));
  for (size_t b = 0; b < blocks.size(); ++b) {
    const Eigen::MatrixXd& R = blocks[b].R;
    const Eigen::VectorXd& y = multipliers[b];
    double* out = lambda->data() + blocks[b].first_row;
    // (R_bᵀ y_b)_j = Σ_i R_ij y_i, summed in i's order.
    for (int j = 0; j < R.cols(); ++j) {
      double sum = 0.0;
      for (int i = 0; i < R.rows(); ++i) sum += R(i, j) * y[i];
      out[j] += sum;
    }
  }
}

Eigen::VectorXd StackedImpulseCoordinates(const ContactSet& contacts,
                                          const std::vector<ContactConeBlock>& blocks,
                                          const std::vector<Eigen::VectorXd>& multipliers) {
  Eigen::VectorXd lambda;
  StackedImpulseCoordinates(contacts, blocks, multipliers, &lambda);
  return lambda;
}

void CheckContractionSizes(const ContactSet& contacts, const StepDataContraction& contraction) {
  const int nv = contacts.nv(), nc = contacts.size();
  const int r = nc * (1 + contacts.tangent_count());
  auto check = [](const Eigen::MatrixXd& M, int rows, int cols, const char* name) {
    if (M.rows() != rows || M.cols() != cols)
      throw std::invalid_argument(std::string("StepDataContraction::") + name + " is " +
                                  std::to_string(M.rows()) + " × " + std::to_string(M.cols()) +
                                  ", expected " + std::to_string(rows) + " × " +
                                  std::to_string(cols));
  };
  check(contraction.d_phi, nc, nv, "d_phi");
  check(contraction.d_Jc_v, r, nv, "d_Jc_v");
  check(contraction.d_JcT_lambda, nv, nv, "d_JcT_lambda");
  check(contraction.d_P_v, nv, nv, "d_P_v");
  check(contraction.d_tau_h, nv, nv, "d_tau_h");
}

void BlockValueDerivative(const ContactConeBlock& block, const StepDataContraction& contraction,
                          double time_step, Eigen::Ref<Eigen::MatrixXd> out) {
  const Eigen::MatrixXd& R = block.R;
  const int nr = static_cast<int>(R.cols()), nv = static_cast<int>(contraction.d_Jc_v.cols());
  // Entry by entry (m_b, 1 + n_t <= 3): Σ_j R_ij ∂(J_c v)_j + (R_i0/h) ∂φ.
  for (int k = 0; k < nv; ++k) {
    const double d_phi = contraction.d_phi(block.contact, k);
    const double* d_Jc_v = contraction.d_Jc_v.col(k).data() + block.first_row;
    for (int i = 0; i < R.rows(); ++i) {
      double sum = 0.0;
      for (int j = 0; j < nr; ++j) sum += R(i, j) * d_Jc_v[j];
      out(i, k) = sum + (R(i, 0) / time_step) * d_phi;
    }
  }
}

namespace {

// scale · ∂u_b/∂ε_k for k = columns[s], entry (s, i) into out(s, k, i) (BlockValueDerivativeOn
// and CompactBlockValueDerivative: out picks the place), for an R of mb × nr (at most 3 × 3);
// the bounds are compile-time constants for the common 3 × 3 block (MB = NR = 0: read mb, nr).
template <int MB, int NR, typename Out>
void BlockValueDerivativeLoop(const double (&R_entries)[3][3], int mb, int nr,
                              const StepDataContraction& contraction, int contact, int first_row,
                              double time_step, std::span<const int> columns, double scale,
                              Out out) {
  if constexpr (MB > 0) mb = MB;
  if constexpr (NR > 0) nr = NR;
  double R0_over_h[3];
  for (int i = 0; i < mb; ++i) R0_over_h[i] = R_entries[i][0] / time_step;
  const Eigen::Index r = contraction.d_Jc_v.rows(), nc = contraction.d_phi.rows();
  // As BlockValueDerivative, entry by entry: Σ_j R_ij ∂(J_c v)_j + (R_i0/h) ∂φ.
  for (int s = 0; s < static_cast<int>(columns.size()); ++s) {
    const int k = columns[s];
    const double d_phi = contraction.d_phi.data()[contact + k * nc];
    const double* d_Jc_v = contraction.d_Jc_v.data() + k * r + first_row;
    for (int i = 0; i < mb; ++i) {
      double sum = 0.0;
      for (int j = 0; j < nr; ++j) sum += R_entries[i][j] * d_Jc_v[j];
      out(s, k, i) = scale * (sum + R0_over_h[i] * d_phi);
    }
  }
}

template <typename Out>
void BlockValueDerivativeEach(const ContactConeBlock& block, const StepDataContraction& contraction,
                              double time_step, std::span<const int> columns, double scale,
                              Out out) {
  const Eigen::MatrixXd& R = block.R;
  const int mb = static_cast<int>(R.rows()), nr = static_cast<int>(R.cols());
  if (mb > 3 || nr > 3)
    throw std::invalid_argument("BlockValueDerivativeOn: a block has at most 3 rows and columns");
  double R_entries[3][3];
  for (int i = 0; i < mb; ++i)
    for (int j = 0; j < nr; ++j) R_entries[i][j] = R(i, j);
  if (mb == 3 && nr == 3)
    BlockValueDerivativeLoop<3, 3>(R_entries, mb, nr, contraction, block.contact, block.first_row,
                                   time_step, columns, scale, out);
  else
    BlockValueDerivativeLoop<0, 0>(R_entries, mb, nr, contraction, block.contact, block.first_row,
                                   time_step, columns, scale, out);
}

}  // namespace

void BlockValueDerivativeOn(const ContactConeBlock& block, const StepDataContraction& contraction,
                            double time_step, std::span<const int> columns, double scale,
                            Eigen::Ref<Eigen::MatrixXd> out) {
  BlockValueDerivativeEach(block, contraction, time_step, columns, scale,
                           [&out](int, int k, int i) -> double& { return out(k, i); });
}

void CompactBlockValueDerivative(const ContactConeBlock& block,
                                 const StepDataContraction& contraction, double time_step,
                                 std::span<const int> columns, double scale, double* out) {
  const size_t k = columns.size();
  BlockValueDerivativeEach(block, contraction, time_step, columns, scale,
                           [out, k](int s, int, int i) -> double& { return out[i * k + s]; });
}

Eigen::MatrixXd BlockValueDerivative(const ContactConeBlock& block,
                                     const StepDataContraction& contraction, double time_step) {
  Eigen::MatrixXd out(block.R.rows(), contraction.d_Jc_v.cols());
  BlockValueDerivative(block, contraction, time_step, out);
  return out;
}

Eigen::MatrixXd StationarityDataDerivative(const StepDataContraction& contraction) {
  return contraction.d_tau_h - contraction.d_P_v + contraction.d_JcT_lambda;
}

void StationarityDataDerivative(const StepDataContraction& contraction,
                                Eigen::Ref<Eigen::MatrixXd> out) {
  out = contraction.d_tau_h - contraction.d_P_v + contraction.d_JcT_lambda;
}

}  // namespace quasidyn
