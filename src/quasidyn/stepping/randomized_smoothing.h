#pragma once
// Randomized smoothing of the time step q⁺ = f(q, u) (Pang, Suh, Yang & Tedrake, T-RO 2023;
// Suh, Pang & Tedrake, "Bundled Gradients through Contact via Randomized Smoothing", RA-L
// 2022).
//
// The smoothed step is the Gaussian average f_σ(q, u) = E[f(q ⊕ σ_q ξ_q, u + σ_u ξ_u)],
// ξ = (ξ_u, ξ_q) ~ N(0, I). Its gradient "sees through" contact switches that the exact
// gradient of f ignores. Two Monte-Carlo estimators from N samples ξ_1 … ξ_N:
//
// * First order ("bundled gradient", Suh, Pang & Tedrake 2022): the mean of the exact (or
//   log-barrier) gradients and of the next states at the samples,
//       B̄ = (1/N) Σ_i B(q_i, u_i),   Ā = (1/N) Σ_i A(q_i, u_i),   q̄⁺ = (1/N) Σ_i f(q_i, u_i),
//   with q_i = q ⊕ σ_q ξ_q,i and u_i = u + σ_u ξ_u,i, each linearised by the batch's model
//   (its program: exact or log-barrier, formulation_table.h). Unbiased for ∇f_σ when f is
//   differentiable almost everywhere and continuous; its standard error is the sample
//   standard deviation over √N.
//
// * Zeroth order (least squares on the perturbations, Suh, Pang & Tedrake 2022; Suh,
//   Simchowitz, Zhang & Tedrake, "Do Differentiable Simulators Give Better Policy
//   Gradients?", ICML 2022, compare the two): with the control-variate baseline f(q, u),
//       Δ_i = f(q_i, u_i) − f(q, u),
//       C = argmin_C Σ_i ‖Δ_i − C ξ_i‖²,   B = C_u / σ_u,   A = (C_q / σ_q) · T(q),
//   T(q) the tangent map of configuration_map.h (A in raw coordinates, as step_model.h). By
//   Stein's lemma E[f(x + σξ) ξᵀ] = σ E[∇f(x + σξ)], so C/σ estimates the same ∇f_σ as the
//   first-order mean; the baseline leaves the estimate's expectation unchanged (E[ξ] = 0) but
//   removes the variance of the term f(q, u) ξᵀ/σ, which grows like 1/σ² (Suh et al. 2022,
//   ICML). Only steps f are evaluated (no gradients), so it works for every formulation.
//   Standard errors: the heteroscedasticity-consistent (sandwich) ones of White (1980) with
//   the n/(n − p) correction (HC1), since the residuals Δ − W Cᵀ of a step with a contact
//   switch are zero on one side of it: the ordinary least-squares errors, one residual
//   variance for every ξ, came out 1.7–2.4 times too small at the 1D toy's kink (docs/toy_1d.md).
//
// Samples: ξ_i = StandardNormalSample(seed, i, n_q,a + n_v)
// (gradients/randomized_smoothing_sampler.h): the first n_q,a entries perturb u, the last n_v
// perturb q along its tangent space (positions in m, planar angles and rotation vectors of
// quaternions in rad). Sample i depends only on (seed, i), so results are identical for equal seeds
// on every platform and thread count. σ = 0 leaves that block unperturbed exactly. Both estimators
// evaluate the samples with the batch evaluator (batch_step.h); failed samples are excluded and
// counted.

#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <vector>

#include "quasidyn/stepping/batch_step.h"

namespace quasidyn {

struct RandomizedSmoothingSettings {
  int samples = 100;       // N >= 1 (zeroth order: successful samples must exceed the
                           // number of fitted directions p, see below)
  double u_std = 0.01;     // σ_u >= 0 [m or rad], per entry of u
  double q_std = 0.0;      // σ_q >= 0 [m or rad], per tangent coordinate of q
  std::uint64_t seed = 0;  // any value
};

struct SmoothedLinearization {
  // kSolved when at least one sample (first order) or more than p samples (zeroth order)
  // succeeded; otherwise the status of the first failure and a message.
  SolverStatus status = SolverStatus::kNotRun;
  std::string message;
  Eigen::VectorXd q_next;            // q̄⁺, the mean of f over the successful samples (size n_q)
  Eigen::MatrixXd A;                 // n_q × n_q, for mode kAAndB, else empty
  Eigen::MatrixXd B;                 // n_q × n_q,a, for modes kBOnly and kAAndB, else empty
  Eigen::MatrixXd A_standard_error;  // entrywise standard error of A (same size as A)
  Eigen::MatrixXd B_standard_error;  // entrywise standard error of B (same size as B)
  int samples_used = 0;              // successful samples
  int samples_failed = 0;            // excluded samples (failed solve or gradient)
  std::string first_failure;         // message of the first excluded sample, if any
  bool ok() const { return status == SolverStatus::kSolved; }
};

// The sampled points (q_i, u_i), i = 0 … N − 1, as defined above.
std::vector<StepPoint> SmoothingSamplePoints(const Scene& scene, const Eigen::VectorXd& q,
                                             const Eigen::VectorXd& u,
                                             const RandomizedSmoothingSettings& settings);
// Samples i = first … first + count − 1 of those points (0 <= first, count >= 0,
// first + count <= N; std::invalid_argument otherwise): a part of the sample set, equal to the
// same rows of the whole, for evaluating the samples in parts (a Dask cluster's workers,
// docs/distributed.md).
std::vector<StepPoint> SmoothingSamplePointRange(const Scene& scene, const Eigen::VectorXd& q,
                                                 const Eigen::VectorXd& u,
                                                 const RandomizedSmoothingSettings& settings,
                                                 int first, int count);

// First-order (bundled) estimate: each sample is stepped and differentiated by the batch's
// model in `mode` (kNone gives only q̄⁺). Throws std::invalid_argument for bad settings
// (N < 1, σ < 0 or not finite) or bad q, u (sizes, NaN).
SmoothedLinearization FirstOrderSmoothing(BatchStepper* batch, const Eigen::VectorXd& q,
                                          const Eigen::VectorXd& u, GradientMode mode,
                                          const RandomizedSmoothingSettings& settings);

// Zeroth-order (least-squares) estimate from steps of the batch's model (its program):
// p = n_q,a fitted directions when σ_q = 0,
// p = n_q,a + n_v otherwise. Mode kBOnly needs σ_u > 0; kAAndB needs σ_u > 0 and σ_q > 0
// (std::invalid_argument otherwise, and for the errors of FirstOrderSmoothing). If the
// baseline step f(q, u) fails the result carries its status and message.
SmoothedLinearization ZerothOrderSmoothing(BatchStepper* batch, const Eigen::VectorXd& q,
                                           const Eigen::VectorXd& u, GradientMode mode,
                                           const RandomizedSmoothingSettings& settings);

// The two estimates from samples evaluated elsewhere: `samples[i]` is the evaluation of point i
// of SmoothingSamplePoints (all N of them, in order) in `mode` (first order) or in kNone (zeroth
// order, with `baseline` the evaluation of f(q, u)). FirstOrderSmoothing and ZerothOrderSmoothing
// evaluate the points on their batch and return these, so samples evaluated in parts on other
// machines give bitwise the same estimate. Throws std::invalid_argument when samples.size() is not
// settings.samples or a successful sample lacks the gradients `mode` asks for.
SmoothedLinearization FirstOrderEstimate(const std::vector<StepEvaluation>& samples,
                                         GradientMode mode,
                                         const RandomizedSmoothingSettings& settings);
SmoothedLinearization ZerothOrderEstimate(const Scene& scene, const Eigen::VectorXd& q,
                                          GradientMode mode,
                                          const RandomizedSmoothingSettings& settings,
                                          const StepEvaluation& baseline,
                                          const std::vector<StepEvaluation>& samples);

}  // namespace quasidyn
