#include "quasidyn/gradients/rounded_pair_derivative.h"

#include <cmath>

#include "quasidyn/gradients/pair_motion_derivative.h"

namespace quasidyn {
namespace {

// A contact's points agree with the cores to this distance [m]: the narrow phases compute
// them in closed form for these shapes, with round-off far below it.
constexpr double kOnCoreSlack = 1e-9;

// The core of a sphere (its centre) or a capsule (its segment) in world, and its radius.
struct RoundedCore {
  int vertex_count = 0;  // 1 point, 2 segment; 0: not a rounded core
  Eigen::Vector3d vertex[2] = {Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero()};
  double radius = 0.0;
};

// The capsule's segment lies along S's z in 3D and along S's x in a planar scene
// (model/shape.h); planar cores are lifted to the contacts' plane z = plane_z.
RoundedCore CoreOf(const CollisionGeometry& g, const Eigen::Isometry3d& X_WS, bool planar,
                   double plane_z) {
  RoundedCore core;
  const Shape& shape = g.shape;
  if (shape.type == ShapeType::kSphere) {
    core.vertex_count = 1;
    core.vertex[0] = X_WS.translation();
  } else if (shape.type == ShapeType::kCapsule) {
    core.vertex_count = 2;
    const Eigen::Vector3d half =
        0.5 * shape.length * (planar ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitZ());
    core.vertex[0] = X_WS * (-half);
    core.vertex[1] = X_WS * half;
  } else {
    return core;
  }
  core.radius = shape.radius;
  if (planar)
    for (Eigen::Vector3d& p : core.vertex) p.z() = plane_z;
  return core;
}

// Which point of a core is closest to the world point y: a vertex (index 0 or 1) or the
// interior of the segment (−1); −2 when y's foot lies within `margin` [m] of a segment's end
// (a change of feature within the differences' reach).
int Feature(const RoundedCore& core, const Eigen::Vector3d& y, double margin) {
  if (core.vertex_count == 1) return 0;
  const Eigen::Vector3d axis = core.vertex[1] - core.vertex[0];
  const double length = axis.norm();
  const double along = (y - core.vertex[0]).dot(axis) / length;  // [m] from vertex 0
  if (along < -margin) return 0;
  if (along > length + margin) return 1;
  if (along > margin && along < length - margin) return -1;
  return -2;
}

// The closest point of the core's feature to y: the vertex, or y's foot on the segment.
Eigen::Vector3d FeaturePoint(const RoundedCore& core, int feature, const Eigen::Vector3d& y) {
  if (feature >= 0) return core.vertex[feature];
  const Eigen::Vector3d e = (core.vertex[1] - core.vertex[0]).normalized();
  return core.vertex[0] + (y - core.vertex[0]).dot(e) * e;
}

using Vector6d = Eigen::Matrix<double, 6, 1>;

// V(x) = ω × (x − c) + v of the header.
Eigen::Vector3d RigidVelocity(const Vector6d& u, const Eigen::Vector3d& c,
                              const Eigen::Vector3d& x) {
  return u.head<3>().cross(x - c) + u.tail<3>();
}

// Two rounded cores: the header's formulas for one basis twist u.
ContactPointDerivative CoreCoreDerivative(const RoundedCore& A, int feature_a, const RoundedCore& B,
                                          int feature_b, const Eigen::Vector3d& a,
                                          const Eigen::Vector3d& b, const Vector6d& u,
                                          const Eigen::Vector3d& c) {
  Eigen::Vector3d a_dot, b_dot;
  if (feature_a >= 0) {
    a_dot = RigidVelocity(u, c, a);
    b_dot = Eigen::Vector3d::Zero();
    if (feature_b < 0) {
      const Eigen::Vector3d e_B = (B.vertex[1] - B.vertex[0]).normalized();
      b_dot = a_dot.dot(e_B) * e_B;
    }
  } else {  // interior of A against a vertex of B (two interiors are declined)
    b_dot = Eigen::Vector3d::Zero();
    const Eigen::Vector3d o_A = A.vertex[0];
    const Eigen::Vector3d e_A = (A.vertex[1] - A.vertex[0]).normalized();
    const Eigen::Vector3d o_dot = RigidVelocity(u, c, o_A);
    const Eigen::Vector3d e_dot = u.head<3>().cross(e_A);
    const double s = (b - o_A).dot(e_A);
    const double s_dot = (b_dot - o_dot).dot(e_A) + (b - o_A).dot(e_dot);
    a_dot = o_dot + s_dot * e_A + s * e_dot;
  }
  const Eigen::Vector3d delta = a - b;
  const double d = delta.norm();
  const Eigen::Vector3d n = delta / d;
  const Eigen::Vector3d delta_dot = a_dot - b_dot;
  ContactPointDerivative out;
  out.phi = n.dot(delta_dot);
  out.normal = (delta_dot - out.phi * n) / d;
  out.p_A = a_dot - A.radius * out.normal;
  out.p_B = b_dot + B.radius * out.normal;
  return out;
}

// Whether contact c of the cores A, B is a vertex of one core against its perpendicular foot
// on the other's segment, the foot at least `margin` [m] from that segment's ends and the
// cores at least `margin` apart (header, the two-contact case); *side = 0 for A's vertex, 1
// for B's, *index the vertex.
bool VertexAgainstInterior(const RoundedCore& A, const RoundedCore& B, const Contact& c,
                           double margin, int* side, int* index) {
  const Eigen::Vector3d a = c.p_A + A.radius * c.normal, b = c.p_B - B.radius * c.normal;
  if ((a - b - (c.phi + A.radius + B.radius) * c.normal).norm() > kOnCoreSlack) return false;
  if (!((a - b).norm() > margin)) return false;  // the cores touch or overlap
  for (int s = 0; s < 2; ++s) {
    const RoundedCore& own = s == 0 ? A : B;  // the vertex's core
    const RoundedCore& other = s == 0 ? B : A;
    const Eigen::Vector3d& vertex = s == 0 ? a : b;
    const Eigen::Vector3d& foot = s == 0 ? b : a;
    if (other.vertex_count != 2 || Feature(other, vertex, margin) != -1) continue;
    if ((FeaturePoint(other, -1, vertex) - foot).norm() > kOnCoreSlack) continue;
    for (int k = 0; k < own.vertex_count; ++k) {
      if ((own.vertex[k] - vertex).norm() <= kOnCoreSlack) {
        *side = s;
        *index = k;
        return true;
      }
    }
  }
  return false;
}

}  // namespace

bool RoundedPairDerivative(const GeometryModel& geometry, const ContactSet& contacts,
                           const std::vector<int>& members,
                           const std::vector<Eigen::Isometry3d>& X_WB,
                           const Eigen::Vector3d& reference, const std::vector<Vector6d>& basis,
                           double step, std::vector<ContactPointDerivative>* along) {
  if (members.empty() || members.size() > 2) return false;
  const Scene& scene = geometry.scene();
  const Contact& first = contacts[members[0]];
  const CollisionGeometry& ga = scene.geometries[first.geometry_a];
  const CollisionGeometry& gb = scene.geometries[first.geometry_b];
  const double plane_z = first.p_A.z();
  const RoundedCore A = CoreOf(ga, X_WB[ga.body] * ga.X_BS, scene.planar, plane_z);
  if (A.vertex_count == 0) return false;
  const double margin = 100.0 * step;
  const size_t count = members.size();

  if (gb.shape.type == ShapeType::kHalfSpace) {
    // The plane's outward normal: S's z in 3D, S's y in a planar scene (planar_shape_2d.cc).
    const Eigen::Isometry3d X_WSb = X_WB[gb.body] * gb.X_BS;
    Eigen::Vector3d plane_normal = X_WSb.linear().col(scene.planar ? 1 : 2);
    if (scene.planar) plane_normal.z() = 0.0;
    int vertex_of[2] = {-1, -1};
    for (size_t m = 0; m < count; ++m) {
      const Contact& c = contacts[members[m]];
      if ((c.normal - plane_normal).norm() > kOnCoreSlack) return false;
      const Eigen::Vector3d a = c.p_A + A.radius * c.normal;
      for (int k = 0; k < A.vertex_count && vertex_of[m] < 0; ++k)
        if ((a - A.vertex[k]).norm() <= kOnCoreSlack) vertex_of[m] = k;
      if (vertex_of[m] < 0) return false;
    }
    for (size_t j = 0; j < basis.size(); ++j) {
      for (size_t m = 0; m < count; ++m) {
        const Contact& c = contacts[members[m]];
        ContactPointDerivative& d = (*along)[j * count + m];
        d.p_A = RigidVelocity(basis[j], reference, A.vertex[vertex_of[m]]);
        d.phi = c.normal.dot(d.p_A);
        d.p_B = d.p_A - d.phi * c.normal;
        d.normal.setZero();
      }
    }
    return true;
  }

  const RoundedCore B = CoreOf(gb, X_WB[gb.body] * gb.X_BS, scene.planar, plane_z);
  if (B.vertex_count == 0) return false;
  if (count == 2) {
    // Two contacts of two cores: a clipped manifold of two segments (manifold_3d.h step 4),
    // e.g. two parallel capsules side by side. Each contact must be a vertex of one core
    // against its foot on the other's interior (header).
    int vertex_side[2], vertex_index[2];
    for (size_t m = 0; m < count; ++m)
      if (!VertexAgainstInterior(A, B, contacts[members[m]], margin, &vertex_side[m],
                                 &vertex_index[m]))
        return false;
    for (size_t j = 0; j < basis.size(); ++j) {
      for (size_t m = 0; m < count; ++m) {
        const Contact& c = contacts[members[m]];
        const Eigen::Vector3d a = c.p_A + A.radius * c.normal, b = c.p_B - B.radius * c.normal;
        // feature −1: the interior (the foot), else the vertex's index.
        const int feature_a = vertex_side[m] == 0 ? vertex_index[m] : -1;
        const int feature_b = vertex_side[m] == 1 ? vertex_index[m] : -1;
        (*along)[j * count + m] =
            CoreCoreDerivative(A, feature_a, B, feature_b, a, b, basis[j], reference);
      }
    }
    return true;
  }
  if (count != 1) return false;
  const Contact& c = first;
  const Eigen::Vector3d a = c.p_A + A.radius * c.normal, b = c.p_B - B.radius * c.normal;
  if ((a - b - (c.phi + A.radius + B.radius) * c.normal).norm() > kOnCoreSlack) return false;
  if (!((a - b).norm() > margin)) return false;  // the cores touch or overlap
  const int feature_a = Feature(A, b, margin), feature_b = Feature(B, a, margin);
  if (feature_a == -2 || feature_b == -2 || (feature_a < 0 && feature_b < 0)) return false;
  // The contact's core points must be those features' closest points.
  if ((FeaturePoint(A, feature_a, b) - a).norm() > kOnCoreSlack ||
      (FeaturePoint(B, feature_b, a) - b).norm() > kOnCoreSlack)
    return false;
  for (size_t j = 0; j < basis.size(); ++j)
    (*along)[j] = CoreCoreDerivative(A, feature_a, B, feature_b, a, b, basis[j], reference);
  return true;
}

}  // namespace quasidyn
