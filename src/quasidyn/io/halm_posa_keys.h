#pragma once
// The scene keys of the halm-posa formulation (Halm & Posa 2018; docs/scene-format.md):
//
//   formulation: {type: halm-posa, c: 0.01, B: ...}   B: a number b (b·I), a list (the
//                                                      diagonal) or a matrix (n_q,a × n_q,a)
//   objects: [{..., limit_surface: {principal: [a_x, a_y, a_θ]} | {matrix: [[...]x3]}}]
//
// and the checks that need the whole scene (planar, no in-plane gravity, B's size): a problem
// is a SceneError at the line of the key.

#include <Eigen/Core>

#include "quasidyn/io/yaml_reader.h"
#include "quasidyn/model/scene.h"

namespace quasidyn {

// `B` of the formulation block as FormulationSpec::feedback_gains (1 × 1, n × 1 or n × n);
// fails at `value` when it is not a number, a list of numbers or a square list of lists, or
// when FeedbackGainsProblem reports a problem (not positive definite, ...).
Eigen::MatrixXd ReadFeedbackGains(const YamlValue& value);

// After the scene is built from `root`: stores every object's `limit_surface` in its
// ModelInstance (failing at the key for a 3D scene, a fixed object, or a matrix that is not
// symmetric positive definite) and, when the formulation is halm-posa, checks that the scene
// is planar (at formulation.type), that gravity has no in-plane part (at gravity, or at
// formulation.type when gravity is the planar default), and that B fits the scene's n_q,a
// actuated coordinates (at formulation.B).
void ApplyHalmPosaKeys(const YamlValue& root, Scene* scene);

}  // namespace quasidyn
