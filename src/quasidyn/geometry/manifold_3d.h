#pragma once
// Contact manifolds in 3D: every point of a face, edge or rim contact, each with its own
// signed distance, built from the closest pair of two shapes.
//
// Method (reference-face clipping, as described e.g. by Ericson, Real-Time Collision
// Detection, 2005, §5.3 and Catto's box–box clipping in Box2D Lite), for the closest pair
// with normal n (from B to A):
//  1. Support features (support_3d.h): the surface points of A in the band of its support
//     value along −n and those of B along +n. The band is (tolerance − φ_closest) plus
//     kManifoldSlack: any point that can end up with φ <= tolerance is in it.
//  2. If either feature is a single point (sphere, a vertex, a tilted cylinder's rim
//     point), the manifold is the closest pair alone.
//  3. B a half-space: its feature is its whole plane; every point p of A's feature gives
//     φ = n·(p − o) with its foot on the plane (no clipping).
//  4. Otherwise both features are projected onto the plane ⟂ n and ordered by a 2D convex
//     hull (Andrew's monotone chain), giving a segment or a convex polygon each. The
//     reference feature is a polygon (of the two polygons, the one whose Newell-method plane
//     normal is more parallel to n; B on a tie); a segment against a segment is clipped
//     only when their projections are parallel (else the closest pair is returned). The
//     incident feature is clipped against the reference's side planes, which contain n
//     (Sutherland & Hodgman, "Reentrant polygon clipping", CACM 1974).
//  5. Every clipped point p gets its partner q = p + t n on the reference plane (the
//     fitted plane through the reference feature), φ = n·(p_A − p_B), and is kept when
//     φ <= tolerance + kManifoldSlack. Points closer than kManifoldSlack are merged.
//  6. Cap: at most kMaxManifoldPoints = 8 points. When more survive, the deepest is kept,
//     then repeatedly the point farthest from all kept ones (farthest-point sampling), so
//     the kept points span the contact patch.
// A non-planar reference feature (a band wide enough to take vertices from two faces) is
// replaced by its fitted plane: the φ of such points is then approximate.

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <vector>

#include "quasidyn/geometry/contact_point.h"
#include "quasidyn/geometry/manifold_points.h"
#include "quasidyn/model/shape.h"

namespace quasidyn {

struct Manifold3dScratch;  // manifold_3d_scratch.h

// Numerical slack [m] for "φ <= tolerance" and for merging points: far below any physical
// tolerance, above the rounding of metre-sized poses.
inline constexpr double kManifoldSlack = 1e-9;

// The manifold of shapes a at X_WA and b at X_WB (shape frames in world), given their
// closest pair `closest` (as from SignedDistance3d) and tolerance [m] >= 0. Empty when
// closest.phi > tolerance. All points share closest.normal except those against a
// half-space, which use the plane normal (the same vector). Either shape may be the
// half-space. Throws std::invalid_argument for a negative tolerance or two half-spaces.
std::vector<ContactPoint> ContactManifoldFromClosest3d(
    const Shape& a, const Eigen::Isometry3d& X_WA, const Shape& b, const Eigen::Isometry3d& X_WB,
    const ContactPoint& closest, double tolerance);

// The same points into *out (cleared first), with the intermediate lists in *scratch: no
// heap allocation once the scratch has held features of the pair's size. Nothing is checked:
// tolerance finite and >= 0, not two half-spaces, shapes valid (shape_validation.h).
void ContactManifoldFromClosest3d(const Shape& a, const Eigen::Isometry3d& X_WA, const Shape& b,
                                  const Eigen::Isometry3d& X_WB, const ContactPoint& closest,
                                  double tolerance, Manifold3dScratch* scratch,
                                  ManifoldPoints* out);

// The features that produced one point of a CLIPPED manifold (steps 4–5), as indices into the
// ordered reference and incident features of the scratch that built it (manifold_3d_scratch.h:
// the reference is feature_B when record.reference_is_B, else feature_A; polygon indices are
// cyclic). Reference side planes are numbered by their edge: plane i holds the reference edge
// (i, i + 1) and n. With p the point's incident witness (p_A when the reference is B's):
//  * kIncidentVertex: p is incident point `incident` (kept by every side plane);
//  * kReferenceVertex: p lies on the side planes of the two reference edges at reference point
//    `reference`, i.e. on that point's line along n, cut by the incident polygon's plane;
//  * kIncidentEdgeCut: p is where the incident edge (incident, incident + 1) crosses the side
//    plane of reference edge (reference, reference + 1).
// The reference witness is p moved along n onto the reference plane (ReferencePlane3d).
struct ClippedPointFeatures3d {
  enum Kind { kIncidentVertex, kReferenceVertex, kIncidentEdgeCut };
  Kind kind = kIncidentVertex;
  int incident = -1;
  int reference = -1;
};

// The features of `point`, a point of the last manifold built in `scratch`: false when that
// manifold was not clipped, its reference is a segment, or the point lies on none of the three
// kinds (within 1e-12 of the features' size, far below kManifoldSlack: clipped points lie on
// their planes to round-off).
bool FeaturesOfClippedPoint3d(const Manifold3dScratch& scratch, const ContactPoint& point,
                              ClippedPointFeatures3d* out);

// The reference plane of the last clipped manifold built in `scratch` with normal n (step 5):
// its unit normal (the reference polygon's Newell normal oriented along n, or n itself when
// that is within 60° of perpendicular to n: *normal_is_n) and a point of it (the reference
// feature's centroid) [m].
void ReferencePlane3d(const Manifold3dScratch& scratch, const Eigen::Vector3d& n,
                      Eigen::Vector3d* normal, Eigen::Vector3d* point, bool* normal_is_n);

}  // namespace quasidyn
