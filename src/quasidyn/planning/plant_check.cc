#include "quasidyn/planning/plant_check.h"

#include <limits>
#include <string>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/formulations/registry.h"

namespace quasidyn {

PlantCheck::PlantCheck(const StepModel& model, const ObjectSpace& space,
                       const PlanningSettings& settings)
    : space_(space), settings_(settings) {
  QUASIDYN_CHECK_ARGUMENT(settings.plant_check.has_value(), "PlantCheck",
                          "the planning settings have no plant_check");
  substeps_ = settings.plant_check->substeps;
  tolerance_ = settings.plant_check->tolerance;
  QUASIDYN_CHECK_ARGUMENT(
      substeps_ >= 1, "PlantCheck",
      "plant_check.substeps must be >= 1 (got " + std::to_string(substeps_) + ")");
  FormulationChoice choice = ChoiceOf(model);
  choice.time_step = model.time_step() / substeps_;
  fine_ = MakeStepModel(model.scene_ptr(), choice);
  data_ = fine_->CreateData();
}

bool PlantCheck::Run(const State& start, const Eigen::VectorXd& u, int steps) {
  QUASIDYN_CHECK_ARGUMENT(steps >= 1, "PlantCheck::Run",
                          "steps must be >= 1 (got " + std::to_string(steps) + ")");
  fine_->ClearWarmStart(data_.get());
  x_ = start;
  ok_ = false;
  for (int k = 0; k < steps * substeps_; ++k) {
    fine_->Calc(x_, u, data_.get());
    if (!data_->result.ok()) return false;
    x_ = data_->result.next;
  }
  ok_ = true;
  return true;
}

double PlantCheck::Distance(const Eigen::VectorXd& q_end) const {
  if (!ok_) return std::numeric_limits<double>::infinity();
  return space_.GoalDistance(q_end, x_.q.head(fine_->scene().nq_u), settings_);
}

bool PlantCheck::Agrees(const State& start, const Eigen::VectorXd& u, int steps,
                        const Eigen::VectorXd& q_end) {
  Run(start, u, steps);
  return Distance(q_end) <= tolerance_;
}

}  // namespace quasidyn
