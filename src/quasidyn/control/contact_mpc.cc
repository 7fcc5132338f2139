#include "quasidyn/control/contact_mpc.h"

#include <algorithm>
#include <chrono>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/solvers/miqp.h"

namespace quasidyn {
namespace {

using Eigen::VectorXd;

double Seconds(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

const MpcSettings& Checked(const ScenePtr& scene, const MpcSettings& settings) {
  QUASIDYN_CHECK_ARGUMENT(scene != nullptr, "ContactMpc", "scene is null");
  if (const auto problem = CheckMpcSettings(settings, *scene, /*complete=*/true))
    ThrowInvalidArgument("ContactMpc", problem->field + ": " + problem->problem);
  return settings;
}

double CandidateDistance(const Scene& scene, const MpcSettings& settings) {
  return std::max(scene.contact_tolerance, settings.contact_distance);
}

}  // namespace

ContactMpc::ContactMpc(ScenePtr scene, const MpcSettings& settings)
    : scene_(scene),
      settings_(Checked(scene, settings)),
      time_step_(settings.time_step > 0 ? settings.time_step : scene->time_step),
      contact_model_(scene, CandidateDistance(*scene, settings)),
      contact_data_(contact_model_.CreateData()),
      kinematics_(scene),
      solver_(std::make_unique<MiqpSolver>()) {
  stiffness_ = scene_->ActuatedStiffness();
  damping_ = ActuatedDampingAtStart(scene_);  // the second-order model's own
}

ContactMpc::~ContactMpc() = default;

const MiqpPseudoCosts& ContactMpc::pseudo_costs() const { return solver_->pseudo_costs(); }

Outcome ContactMpc::Linearize(const State& x, MpcLinearModel* model) {
  constexpr const char* kWhere = "ContactMpc::Linearize";
  const Scene& scene = *scene_;
  CheckVector(kWhere, "x.q", x.q, scene.nq, "n_q");
  CheckVector(kWhere, "x.v", x.v, scene.nv, "n_v");
  if (!contact_model_.Compute(x.q, &contact_data_))
    return Outcome::Failure("contact query failed: " + contact_data_.failure_message());
  kinematics_.Update(x.q);
  // τ_free from the second-order step's own right-hand side with a spring at rest (ū = q_a):
  // τ_h = M v + h (τ_g,u + τ_ext − C(q, v) v).
  const VectorXd at_rest = x.q.tail(scene.nq_a);
  BuildSecondOrderCost(kinematics_, x.v, at_rest, stiffness_, damping_, scene.external_force,
                       time_step_, &cost_workspace_, &cost_);
  model->time_step = time_step_;
  model->q = x.q;
  model->v = x.v;
  model->mass = kinematics_.MassMatrix();
  model->free_force = (cost_.tau_h - model->mass * x.v) / time_step_;
  model->actuation = Eigen::MatrixXd::Zero(scene.nv, scene.nv_a);
  model->actuation.bottomRows(scene.nv_a).setIdentity();
  const ContactSet& contacts = contact_data_.contacts();
  model->contacts.resize(contacts.size());
  for (int i = 0; i < contacts.size(); ++i) {
    MpcContact& c = model->contacts[i];
    c.phi = contacts[i].phi;
    c.normal = contacts.DenseNormalJacobian(i);
    c.rays = contacts.DenseRayJacobian(i);
    c.friction = contacts[i].friction;
  }
  return Outcome::Ok();
}

MiqpSettings ContactMpc::solver_settings() const {
  MiqpSettings s;
  s.node_limit = settings_.node_limit;
  s.time_limit_seconds = settings_.time_limit;
  s.absolute_gap_tolerance = settings_.absolute_gap;
  s.relative_gap_tolerance = settings_.relative_gap;
  s.branching =
      settings_.pseudo_cost_branching ? BranchingRule::kPseudoCost : BranchingRule::kMostFractional;
  // Reliability branching (solvers/miqp.h): on the example's N = 20 loop it cuts the hardest
  // step's relaxations from 2211 to 498 and the loop's MIQP CPU time 3.2× (docs/mpc.md, "Speed").
  s.strong_branching_candidates = 4;
  s.strong_branching_reliability = 1;
  return s;
}

const MpcStep& ContactMpc::Solve(const State& x) {
  const auto start = std::chrono::steady_clock::now();
  const Scene& scene = *scene_;
  step_ = MpcStep();
  guesses_.clear();
  seeded_ = false;
  const int na = scene.nv_a;
  step_.force = VectorXd::Zero(na);
  // Without a solution: the setpoint of zero force at the current state, τ = K(ū − q − h v)
  // − D v with v⁺ ≈ v: ū = q_a + h v_a + K⁻¹ D v_a.
  step_.command = x.q.tail(scene.nq_a) + time_step_ * x.v.tail(na) +
                  damping_.cwiseProduct(x.v.tail(na)).cwiseQuotient(stiffness_);
  if (Outcome linearized = Linearize(x, &model_); !linearized) {
    step_.message = linearized.TakeMessage();
    step_.status = MiqpStatus::kNumericalFailure;
    previous_binaries_.clear();
    return step_;
  }
  BuildMpcMiqp(model_, settings_, &miqp_);
  solver_->Setup(miqp_.problem, solver_settings());
  step_.build_seconds = Seconds(start);

  // Guesses: the previous solution shifted by one step (same contacts), and every contact open
  // (c = 0, β = 0: z = 0; λ free: z = 1). The previous pseudo-costs, shifted too, seed the
  // tree's.
  const MpcLayout& L = miqp_.layout;
  const int ng = L.ngamma, nb = L.horizon * ng;
  std::vector<std::vector<signed char>>& guesses = guesses_;
  guesses.clear();
  // Step k of this horizon is step k + 1 of the previous one (the last step repeats).
  const auto shift = [&](const auto& previous, auto* shifted) {
    for (int k = 0; k < L.horizon; ++k) {
      const int from = std::min(k + 1, L.horizon - 1);
      std::copy_n(previous.begin() + from * ng, ng, shifted->begin() + k * ng);
    }
  };
  const bool same_contacts = static_cast<int>(model_.contacts.size()) == previous_contacts_ &&
                             static_cast<int>(previous_binaries_.size()) == nb && nb > 0;
  if (same_contacts) {
    std::vector<signed char> shifted(nb);
    shift(previous_binaries_, &shifted);
    guesses.push_back(std::move(shifted));
    for (int d = 0; d < 2; ++d) {
      pseudo_costs_.sum[d].resize(nb);
      pseudo_costs_.count[d].resize(nb);
      shift(previous_pseudo_costs_.sum[d], &pseudo_costs_.sum[d]);
      shift(previous_pseudo_costs_.count[d], &pseudo_costs_.count[d]);
    }
  }
  if (nb > 0) {
    std::vector<signed char> open(nb, 0);
    for (int k = 0; k < L.horizon; ++k) {
      for (size_t i = 0; i < model_.contacts.size(); ++i) {
        const int o = model_.ImpulseOffset(static_cast<int>(i));
        open[k * ng + o + 1 + model_.contacts[i].rays.rows()] = 1;
      }
    }
    guesses.push_back(std::move(open));
  }
  seeded_ = same_contacts;
  const MiqpResult& r = solver_->Solve(guesses, pseudo_cost_seed());
  step_.status = r.status;
  step_.message = r.message;
  step_.info = r.info;
  step_.contacts = model_.contacts;
  step_.has_solution = r.has_solution;
  previous_contacts_ = static_cast<int>(model_.contacts.size());
  previous_binaries_.clear();
  if (!r.has_solution) return step_;
  previous_pseudo_costs_ = solver_->pseudo_costs();
  step_.cost = r.objective;
  step_.best_bound = r.best_bound;
  step_.gap = r.gap;
  step_.relative_gap = r.relative_gap;
  for (int k = 0; k < L.horizon; ++k) {
    step_.states.push_back(r.x.segment(L.State(k), L.nx));
    step_.forces.push_back(r.x.segment(L.Force(k), L.na));
    step_.impulses.push_back(r.x.segment(L.Impulse(k), ng));
    for (int g = 0; g < ng; ++g) {
      previous_binaries_.push_back(r.x[L.Binary(k) + g] > 0.5 ? 1 : 0);
      if (step_.impulses.back()[g] >= (1 - 1e-6) * miqp_.impulse_cap[k][g]) ++step_.binding_caps;
    }
  }
  step_.force = step_.forces[0];
  const int n = scene.nv;
  const VectorXd q1 = step_.states[0].head(n), v1 = step_.states[0].tail(n);
  step_.command = q1.tail(scene.nq_a) +
                  (step_.force + damping_.cwiseProduct(v1.tail(na))).cwiseQuotient(stiffness_);
  return step_;
}

}  // namespace quasidyn
