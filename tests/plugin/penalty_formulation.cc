#include "penalty_formulation.h"

#include <Eigen/Cholesky>
#include <algorithm>
#include <limits>
#include <span>
#include <string>

#include "quasidyn/contact/contact_model.h"
#include "quasidyn/dynamics/quasi_dynamic_cost.h"
#include "quasidyn/gradients/finite_difference.h"
#include "quasidyn/kinematics/kinematics.h"

namespace quasidyn::plugin_test {
namespace {

constexpr const char* kName = "penalty";

// Every buffer of a step, sized by the first step of each size and kept, so that a step with the
// same contacts as the one before allocates nothing (step_model.h).
class PenaltyData final : public StepData {
 public:
  PenaltyData(const StepModel* model, ContactData contact_data)
      : StepData(model), contact(std::move(contact_data)) {}
  ContactData contact;
  QuasiDynamicCost cost;
  Eigen::MatrixXd H;  // P + h² k Σ J_n,iᵀ J_n,i over the penetrating contacts
  Eigen::VectorXd rhs, v;
  Eigen::LDLT<Eigen::MatrixXd> factor;
};

// StepModel::Calc and CalcDiff check the arguments, keep x and u in the data (q(), u()) and
// complete a failed step; the model writes its step and its derivative only.
class PenaltyModel final : public StepModel {
 public:
  PenaltyModel(ScenePtr scene, double h, FormulationInfo info, double stiffness)
      : StepModel(scene, h, std::move(info), ParameterBlock{{"penalty_stiffness", stiffness}}),
        stiffness_(stiffness),
        actuated_stiffness_(scene->ActuatedStiffness()),
        contact_(scene, scene->contact_tolerance) {}

  std::unique_ptr<StepData> CreateData() const override {
    return std::make_unique<PenaltyData>(this, contact_.CreateData());
  }
  void ClearWarmStart(StepData* /*data*/) const override {}

 private:
  void DoCalc(const State& x, const Eigen::VectorXd& u, StepData* data_in) const override {
    auto& data = static_cast<PenaltyData&>(*data_in);
    const auto fail = [&](std::string message) {
      FailStep(SolverStatus::kNumericalFailure, std::move(message), &data);
    };
    if (!contact_.Compute(x.q, &data.contact)) return fail(data.contact.failure_message());
    const Scene& s = scene();
    const double h = time_step();
    BuildQuasiDynamicCost(data.contact.kinematics(), u, actuated_stiffness_,
                          data.external_force.size() > 0 ? data.external_force : s.external_force,
                          QuasiDynamicCostParameters{h, 1.0}, &data.cost);
    if (!data.cost.P.AllFinite() || !data.cost.tau_h.allFinite())
      return fail(
          "penalty: the step's cost overflowed (positions, commands or stiffnesses too "
          "large)");
    data.cost.P.ToDense(&data.H);
    data.rhs = data.cost.tau_h;
    const ContactSet& contacts = data.contact.contacts();
    for (int i = 0; i < contacts.size(); ++i) {  // the springs, on J_n,i's compact columns
      if (!(contacts[i].phi < 0)) continue;
      const std::span<const int> columns = contacts.Columns(i);
      const ContactSet::RowMap J = contacts.NormalJacobian(i);
      for (size_t a = 0; a < columns.size(); ++a) {
        const double Ja = J[static_cast<int>(a)];
        data.rhs[columns[a]] -= h * stiffness_ * contacts[i].phi * Ja;
        for (size_t b = 0; b < columns.size(); ++b)
          data.H(columns[a], columns[b]) += h * h * stiffness_ * Ja * J[static_cast<int>(b)];
      }
    }
    data.factor.compute(data.H);
    data.v = data.factor.solve(data.rhs);
    if (data.factor.info() != Eigen::Success || !data.v.allFinite())
      return fail("penalty: the step's matrix is singular (an object without mass?)");
    const Eigen::VectorXd& v = data.v;
    StepResult& result = data.result;
    result.status = SolverStatus::kSolved;
    result.message.clear();
    result.velocity = v;
    result.momentum_force.setZero(s.nv_u);
    result.joint_limit_impulse.setZero(s.nv);
    IntegrateConfiguration(s, x.q, v, h, &result.next.q);
    result.next.v.resize(0);
    result.contacts.clear();
    for (int i = 0; i < contacts.size(); ++i) {  // every candidate; the springs push
      const Contact& c = contacts[i];
      ContactReport report;
      report.geometry_a = c.geometry_a;
      report.geometry_b = c.geometry_b;
      report.body_a = c.body_a;
      report.body_b = c.body_b;
      report.point = c.p_B;
      report.normal = c.normal;
      report.phi_start = c.phi;
      report.phi_end = c.phi + h * contacts.NormalVelocity(i, v);
      report.normal_impulse = c.phi < 0 ? h * stiffness_ * std::max(0.0, -report.phi_end) : 0.0;
      report.normal_force = report.normal_impulse / h;
      result.contacts.push_back(report);
    }
  }

  // A = ∂q⁺/∂q and B = ∂q⁺/∂u by central differences of Calc on a data of its own.
  void DoCalcDiff(GradientMode mode, StepData* data) const override {
    const std::unique_ptr<StepData> scratch = CreateData();
    const StepFunction step = [&](const Eigen::VectorXd& q, const Eigen::VectorXd& u) {
      Calc(State{q, Eigen::VectorXd()}, u, scratch.get());
      return scratch->result.ok()
                 ? scratch->result.next.q
                 : Eigen::VectorXd::Constant(q.size(), std::numeric_limits<double>::quiet_NaN());
    };
    StepDerivatives& out = data->derivatives;
    out.B = FiniteDifferenceB(step, data->q(), data->u());
    if (mode == GradientMode::kAAndB)
      out.A = FiniteDifferenceA(scene(), step, data->q(), data->u());
    else
      out.A.resize(0, 0);
  }

 private:
  double stiffness_;
  Eigen::VectorXd actuated_stiffness_;
  ContactModel contact_;
};

}  // namespace

const char* const kPenaltyPushScene = R"(name: penalty_push
dimension: 2
time_step: 0.01
contact_tolerance: 0.02
formulation: {type: penalty, penalty_stiffness: 20000}
environment:
  - {name: table, type: half_space, friction: 0.4}
objects:
  - name: box
    joint: planar
    body:
      mass: 1.0
      inertia: from_shapes
      shapes: [{name: block, type: box, size: [0.2, 0.1, 0.1], friction: 0.4}]
    initial: [0.0, 0.05, 0.0]
robots:
  - name: pusher
    bodies:
      - {name: slider, mass: 0.5, inertia: {principal: [1.0e-3, 1.0e-3, 1.0e-3]}}
      - name: tip
        mass: 0.1
        inertia: from_shapes
        shapes: [{type: sphere, radius: 0.02, friction: 0.4}]
    joints:
      - {name: x, type: prismatic, parent: world, child: slider, axis: [1, 0, 0]}
      - {name: y, type: prismatic, parent: slider, child: tip, axis: [0, 1, 0]}
    stiffness: [1000, 1000]
    initial: [-0.2, 0.05]
    commands:
      - {t: 0.0, q: [-0.2, 0.05]}
      - {t: 1.0, q: [0.1, 0.05]}
)";

FormulationPlugin PenaltyFormulation() {
  FormulationPlugin plugin;
  plugin.info.name = kName;
  plugin.info.title = "penalty springs on penetrating contacts, no friction (a test plug-in)";
  plugin.info.docs = "docs/adding-a-formulation.md";
  plugin.info.capabilities.state = StateKind::kConfiguration;
  plugin.info.capabilities.command = CommandKind::kRobotPositions;
  plugin.info.capabilities.joint_limits = false;
  plugin.info.capabilities.exact_linearization = kName;
  plugin.parameters = {NumberParameter("penalty_stiffness", "N/m", 0.0, true, "1e4",
                                       "the springs' stiffness k along the contact normals")};
  plugin.conformance_scenes = {kPenaltyPushScene};
  plugin.make_model = [info = plugin.info](const FormulationInputs& in) {
    return std::make_shared<const PenaltyModel>(in.scene, in.time_step, info,
                                                in.parameters.Number("penalty_stiffness", 1e4));
  };
  return plugin;
}

}  // namespace quasidyn::plugin_test
