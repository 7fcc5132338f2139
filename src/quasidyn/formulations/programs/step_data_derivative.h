#pragma once
// The data of the pyramid time step of Pang & Tedrake 2021, eq. (10) (dynamics/
// quasi_dynamic_qp.h) as a function of the configuration, and its derivative along the
// velocity-space (tangent) directions of q:
//
//   minimise ½ vᵀ P(q) v − τ_h(q, u)ᵀ v   subject to   G(q) v + o(q) >= 0,
//   G rows (J_n,i + μ_i J_d,ij)(q),  o_ij = φ_i(q)/h,
//   then the joint-limit rows d_l e_jᵀ, o_l = d_l (q_j − bound_l)/h (dynamics/
//   joint_limit_rows.h): G_l is constant and ∂o_l/∂ε_k = G_l,k / h,
//
// P = blockdiag(s·M_u(q), h²K_a) and τ_h = [h τ_u(q); h K_a (u − q_a)] (quasi_dynamic_cost.h).
//
// ∂/∂q of P, τ_h, G and o along the tangent direction k, i.e. along the curve
// q(ε) = q ⊕ ε e_k (kinematics/kinematics.h, IntegrateConfiguration), is computed here by
// central differences of the DATA (not of the solution) with a step of ε_data [m or rad] (an
// analytic ∂J/∂q would need second derivatives of the kinematics and of the witness points).
// It includes
// every q-dependence of the model: ∂J_n/∂q, ∂J_d/∂q (normals, rays and witness points
// move), ∂M_u/∂q (orientation-dependent mass matrix), ∂τ_u/∂q (the gravity torque's lever
// arm) and ∂φ/∂q (= J_n to first order) and ∂τ_h/∂q_a = −h K_a.
//
// Contact matching: the rows differentiated are those of the contacts present at q. Each is
// matched at the perturbed configuration to the contact of the same geometry pair and ray
// count whose witness points are nearest (‖Δp_A‖ + ‖Δp_B‖ <= 1000·ε_data). Contacts that
// appear only at the perturbed configurations are ignored: e.g. two cube faces lying flat on
// each other give one more manifold point when tilted by ±1e-6 rad, a point that duplicates
// an existing one (the derivative is that of the program with the contact set of q). When a
// contact of q has no match within ±ε_data the derivative does not exist as computed: the
// differentiation returns false with a message naming the direction.

#include <Eigen/Core>
#include <string>
#include <vector>

#include "quasidyn/common/outcome.h"
#include "quasidyn/contact/contact_model.h"
#include "quasidyn/contact/contact_set.h"
#include "quasidyn/dynamics/joint_limit_rows.h"
#include "quasidyn/dynamics/quasi_dynamic_cost.h"
#include "quasidyn/dynamics/step_problem.h"
#include "quasidyn/solvers/sparse_row_matrix.h"

namespace quasidyn {

struct PyramidStepData {
  Eigen::MatrixXd P;  // n_v × n_v [kg or kg·m²; h²K_a block in N·s²/m]
  // The entries the last build wrote into P (the cost's P), or empty when it zeroed P whole
  // (BuildPyramidStepData's bookkeeping).
  SparseRowMatrix P_written;
  Eigen::VectorXd tau_h;  // n_v [N·s]
  // m × n_v, m = Σ_i n_d,i + n_l rows: contact-major as BuildPyramidQp, then the joint-limit
  // rows from first_limit_row on.
  Eigen::MatrixXd G;
  SparseRowMatrix G_rows;  // G's non-zeros by row (CSR), for the products that need only them
  Eigen::VectorXd offset;  // m: φ_i/h, then o_l [m/s or rad/s]
  // Per contact, to match contact sets at nearby configurations, and the constant map from
  // its contact rows J_c,i = [J_n,i; J_t,i] (contact_data_derivative.h) to its pyramid rows:
  // G_i = ray_map · J_c,i with ray_map row j = [1, μ_i t1·d_ij, μ_i t2·d_ij] (planar: without
  // the t2 column), since d_ij lies in the tangent plane (contact/friction_cone.h).
  struct ContactKey {
    int geometry_a = -1, geometry_b = -1;
    int first_row = 0, rows = 0;  // its rows of G
    int first_contact_row = 0;    // its first row of J_c (1 + n_t rows)
    Eigen::Vector3d p_A, p_B;     // witness points [m]
    Eigen::MatrixXd ray_map;      // rows × (1 + n_t) [-]
    // The velocities that move the contact (its two bodies' chains, ContactSet::Columns):
    // every derivative of its data along another direction is zero.
    std::vector<int> columns;
  };
  std::vector<ContactKey> contact_keys;
  int contact_rows = 0;     // r = Σ_i (1 + n_t), the rows of J_c
  int first_limit_row = 0;  // Σ_i n_d,i: the joint-limit rows are G's last n_l rows
  JointLimitRows limits;    // the step's (cost.limits)
};

// ∂(G v + o)/∂ε_k of the joint-limit rows at fixed v: G_l / h (n_l × n_v); h [s] > 0.
Eigen::MatrixXd JointLimitRowDerivative(const PyramidStepData& data, double time_step);

// The data of a step from its contact set and cost (dynamics/step_problem.h).
PyramidStepData BuildPyramidStepData(const StepProblem& problem);
// The same into *out, reusing its storage (no allocation when the sizes repeat). P and G are
// dense; when *out holds an earlier build of the same shape and a matrix has more than 1024
// entries, only the entries that build wrote (P_written, G_rows) are cleared before the new
// ones are written, so P and G must not be changed elsewhere between builds.
void BuildPyramidStepData(const StepProblem& problem, PyramidStepData* out);

// Runs model.Compute(q) into *contact_data and builds the data (u of size n_q,a) into *out; a
// failure (common/outcome.h) with the query's message when the contact query fails.
Outcome BuildPyramidStepData(const ContactModel& model, ContactData* contact_data,
                             const QuasiDynamicCostParameters& cost_parameters,
                             const Eigen::VectorXd& q, const Eigen::VectorXd& u,
                             PyramidStepData* out);

// ray_map applied contact by contact: X has r rows (contact-major as J_c), the result m rows
// (as G; the joint-limit rows, which J_c does not move, are zero). E.g. G = PyramidRowsOf(data,
// J_c) and dG v = PyramidRowsOf(data, d(J_c v)).
Eigen::MatrixXd PyramidRowsOf(const PyramidStepData& data, const Eigen::MatrixXd& contact_rows);
// The same into *out, reusing its storage.
void PyramidRowsOf(const PyramidStepData& data, const Eigen::MatrixXd& contact_rows,
                   Eigen::MatrixXd* out);

// The transpose map: pyramid multipliers β (size m) to contact impulses λ = Rᵀβ (size r),
// λ_i = [Σ_j β_ij; μ_i Σ_j β_ij t·d_ij] (normal and tangential impulses [N·s]), so that
// Gᵀβ = J_cᵀ λ.
Eigen::VectorXd ContactImpulseOf(const PyramidStepData& data, const Eigen::VectorXd& beta);
// The same into *lambda, reusing its storage (no allocation once it has size r).
void ContactImpulseOf(const PyramidStepData& data, const Eigen::VectorXd& beta,
                      Eigen::VectorXd* lambda);

// The dense derivatives below are the independent test reference of
// contact_data_derivative.h (which contracts instead of building them: 2·n_v full contact
// queries and n_v dense m × n_v matrices are ≈ 10 ms on arm_cubes).
// Derivatives along the n_v tangent directions: d_P[k] = ∂P/∂ε_k etc.
struct PyramidStepDataDerivative {
  std::vector<Eigen::MatrixXd> d_P;  // n_v matrices, n_v × n_v
  std::vector<Eigen::MatrixXd> d_G;  // n_v matrices, m × n_v
  Eigen::MatrixXd d_tau_h;           // n_v × n_v, column k
  Eigen::MatrixXd d_offset;          // m × n_v, column k
};

// Central differences of the data at q ⊕ ±ε_data e_k and at q ⊕ ±(ε_data/2) e_k, combined by
// Richardson extrapolation, (4 D(ε_data/2) − D(ε_data))/3, which cancels the O(ε²) truncation
// of a central difference (error O(ε⁴), round-off ≈ 3 ε_machine·|data|/ε_data): the reference
// must stay accurate where the geometry is curved at the scale of ε (the planar hand's 1 cm
// fingertips: a single central difference's truncation there is ≈ 1e-8 relative, the size of
// the tolerance of contact_data_derivative_test.cc, while the closed forms of
// rounded_pair_derivative.h have none). `at_q` is the data at q (for the structure check).
// ε_data > 0 [m or rad]; ∛ε ≈ 6.0555e-6 balances truncation and round-off. A failure naming
// the direction when a contact of q disappears within ±ε_data.
Outcome DifferentiatePyramidStepData(const ContactModel& model,
                                     const QuasiDynamicCostParameters& cost_parameters,
                                     const Eigen::VectorXd& q, const Eigen::VectorXd& u,
                                     const PyramidStepData& at_q, double data_step,
                                     PyramidStepDataDerivative* out);

}  // namespace quasidyn
