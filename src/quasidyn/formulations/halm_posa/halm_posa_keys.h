#pragma once
// The scene keys and parameters of the halm-posa formulation (Halm & Posa 2018;
// docs/scene-format.md), and the checks that need the whole scene:
//
//   formulation: {type: halm-posa, c: 0.01, B: ..., tracking_gain: 0}
//                B: a number b (b·I), a list (the diagonal) or a matrix (n_q,a × n_q,a)
//   objects: [{..., limit_surface: {principal: [a_x, a_y, a_θ]} | {matrix: [[...]x3]}}]
//
// A problem is a SceneError at the line of the key.

#include <Eigen/Core>
#include <optional>
#include <string>
#include <vector>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/io/yaml_reader.h"
#include "quasidyn/model/scene.h"

namespace quasidyn {

inline constexpr const char* kHalmPosaName = "halm-posa";

// The objects' limit surfaces a scene gives (Scene::extensions["halm-posa"]): per instance, Ã
// of H(F) = Fᵀ Ã F in the object's body frame about its origin, acting on (f_x [N], f_y [N],
// m [N·m]) (Halm & Posa 2018, eq. (11)); symmetric positive definite, units m/(N·s), 1/(N·s)
// and 1/(N·m·s). Empty for an object without the key: the uniform-pressure default of
// limit_surface.h.
struct HalmPosaSceneKeys final : SceneExtension {
  std::vector<std::optional<Eigen::Matrix3d>> limit_surfaces;  // per instance
};

// Reads every object's `limit_surface` (failing at the key for a 3D scene, a fixed object, or a
// matrix that is not symmetric positive definite) and, when the scene names halm-posa, checks
// that the scene is planar (at formulation.type), that gravity has no in-plane part (at
// gravity, or at formulation.type when gravity is the planar default), and that B fits the
// scene's n_q,a actuated coordinates (at formulation.B).
void ReadHalmPosaSceneKeys(const YamlValue& root, Scene* scene);

// c [-] >= 0, B ≻ 0, tracking_gain k_p [1/s] >= 0 (Halm & Posa 2018, eq. (15)).
std::vector<ParameterSpec> HalmPosaParameterSpecs();

// Empty when `gains` is a valid B as the block gives it (1 × 1; or finite and n × 1 with every
// entry > 0; or n × n symmetric positive definite); otherwise what is wrong, e.g. "B must be
// positive definite (smallest eigenvalue -1)".
std::string FeedbackGainsProblem(const Eigen::MatrixXd& gains);

// The n × n matrix B of valid `gains` for n actuated coordinates (empty: I; 1 × 1: b·I; n × 1:
// diag; n × n: itself). Fails at `source` (FailAt) when the size does not fit n, e.g. "B has 3
// diagonal entries; the scene has 4 actuated coordinates".
Eigen::MatrixXd FeedbackGainMatrix(const Eigen::MatrixXd& gains, int n, const ValueSource& source);

}  // namespace quasidyn
