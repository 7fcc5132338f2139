#pragma once
// The conic constraints of the exact-cone steps (dynamics/quasi_dynamic_socp.h, the SOCP,
// and dynamics/log_barrier_cone.h, its log barrier) written in the contact rows of
// gradients/contact_data_derivative.h, as needed by their implicit differentiation
// (socp_gradient.h, log_barrier_cone_gradient.h).
//
// Contact i has the stacked rows J_c,i = [J_n,i; J_t,i] ((1 + n_t) × n_v) and the "gap
// velocity"
//   c_i(v) = J_c,i v + (φ_i/h) e₀ = (φ_i/h + J_n,i v,  J_t,i v)   [m/s],  e₀ = (1, 0, …).
// Every constraint of both programs is a block b of one contact i,
//   u_b = R_b c_i(v) ∈ K_b,    K_b the second-order cone of dimension m_b = rows(R_b)
//                              (m_b = 1: the half line u >= 0),
// with a constant R_b (m_b × (1 + n_t)):
//   SOCP, 3D contact, μ_i > 0:      one cone,  R = diag(1, μ_i, μ_i)  (t_i, z_i = μ_i J_t,i v)
//   SOCP, planar contact, μ_i > 0:  two half lines, R = [1, +μ_i] and [1, −μ_i]
//   SOCP, μ_i = 0:                  one half line,  R = [1, 0, …]
//   barrier, μ_i > 0:               one cone of dimension 1 + n_t, R = diag(1, μ_i I)
//   barrier, μ_i = 0:               one "cone" of dimension 1, R = [1, 0, …] (barrier log t²)
// (the layouts of BuildFrictionConeSocp and BuildConeLogBarrier). A block's multiplier y_b ∈
// K_b [N·s] contributes the impulse coordinates R_bᵀ y_b to λ_i = (λ_n,i, λ̂_t,i), the
// stacked λ of contact_data_derivative.h, since A_bᵀ y_b = J_c,iᵀ R_bᵀ y_b.

#include <Eigen/Core>
#include <span>
#include <vector>

#include "quasidyn/contact/contact_set.h"
#include "quasidyn/dynamics/step_problem.h"
#include "quasidyn/gradients/contact_data_derivative.h"

namespace quasidyn {

struct ContactConeBlock {
  int contact = 0;    // index into ContactSet::contacts
  int first_row = 0;  // first row of the contact in the stacked J_c
  Eigen::MatrixXd R;  // m_b × (1 + n_t), constant (depends on μ_i only)
};

// Rows of every contact in J_c (1 + n_t each) and their prefix sums: first_row[i], and the
// total r = first_row[n_c].
std::vector<int> ContactFirstRows(const ContactSet& contacts);

// The blocks above, in contact order.
std::vector<ContactConeBlock> SocpConeBlocks(const ContactSet& contacts);
std::vector<ContactConeBlock> BarrierConeBlocks(const ContactSet& contacts);
// The same into *blocks, reusing its elements' storage (CalcDiff keeps the vector).
void SocpConeBlocks(const ContactSet& contacts, std::vector<ContactConeBlock>* blocks);
void BarrierConeBlocks(const ContactSet& contacts, std::vector<ContactConeBlock>* blocks);

// The stacked gap velocities c = (c_0, …, c_{n_c−1}) (size r) at v; h [s] > 0.
Eigen::VectorXd GapVelocities(const ContactSet& contacts, const Eigen::VectorXd& v,
                              double time_step);
// The same into *out, reusing its storage.
void GapVelocities(const ContactSet& contacts, const Eigen::VectorXd& v, double time_step,
                   Eigen::VectorXd* out);

// u_b = R_b c_i for every block (c from GapVelocities).
std::vector<Eigen::VectorXd> BlockValues(const std::vector<ContactConeBlock>& blocks,
                                         const Eigen::VectorXd& gap_velocities);

// A_b = R_b J_c,i (m_b × n_v).
Eigen::MatrixXd BlockJacobian(const ContactSet& contacts, const ContactConeBlock& block);
// The same on contact i's velocity columns only, contacts.Columns(i) (m_b × k_i; A_b is zero
// elsewhere: a contact moves with its two bodies' chains).
Eigen::MatrixXd CompactBlockJacobian(const ContactSet& contacts, const ContactConeBlock& block);

// The SOCP's block multipliers y_b recovered from the impulses of a solved step
// (SolveFrictionConeSocp): λ_n,i = y_0 and λ̂_t,i = μ_i y_1: for a cone; λ_n,i = ζ₊ + ζ₋ and
// λ̂_t,i = μ_i (ζ₊ − ζ₋) for the two planar rows; λ_n,i = ζ for a frictionless row
// (quasi_dynamic_socp.h). λ̂_t,i,k = t_k,iᵀ (friction impulse), (t1, t2) orthonormal.
std::vector<Eigen::VectorXd> SocpBlockMultipliers(const ContactSet& contacts,
                                                  const std::vector<ContactConeBlock>& blocks,
                                                  const FormulationSolution& solution);
// The same into *multipliers, reusing its elements' storage.
void SocpBlockMultipliers(const ContactSet& contacts, const std::vector<ContactConeBlock>& blocks,
                          const FormulationSolution& solution,
                          std::vector<Eigen::VectorXd>* multipliers);

// λ = Σ_b R_bᵀ y_b stacked contact-major (size r) [N·s].
Eigen::VectorXd StackedImpulseCoordinates(const ContactSet& contacts,
                                          const std::vector<ContactConeBlock>& blocks,
                                          const std::vector<Eigen::VectorXd>& multipliers);
// The same into *lambda, reusing its storage.
void StackedImpulseCoordinates(const ContactSet& contacts,
                               const std::vector<ContactConeBlock>& blocks,
                               const std::vector<Eigen::VectorXd>& multipliers,
                               Eigen::VectorXd* lambda);

// Throws std::invalid_argument naming the member whose size does not fit the contact set
// (d_phi n_c × n_v, d_Jc_v r × n_v, the others n_v × n_v).
void CheckContractionSizes(const ContactSet& contacts, const StepDataContraction& contraction);

// ∂u_b/∂ε_k with v held fixed, for all k (m_b × n_v):
//   R_b (∂(J_c,i v)/∂ε_k + (∂φ_i/∂ε_k / h) e₀);  h [s] > 0.
Eigen::MatrixXd BlockValueDerivative(const ContactConeBlock& block,
                                     const StepDataContraction& contraction, double time_step);
// The same into out (m_b × n_v), without allocating.
void BlockValueDerivative(const ContactConeBlock& block, const StepDataContraction& contraction,
                          double time_step, Eigen::Ref<Eigen::MatrixXd> out);

// scale · ∂u_b/∂ε_k for the directions k in `columns` only (contacts.Columns(block.contact):
// along every other direction the derivative is zero, contact_data_derivative.h), transposed:
// into the rows `columns` of out (n_v × m_b); out's other rows are not written. scale: ±1 in
// practice.
void BlockValueDerivativeOn(const ContactConeBlock& block, const StepDataContraction& contraction,
                            double time_step, std::span<const int> columns, double scale,
                            Eigen::Ref<Eigen::MatrixXd> out);

// The same, compact: scale · ∂u_b/∂ε_{columns[s]} into row s of out (|columns| × m_b, by
// column, leading dimension |columns|), for every s; nothing else is written.
void CompactBlockValueDerivative(const ContactConeBlock& block,
                                 const StepDataContraction& contraction, double time_step,
                                 std::span<const int> columns, double scale, double* out);

// The part of the stationarity right-hand side shared by both cone gradients (n_v × n_v):
//   ∂τ_h/∂ε − ∂(P v)/∂ε + ∂(J_cᵀ λ)/∂ε.
Eigen::MatrixXd StationarityDataDerivative(const StepDataContraction& contraction);
// The same into out (n_v × n_v), without allocating.
void StationarityDataDerivative(const StepDataContraction& contraction,
                                Eigen::Ref<Eigen::MatrixXd> out);

}  // namespace quasidyn
