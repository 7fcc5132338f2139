#include "quasidyn/formulations/programs/step_data_derivative.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/dynamics/quasi_dynamic_cost.h"
#include "quasidyn/dynamics/step_problem.h"
#include "quasidyn/kinematics/kinematics.h"

namespace quasidyn {

PyramidStepData BuildPyramidStepData(const StepProblem& problem) {
  PyramidStepData data;
  BuildPyramidStepData(problem, &data);
  return data;
}

namespace {

// Above this many entries a dense matrix is cleared by the pattern last written into it
// (ClearStoredEntries); at or below, zeroing it whole costs less than that bookkeeping.
constexpr Eigen::Index kClearedByPatternAbove = 1024;

// Sets the entries of `pattern`'s non-zeros in *dense to zero when *dense and `pattern` are
// both rows × cols and it has more than kClearedByPatternAbove entries (a dense matrix whose
// other entries are zero becomes all zeros); otherwise *dense = zeros(rows, cols).
void ClearStoredEntries(const SparseRowMatrix& pattern, Eigen::MatrixXd* dense, int rows,
                        int cols) {
  if (static_cast<Eigen::Index>(rows) * cols <= kClearedByPatternAbove || dense->rows() != rows ||
      dense->cols() != cols || pattern.rows() != rows || pattern.cols() != cols) {
    dense->setZero(rows, cols);
    return;
  }
  for (int r = 0; r < rows; ++r)
    for (int k = pattern.row_start(r); k < pattern.row_start(r + 1); ++k)
      (*dense)(r, pattern.column(k)) = 0.0;
}

// *dense = the matrix of `rows` (rows × cols). When *dense already has that shape and
// `previous` describes its non-zeros (the pattern written into it by the last call), only
// those entries are cleared instead of the whole matrix (ClearStoredEntries: an n_v × n_v P is
// mostly zeros); otherwise it is zeroed whole. `previous` is then the new pattern, or empty
// when the matrix is small enough to be zeroed whole next time as well.
void WriteDense(const SparseRowMatrix& rows, SparseRowMatrix* previous, Eigen::MatrixXd* dense) {
  ClearStoredEntries(*previous, dense, rows.rows(), rows.cols());
  for (int r = 0; r < rows.rows(); ++r)
    for (int k = rows.row_start(r); k < rows.row_start(r + 1); ++k)
      (*dense)(r, rows.column(k)) = rows.value(k);
  if (static_cast<Eigen::Index>(rows.rows()) * rows.cols() > kClearedByPatternAbove)
    *previous = rows;
  else
    previous->Reset(0);
}

}  // namespace

void BuildPyramidStepData(const StepProblem& problem, PyramidStepData* out) {
  PyramidStepData& data = *out;
  const ContactSet& contacts = problem.contacts;
  const double h = problem.time_step;
  const int nd = contacts.ray_count(), tangents = contacts.tangent_count();
  WriteDense(problem.cost.P, &data.P_written, &data.P);
  data.tau_h = problem.cost.tau_h;
  const JointLimitRows& limits = problem.cost.limits;
  const int contact_pyramid_rows = contacts.size() * nd;
  // G's entries outside G_rows are zero: only the last build's non-zeros are cleared.
  ClearStoredEntries(data.G_rows, &data.G, contact_pyramid_rows + limits.size(), contacts.nv());
  data.G_rows.Reset(contacts.nv());
  data.offset.resize(contact_pyramid_rows + limits.size());
  data.contact_keys.resize(contacts.size());
  int row = 0, contact_row = 0;
  for (int i = 0; i < contacts.size(); ++i) {
    const Contact& c = contacts[i];
    const std::span<const int> columns = contacts.Columns(i);
    const ContactSet::RowMap J_n = contacts.NormalJacobian(i);
    const ContactSet::RowsMap J_d = contacts.RayJacobian(i);
    const ContactSet::RaysMap rays = contacts.Rays(i);
    PyramidStepData::ContactKey& key = data.contact_keys[i];
    key.geometry_a = c.geometry_a;
    key.geometry_b = c.geometry_b;
    key.first_row = row;
    key.rows = nd;
    key.first_contact_row = contact_row;
    key.p_A = c.p_A;
    key.p_B = c.p_B;
    key.ray_map.resize(nd, 1 + tangents);
    key.columns.assign(columns.begin(), columns.end());
    for (int j = 0; j < nd; ++j) {
      data.G_rows.AppendRow();
      for (size_t k = 0; k < columns.size(); ++k) {
        const int col = static_cast<int>(k);
        data.G(row + j, columns[k]) = J_n[col] + c.friction * J_d(j, col);
        data.G_rows.AppendNonZero(columns[k], data.G(row + j, columns[k]));
      }
      data.offset[row + j] = c.phi / h;
      key.ray_map(j, 0) = 1.0;
      key.ray_map(j, 1) = c.friction * c.tangent1.dot(rays.col(j));
      if (tangents == 2) key.ray_map(j, 2) = c.friction * c.tangent2.dot(rays.col(j));
    }
    row += nd;
    contact_row += 1 + tangents;
  }
  data.contact_rows = contact_row;
  data.first_limit_row = contact_pyramid_rows;
  data.limits = limits;
  // The joint-limit rows d_l e_jᵀ (JointLimitJacobian, dynamics/joint_limit_rows.h).
  for (int l = 0; l < limits.size(); ++l) {
    data.G(contact_pyramid_rows + l, limits.rows[l].velocity) = limits.rows[l].direction;
    data.G_rows.AppendRow();
    data.G_rows.AppendNonZero(limits.rows[l].velocity, limits.rows[l].direction);
  }
  data.offset.tail(limits.size()) = limits.offsets();
}

Eigen::MatrixXd JointLimitRowDerivative(const PyramidStepData& data, double time_step) {
  return data.G.bottomRows(data.limits.size()) / time_step;
}

Outcome BuildPyramidStepData(const ContactModel& model, ContactData* contact_data,
                             const QuasiDynamicCostParameters& cost_parameters,
                             const Eigen::VectorXd& q, const Eigen::VectorXd& u,
                             PyramidStepData* out) {
  if (!model.Compute(q, contact_data)) return Outcome::Failure(contact_data->failure_message());
  const QuasiDynamicCost cost =
      BuildQuasiDynamicCost(contact_data->kinematics(), u, cost_parameters);
  *out = BuildPyramidStepData(
      StepProblem{model.scene(), contact_data->contacts(), cost, cost_parameters.time_step});
  return Outcome::Ok();
}

Eigen::MatrixXd PyramidRowsOf(const PyramidStepData& data, const Eigen::MatrixXd& contact_rows) {
  Eigen::MatrixXd out;
  PyramidRowsOf(data, contact_rows, &out);
  return out;
}

void PyramidRowsOf(const PyramidStepData& data, const Eigen::MatrixXd& contact_rows,
                   Eigen::MatrixXd* out) {
  if (contact_rows.rows() != data.contact_rows)
    throw std::invalid_argument("PyramidRowsOf: expected " + std::to_string(data.contact_rows) +
                                " contact rows, got " + std::to_string(contact_rows.rows()));
  out->setZero(data.G.rows(), contact_rows.cols());
  for (const PyramidStepData::ContactKey& key : data.contact_keys)
    out->middleRows(key.first_row, key.rows).noalias() =
        key.ray_map * contact_rows.middleRows(key.first_contact_row, key.ray_map.cols());
}

Eigen::VectorXd ContactImpulseOf(const PyramidStepData& data, const Eigen::VectorXd& beta) {
  Eigen::VectorXd lambda;
  ContactImpulseOf(data, beta, &lambda);
  return lambda;
}

void ContactImpulseOf(const PyramidStepData& data, const Eigen::VectorXd& beta,
                      Eigen::VectorXd* lambda) {
  if (beta.size() != data.G.rows())
    throw std::invalid_argument("ContactImpulseOf: beta has size " + std::to_string(beta.size()) +
                                ", expected one entry per pyramid row (" +
                                std::to_string(data.G.rows()) + ")");
  lambda->resize(data.contact_rows);
  for (const PyramidStepData::ContactKey& key : data.contact_keys)
    lambda->segment(key.first_contact_row, key.ray_map.cols()).noalias() =
        key.ray_map.transpose() * beta.segment(key.first_row, key.rows);
}

namespace {

// For every row of `at_q`, the index of the matching row of `other` (header comment), or an
// empty vector when some contact of `at_q` has no match.
std::vector<int> MatchRows(const PyramidStepData& at_q, const PyramidStepData& other,
                           double max_distance) {
  std::vector<int> rows;
  for (const PyramidStepData::ContactKey& key : at_q.contact_keys) {
    int best = -1;
    double best_distance = max_distance;
    for (int i = 0; i < static_cast<int>(other.contact_keys.size()); ++i) {
      const PyramidStepData::ContactKey& candidate = other.contact_keys[i];
      if (candidate.geometry_a != key.geometry_a || candidate.geometry_b != key.geometry_b ||
          candidate.rows != key.rows)
        continue;
      const double distance = (candidate.p_A - key.p_A).norm() + (candidate.p_B - key.p_B).norm();
      if (distance <= best_distance) {
        best = i;
        best_distance = distance;
      }
    }
    if (best < 0) return {};
    for (int j = 0; j < key.rows; ++j) rows.push_back(other.contact_keys[best].first_row + j);
  }
  // The joint-limit rows are the same rows at every configuration.
  for (int l = 0; l < at_q.limits.size(); ++l) rows.push_back(other.first_limit_row + l);
  return rows;
}

Eigen::MatrixXd SelectRows(const Eigen::MatrixXd& M, const std::vector<int>& rows) {
  Eigen::MatrixXd out(rows.size(), M.cols());
  for (size_t r = 0; r < rows.size(); ++r) out.row(r) = M.row(rows[r]);
  return out;
}

Eigen::VectorXd SelectEntries(const Eigen::VectorXd& x, const std::vector<int>& rows) {
  Eigen::VectorXd out(rows.size());
  for (size_t r = 0; r < rows.size(); ++r) out[r] = x[rows[r]];
  return out;
}

}  // namespace

Outcome DifferentiatePyramidStepData(const ContactModel& model,
                                     const QuasiDynamicCostParameters& cost_parameters,
                                     const Eigen::VectorXd& q, const Eigen::VectorXd& u,
                                     const PyramidStepData& at_q, double data_step,
                                     PyramidStepDataDerivative* out) {
  CheckPositive("DifferentiatePyramidStepData", "data_step", data_step);
  const Scene& scene = model.scene();
  const int nv = scene.nv;
  const int m = static_cast<int>(at_q.G.rows());
  PyramidStepDataDerivative& d = *out;
  d.d_P.resize(nv);
  d.d_G.resize(nv);
  d.d_tau_h.resize(nv, nv);
  d.d_offset.resize(m, nv);
  ContactData contact_data = model.CreateData();
  PyramidStepData up, down;
  // The central difference of the data along e_k with step `step`, into the column k (P: the
  // matrix k) of `into`.
  auto central = [&](int k, double step, PyramidStepDataDerivative* into) -> Outcome {
    const Eigen::VectorXd e_k = Eigen::VectorXd::Unit(nv, k);
    const Eigen::VectorXd q_up = IntegrateConfiguration(scene, q, e_k, step);
    const Eigen::VectorXd q_down = IntegrateConfiguration(scene, q, e_k, -step);
    if (Outcome outcome = BuildPyramidStepData(model, &contact_data, cost_parameters, q_up, u, &up);
        !outcome)
      return outcome;
    if (Outcome outcome =
            BuildPyramidStepData(model, &contact_data, cost_parameters, q_down, u, &down);
        !outcome)
      return outcome;
    const std::vector<int> rows_up = MatchRows(at_q, up, 1000.0 * data_step);
    const std::vector<int> rows_down = MatchRows(at_q, down, 1000.0 * data_step);
    if (static_cast<int>(rows_up.size()) != m || static_cast<int>(rows_down.size()) != m) {
      return Outcome::Failure(
          "a contact of q disappears within ±" + std::to_string(step) +
          " along velocity direction " + std::to_string(k) + " (" +
          std::to_string(at_q.contact_keys.size()) + " contacts at q, " +
          std::to_string(up.contact_keys.size()) + " / " +
          std::to_string(down.contact_keys.size()) +
          " at the perturbed configurations): the step is not differentiable there");
    }
    const double scale = 1.0 / (2.0 * step);
    into->d_P[k] = (up.P - down.P) * scale;
    into->d_G[k] = (SelectRows(up.G, rows_up) - SelectRows(down.G, rows_down)) * scale;
    into->d_tau_h.col(k) = (up.tau_h - down.tau_h) * scale;
    into->d_offset.col(k) =
        (SelectEntries(up.offset, rows_up) - SelectEntries(down.offset, rows_down)) * scale;
    return Outcome::Ok();
  };
  PyramidStepDataDerivative half = d;  // the same sizes
  for (int k = 0; k < nv; ++k) {
    if (Outcome outcome = central(k, data_step, &d); !outcome) return outcome;
    if (Outcome outcome = central(k, 0.5 * data_step, &half); !outcome) return outcome;
    // Richardson: D(ε) = D + c ε² + O(ε⁴), so (4 D(ε/2) − D(ε))/3 = D + O(ε⁴).
    d.d_P[k] = (4.0 * half.d_P[k] - d.d_P[k]) / 3.0;
    d.d_G[k] = (4.0 * half.d_G[k] - d.d_G[k]) / 3.0;
    d.d_tau_h.col(k) = (4.0 * half.d_tau_h.col(k) - d.d_tau_h.col(k)) / 3.0;
    d.d_offset.col(k) = (4.0 * half.d_offset.col(k) - d.d_offset.col(k)) / 3.0;
  }
  return Outcome::Ok();
}

}  // namespace quasidyn
