#pragma once
// Open loop against closed loop over a family of perturbed plants ("plant ≠ model";
// the talk's slides "Stabilizing contact-rich plans", whose disturbance is the 3 mm offset; the
// friction factor and the plant's smaller time step are ours): plant i (seed i = 0 … n − 1) is the
// model's scene with RandomPerturbation(seed i): the objects' start moved by `offset` in a
// random direction, friction × U[1 − f, 1 + f], and its time step h/N (h the MODEL's time step,
// the plan's); the plan runs on it open loop (its commands) and closed loop (a PlanController),
// and each run is scored by its final object error
//
//   e = ‖position error‖ + L · angle error   [m]   (TrackingResult; L [m/rad], e.g. a radius)
//
// The plant is the model's stepper with the plant's scene, or any stepper a factory makes from
// that scene (another formulation, a second-order model).

#include <Eigen/Core>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "quasidyn/control/plan_controller.h"
#include "quasidyn/control/plan_tracking.h"
#include "quasidyn/stepping/step_model.h"

namespace quasidyn {

struct PlantStudySettings {
  int plants = 20;                 // n >= 1: seeds 0 … n − 1
  double offset = 0.003;           // [m] >= 0, norm of the objects' start offset
  bool horizontal_offset = false;  // 3D: the offset in the x-y plane (an object on a table)
  double friction_spread = 0.2;    // f in [0, 1)
  int substeps = 2;                // N >= 1: plant time step h / N
  double angle_length = 0.05;      // L [m/rad] >= 0
  // The command held over the N substeps (false: the plan's u over all of h, as the model at h
  // applies it; the study's figures) or ramped (true: `track`'s default,
  // TrackingSettings::ramp_substeps, which keeps the plant's overlap down at some cost in
  // accuracy: docs/control.md, "The stabiliser's bound").
  bool ramp_substeps = false;
};

// Makes the plant's stepper from its (perturbed) scene; empty: MakeStepModel(scene, the model's
// settings with the scene's time step).
using PlantFactory = std::function<std::shared_ptr<const StepModel>(const ScenePtr& scene)>;

struct PlantTrial {
  std::uint64_t seed = 0;
  PlantPerturbation perturbation;
  TrackingResult open_loop, closed_loop;
  double open_error = 0.0, closed_error = 0.0;  // e above [m]; +∞ when a plant step failed
};

// The perturbation of plant `seed` (RandomPerturbation, made horizontal when asked).
PlantPerturbation StudyPerturbation(const Scene& scene, std::uint64_t seed,
                                    const PlantStudySettings& settings);

// Runs the plan (q_ref: T + 1 configurations, u_ref: T commands, on `model`) open and closed
// loop (`controller`, made on the same plan: a Stabilizer, a ShrinkingHorizonMpc) on every plant.
// std::invalid_argument on settings out of range or sizes (TrackPlan's checks).
std::vector<PlantTrial> CompareOpenAndClosedLoop(const StepModel& model,
                                                 const std::vector<Eigen::VectorXd>& q_ref,
                                                 const std::vector<Eigen::VectorXd>& u_ref,
                                                 PlanController* controller,
                                                 const PlantStudySettings& settings,
                                                 const PlantFactory& make_plant = {});

// Mean, median and the number of plants where the closed loop's error is below the open loop's.
struct PlantStudySummary {
  double open_mean = 0.0, closed_mean = 0.0;      // [m]
  double open_median = 0.0, closed_median = 0.0;  // [m]
  int closed_wins = 0;
};
PlantStudySummary SummarizePlantStudy(const std::vector<PlantTrial>& trials);

}  // namespace quasidyn
