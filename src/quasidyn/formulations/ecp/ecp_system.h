#pragma once
// What the ECP time step (Xie & Chakraborty, "Rigid Body Dynamic Simulation with Line and
// Surface Contact", §III–IV) knows of a scene, compiled once: the moving bodies, every shape as
// an intersection of convex quadric inequalities (geometry/convex_quadrics.h), the contact pairs,
// and the layout of the unknowns of the step's mixed NCP (docs/ecp.md).
//
// Scenes: 3D; objects only (no robots: the paper's examples drive their objects by applied
// impulses, and so does this formulation); every moving object one rigid body on a floating joint
// to the world (position and unit quaternion, joint frame = world), fixed objects and the
// environment's half-spaces as obstacles; every shape a box, convex polytope, cylinder, sphere or
// half-space (no capsules). Anything else: std::invalid_argument naming the object or shape.
//
// Pairs: every pair of shapes on two different bodies of which at least one moves and which the
// scene does not filter. G is the shape whose body index is lower (the world's shapes are always
// G; the contact normal points from G to F, the convention of the other formulations with A = F,
// B = G); F's body moves.
//
// Unknowns z (the NCP's order; kinds: free = F_i(z) = 0, compl. = 0 <= z_i ⊥ F_i(z) >= 0):
//   per moving body b, at 6b:     v⁺ (3) [m/s], ω⁺ (3) [rad/s], world frame, v⁺ of the com   free
//   per pair, from its offset o:  a1 (3), a2 (3) [m] world                                 free
//                                 s [m] (a2 − a1 = s n_F)                                   free
//                                 p̂_t, p̂_o [-], p̂_r [m] (impulses / P)                      free
//                                 p̂_n [-]                                                   compl.
//                                 σ [m/s]                                                   compl.
//                                 l_F (m_F), l_G (m_G) [-]                                  compl.
// with P = min(moving masses of the pair) · max(|g|, 1 m/s²) · h [N·s], the impulse scale that
// makes a resting contact's p̂_n about 1.

#include <Eigen/Core>
#include <vector>

#include "quasidyn/geometry/convex_quadrics.h"
#include "quasidyn/model/scene.h"
#include "quasidyn/solvers/mixed_ncp_newton.h"

namespace quasidyn {

struct EcpBody {
  int body = -1;      // Scene::bodies index
  int instance = -1;  // Scene::instances index (an object on a floating joint)
  int q_start = 0;    // its 7 coordinates in q: position of the body origin [m], quaternion
  int v_start = 0;    // its 6 velocities in v: (ṗ of the body origin [m/s], ω [rad/s]), world
  double mass = 0.0;  // [kg] > 0
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();  // about the com, body frame [kg·m²]
  Eigen::Vector3d com = Eigen::Vector3d::Zero();      // the com in the body frame [m]
  double angular_scale = 1.0;  // λ_max(inertia) [kg·m²]: its angular rows are divided by it
};

struct EcpShape {
  int geometry = -1;   // Scene::geometries index
  int body_slot = -1;  // index into EcpSystem::bodies(), -1 for a fixed shape
  // In the com frame of its body (ξ = Rᵀ(x − c)) when it moves, in the world when fixed.
  ConvexQuadricSet set;
};

struct EcpPair {
  int shape_f = -1, shape_g = -1;  // indices into EcpSystem::shapes(); F's body moves
  double friction = 0.0;           // μ [-], the scene's combination of the two shapes'
  double impulse_scale = 0.0;      // P [N·s]
  int offset = 0;                  // its first unknown
  int m_f = 0, m_g = 0;            // inequalities of F and G
  int a1() const { return offset; }
  int a2() const { return offset + 3; }
  int s() const { return offset + 6; }
  int pt() const { return offset + 7; }
  int po() const { return offset + 8; }
  int pr() const { return offset + 9; }
  int pn() const { return offset + 10; }
  int sigma() const { return offset + 11; }
  int lf() const { return offset + 12; }
  int lg() const { return offset + 12 + m_f; }
  int size() const { return 12 + m_f + m_g; }
};

// The formulation's parameters (ecp_keys.h): the time step and the friction ellipsoid.
struct EcpParameters {
  double time_step = 0.01;  // h [s] > 0
  double e_t = 1.0;         // [-] > 0
  double e_o = 1.0;         // [-] > 0
  double e_r = 1.0;         // [m] > 0
};

class EcpSystem {
 public:
  // Compiles the scene (std::invalid_argument naming what the formulation cannot express, or a
  // parameter out of its range).
  EcpSystem(const Scene& scene, const EcpParameters& parameters);

  const std::vector<EcpBody>& bodies() const { return bodies_; }
  const std::vector<EcpShape>& shapes() const { return shapes_; }
  const std::vector<EcpPair>& pairs() const { return pairs_; }
  // The body slot of scene body `body`, -1 when it does not move.
  int BodySlot(int body) const;
  int size() const { return size_; }  // unknowns
  const std::vector<NcpKind>& kinds() const { return kinds_; }
  double time_step() const { return h_; }
  const Eigen::Vector3d& gravity() const { return gravity_; }
  double e_t() const { return e_t_; }
  double e_o() const { return e_o_; }
  double e_r() const { return e_r_; }
  // The pair whose unknowns hold index i, -1 for a body's velocity.
  int PairOfUnknown(int i) const;
  // "pair 2 (box/0 on world/ground)": for messages.
  std::string PairName(const Scene& scene, int pair) const;
  // What unknown i is: "body 'cube' w+_z", "pair 0 (cube/0 on world/ground) p_n", "… l_F[3]".
  std::string UnknownName(const Scene& scene, int i) const;

 private:
  std::vector<EcpBody> bodies_;
  std::vector<EcpShape> shapes_;
  std::vector<EcpPair> pairs_;
  std::vector<int> body_slot_;  // per scene body
  std::vector<NcpKind> kinds_;
  int size_ = 0;
  double h_ = 0.01;
  Eigen::Vector3d gravity_ = Eigen::Vector3d::Zero();
  double e_t_ = 1.0, e_o_ = 1.0, e_r_ = 1.0;
};

}  // namespace quasidyn
