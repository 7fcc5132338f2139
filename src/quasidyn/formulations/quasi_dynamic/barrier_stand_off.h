#pragma once
// How far the log barriers hold an object off its support, and the contact distance that keeps
// every such contact in the candidate set (a contact the barrier pushes on must not drop out
// between steps).
//
// At rest (v = 0) a barrier row i pushes with the force 1/(κ φ_i) [N] (log_barrier_pyramid.h:
// β_ij g_ij = 1/κ with g_ij = φ_i/h, β the impulse, β/h the force); the cone barrier pushes
// with 2/(κ φ_i) per contact (log_barrier_cone.h, degree 2). So an object of mass m [kg] resting
// on one support with R barrier rows balances its weight m |g| at a gap of at most
//
//   φ̄ = R / (κ m |g|)  [m],   R = d · P,
//
// d the barrier degree of one contact point (n_d rays of the pyramid in 3D, 2 in the plane or
// for a cone) and P the most points one pair of shapes yields (kMaxManifoldPoints in 3D,
// kMaxPlanarManifoldPoints in the plane, geometry/manifold_points.h): if every row's gap
// exceeded φ̄ the rows' force would stay below the weight. |g| is the gravity the object feels:
// its full norm in 3D, its x-y component in a planar scene.
//
// With contacts kept only up to ε = Scene::contact_tolerance < φ̄, the barrier lifts the object
// beyond ε, the next step finds no contact, and the object falls h²|g| per step through its
// support. The barrier formulations therefore keep contacts up
// to ε_b = max(ε, 2 φ̄) over the objects (the factor 2 covers an object resting on two supports
// and the transient of a step); the force a row loses when its contact leaves the set is then
// at most m |g| / (2R) per row.

#include <string>
#include <vector>

#include "quasidyn/model/scene.h"

namespace quasidyn {

// Which barrier: the pyramid's (log_barrier/, degree d = n_d rays per point in 3D, 2 in the
// plane) or the cone's (log_barrier_cone/, d = 2).
enum class BarrierKind { kPyramid, kCone };

// φ̄ above for object instance `instance` of the scene under the barrier of weight κ [1/(N·m)],
// > 0 [m]; 0 when the object feels no gravity.
double BarrierRestingGap(const Scene& scene, BarrierKind barrier, double kappa, int instance);

// The candidate distance of the scene's contacts under the barrier [m]: max(ε, 2 φ̄) over the
// objects. Throws std::invalid_argument naming `formulation` and the object when the barrier
// would hold an object further from its support than ten times its own size (a 1 mg object at
// κ = 100 floats thousands of metres up): the message gives the least κ that keeps it within
// that bound.
double BarrierCandidateDistance(const Scene& scene, BarrierKind barrier, double kappa,
                                const std::string& formulation);

// The resting stand-off the default κ allows, as a fraction of an object's own size [-]: a
// 10 cm box rests within 1 mm of its support.
inline constexpr double kDefaultStandOffPerSize = 0.01;

// The log-barrier weight of a scene that does not set `kappa` [1/(N·m)]: the least κ for which
// every object that feels gravity rests within kDefaultStandOffPerSize of its own size of its
// support under either barrier, κ = max_o R / (0.01 · size_o · m_o |g|) with R = n_d · P (the
// pyramid's rows per contact pair, which bound the cone's 2 · P); 100 when no object has both
// a weight and a size. At κ = 100 a 1 kg, 10 cm box rests 16 mm up; the default
// is 4 · 8 / (0.01 · 0.1 · 9.81) ≈ 3262 for it, and it rests 0.5 mm up (its 4 corners of the
// 8 points bounded; stepping/barrier_resting_test.cc).
double DefaultKappa(const Scene& scene);

// Per instance of the scene, the largest dimension of its collision shapes [m]: the largest
// side of each shape's bounding box in the shape's own frame (a sphere's diameter, a box's
// longest side, a convex shape's largest extent along its frame's axes); 0 for an instance
// without shapes. One pass over the geometries, linear in their vertices.
std::vector<double> InstanceSizes(const Scene& scene);

}  // namespace quasidyn
