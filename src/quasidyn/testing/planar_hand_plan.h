#pragma once
// The planar hand's 180° plan of its planning block (seed 3) without substeps (max_substeps = 1:
// an extension that overlaps is refused, not repaired, docs/planning.md), so that each path step
// is one step of the planner's model, as the trajectory optimiser steps; planned once per test
// binary and shared by the refinement tests (control/plan_trajectory_test.cc,
// trajopt_segments_test.cc).

#include <memory>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/planning/plan_path.h"
#include "quasidyn/planning/rrt.h"
#include "quasidyn/testing/example_states.h"

namespace quasidyn::testing {

struct PlanarHandPlan {
  ScenePtr scene;
  PlanResult plan;
  ReplayedPath path;
  std::shared_ptr<const StepModel> model;  // the planner's exact stepper
};

inline const PlanarHandPlan& PlanarHandHalfTurnWithoutSubsteps() {
  static const PlanarHandPlan hand = [] {
    PlanarHandPlan h;
    h.scene = LoadExample("planar_hand");
    PlanningSettings settings = *h.scene->planning;
    settings.max_substeps = 1;
    settings.seed = 3;
    h.plan = PlanThroughContact(h.scene, PlanningFormulation(*h.scene, settings), settings);
    h.path = ReplayPlan(h.scene, h.plan);
    h.model = MakeStepModel(h.scene, h.plan.stepping);
    return h;
  }();
  return hand;
}

}  // namespace quasidyn::testing
