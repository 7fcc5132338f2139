#include "quasidyn/control/plant_study.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/formulations/registry.h"

namespace quasidyn {
namespace {

double Score(const TrackingResult& r, double angle_length) {
  if (!r.message.empty()) return std::numeric_limits<double>::infinity();
  return r.final_position_error + angle_length * r.final_angle_error;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return 0.5 * (v[v.size() / 2] + v[(v.size() - 1) / 2]);
}

}  // namespace

PlantPerturbation StudyPerturbation(const Scene& scene, std::uint64_t seed,
                                    const PlantStudySettings& s) {
  PlantPerturbation p = RandomPerturbation(scene, seed, s.offset, s.friction_spread, s.substeps);
  if (s.horizontal_offset && !scene.planar) {
    p.object_offset.z() = 0.0;
    const double norm = p.object_offset.norm();
    if (norm > 0.0) p.object_offset *= s.offset / norm;
  }
  return p;
}

std::vector<PlantTrial> CompareOpenAndClosedLoop(const StepModel& model,
                                                 const std::vector<Eigen::VectorXd>& q_ref,
                                                 const std::vector<Eigen::VectorXd>& u_ref,
                                                 PlanController* controller,
                                                 const PlantStudySettings& s,
                                                 const PlantFactory& make_plant) {
  constexpr const char* kWhere = "CompareOpenAndClosedLoop";
  QUASIDYN_CHECK_ARGUMENT(s.plants >= 1, kWhere, "plants must be >= 1");
  QUASIDYN_CHECK_ARGUMENT(std::isfinite(s.offset) && s.offset >= 0.0, kWhere,
                          "offset must be >= 0 m");
  QUASIDYN_CHECK_ARGUMENT(s.friction_spread >= 0.0 && s.friction_spread < 1.0, kWhere,
                          "friction_spread must be in [0, 1)");
  QUASIDYN_CHECK_ARGUMENT(std::isfinite(s.angle_length) && s.angle_length >= 0.0, kWhere,
                          "angle_length must be >= 0 m/rad");
  QUASIDYN_CHECK_ARGUMENT(controller != nullptr, kWhere, "the controller is null");
  // The plant's time step is h/N of the PLAN's h (the model's), not of the scene file's.
  Scene base = model.scene();
  base.time_step = model.time_step();
  std::vector<PlantTrial> trials;
  for (int i = 0; i < s.plants; ++i) {
    PlantTrial trial;
    trial.seed = static_cast<std::uint64_t>(i);
    trial.perturbation = StudyPerturbation(base, trial.seed, s);
    const ScenePtr scene = PerturbedScene(base, trial.perturbation);
    std::shared_ptr<const StepModel> plant;
    if (make_plant) {
      plant = make_plant(scene);
    } else {
      FormulationChoice same = ChoiceOf(model);
      same.time_step = scene->time_step;
      plant = MakeStepModel(scene, same);
    }
    const int n = trial.perturbation.substeps;
    TrackingSettings tracking;
    tracking.ramp_substeps = s.ramp_substeps;
    trial.open_loop = TrackPlan(*plant, n, scene->q0, q_ref, u_ref, nullptr, tracking);
    trial.closed_loop = TrackPlan(*plant, n, scene->q0, q_ref, u_ref, controller, tracking);
    trial.open_error = Score(trial.open_loop, s.angle_length);
    trial.closed_error = Score(trial.closed_loop, s.angle_length);
    trials.push_back(std::move(trial));
  }
  return trials;
}

PlantStudySummary SummarizePlantStudy(const std::vector<PlantTrial>& trials) {
  QUASIDYN_CHECK_ARGUMENT(!trials.empty(), "SummarizePlantStudy", "no trial");
  PlantStudySummary out;
  std::vector<double> open, closed;
  for (const PlantTrial& t : trials) {
    open.push_back(t.open_error);
    closed.push_back(t.closed_error);
    out.open_mean += t.open_error / trials.size();
    out.closed_mean += t.closed_error / trials.size();
    out.closed_wins += t.closed_error < t.open_error;
  }
  out.open_median = Median(open);
  out.closed_median = Median(closed);
  return out;
}

}  // namespace quasidyn
