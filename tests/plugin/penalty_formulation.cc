#include "penalty_formulation.h"

#include <Eigen/Cholesky>
#include <algorithm>
#include <limits>

#include "quasidyn/contact/contact_model.h"
#include "quasidyn/dynamics/quasi_dynamic_cost.h"
#include "quasidyn/gradients/finite_difference.h"
#include "quasidyn/kinematics/kinematics.h"

namespace quasidyn::plugin_test {
namespace {

constexpr const char* kName = "penalty";

class PenaltyData final : public StepData {
 public:
  PenaltyData(const StepModel* model, ContactData contact_data)
      : StepData(model), contact(std::move(contact_data)) {}
  ContactData contact;
  QuasiDynamicCost cost;
};

// StepModel::Calc and CalcDiff check the arguments, keep x and u in the data (q(), u()) and
// complete a failed step; the model writes its step and its derivative only.
class PenaltyModel final : public StepModel {
 public:
  PenaltyModel(ScenePtr scene, double h, FormulationInfo info, double stiffness)
      : StepModel(scene, h, std::move(info), ParameterBlock{{"penalty_stiffness", stiffness}}),
        stiffness_(stiffness),
        contact_(scene, scene->contact_tolerance) {}

  std::unique_ptr<StepData> CreateData() const override {
    return std::make_unique<PenaltyData>(this, contact_.CreateData());
  }
  void ClearWarmStart(StepData* /*data*/) const override {}

 private:
  void DoCalc(const State& x, const Eigen::VectorXd& u, StepData* data_in) const override {
    auto& data = static_cast<PenaltyData&>(*data_in);
    if (!contact_.Compute(x.q, &data.contact))
      return FailStep(SolverStatus::kNumericalFailure, data.contact.failure_message(), &data);
    const Scene& s = scene();
    const double h = time_step();
    BuildQuasiDynamicCost(data.contact.kinematics(), u, s.ActuatedStiffness(),
                          data.external_force.size() > 0 ? data.external_force : s.external_force,
                          QuasiDynamicCostParameters{h, 1.0}, &data.cost);
    Eigen::MatrixXd H = data.cost.P.ToDense();
    Eigen::VectorXd rhs = data.cost.tau_h;
    const ContactSet& contacts = data.contact.contacts();
    for (int i = 0; i < contacts.size(); ++i) {
      if (!(contacts[i].phi < 0)) continue;
      const Eigen::RowVectorXd J = contacts.DenseNormalJacobian(i);
      H += h * h * stiffness_ * J.transpose() * J;
      rhs -= h * stiffness_ * contacts[i].phi * J.transpose();
    }
    const Eigen::LDLT<Eigen::MatrixXd> factor(H);
    const Eigen::VectorXd v = factor.solve(rhs);
    if (factor.info() != Eigen::Success || !v.allFinite()) {
      return FailStep(SolverStatus::kNumericalFailure,
                      "penalty: the step's matrix is singular (an object without mass?)", &data);
    }
    StepResult& result = data.result;
    result.status = SolverStatus::kSolved;
    result.message.clear();
    result.velocity = v;
    result.momentum_force = Eigen::VectorXd::Zero(s.nv_u);
    result.joint_limit_impulse = Eigen::VectorXd::Zero(s.nv);
    result.next.q = IntegrateConfiguration(s, x.q, v, h);
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
      report.phi_end = c.phi + h * contacts.DenseNormalJacobian(i).dot(v);
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
  ContactModel contact_;
};

}  // namespace

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
  plugin.make_model = [info = plugin.info](const FormulationInputs& in) {
    return std::make_shared<const PenaltyModel>(in.scene, in.time_step, info,
                                                in.parameters.Number("penalty_stiffness", 1e4));
  };
  return plugin;
}

}  // namespace quasidyn::plugin_test
