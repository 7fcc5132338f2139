#include "quasidyn/stepping/step_function.h"

#include <limits>

namespace quasidyn {

StepFunction StepFunctionOf(std::shared_ptr<const StepModel> model) {
  std::shared_ptr<StepData> data = model->CreateData();
  return [model, data](const Eigen::VectorXd& q, const Eigen::VectorXd& u) -> Eigen::VectorXd {
    model->ClearWarmStart(data.get());
    model->Calc(State{q, Eigen::VectorXd()}, u, data.get());
    if (!data->result.ok())
      return Eigen::VectorXd::Constant(q.size(), std::numeric_limits<double>::quiet_NaN());
    return data->result.next.q;
  };
}

}  // namespace quasidyn
