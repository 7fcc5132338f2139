// Orientation marks of round shapes. A sphere, a disk (a planar scene's sphere), a cylinder or a
// capsule looks the same after turning about its axis of symmetry, so a rolling body would look
// as if it slid: each gets lines fixed in its shape frame S (shapes.js: 3D cylinders and capsules
// along S's z, planar capsules along S's x, planar spheres a disk facing +z) that turn with it:
//   sphere (3D)    two meridians, the great circles in S's x-z and y-z planes (a turn about any
//                  axis moves at least one of them);
//   disk (planar)  a radius from the centre along S's +x on both faces;
//   cylinder       a radius along +x on both end caps and the side's line at +x joining them;
//   capsule        the outline of its x-z section on the +x side: the side's line at +x and
//                  the quarter arcs over both caps to the poles (3D); planar, the quarter arc
//                  of its y-z section at its middle from the top (+z, towards the viewer) to
//                  the rim at +y.
// Every point lies a hair (kLift) outside the surface so that the lines are not hidden by it.
// No three.js here: pure functions that the viewer's node tests import (viewer/tests).

export const kLift = 1.004;  // [-], points at kLift × the surface's radius
const kArcSegments = 48;

// Points (x, y, z) [m] of an arc of `radius` about `center` in the plane spanned by the unit
// vectors u and v, from angle a0 to a1 [rad]: `segments` line pieces, as [[p, q], ...].
function arc(center, u, v, radius, a0, a1, segments) {
  const point = (a) => center.map((c, i) =>
    c + radius * (Math.cos(a) * u[i] + Math.sin(a) * v[i]));
  const pieces = [];
  for (let k = 0; k < segments; ++k) {
    pieces.push([point(a0 + (a1 - a0) * k / segments), point(a0 + (a1 - a0) * (k + 1) / segments)]);
  }
  return pieces;
}

// True for the shapes that get a mark: spheres, cylinders and capsules (collision shapes or
// visuals), not those drawn from a mesh.
export function isRound(shape) {
  return shape.mesh === undefined && ['sphere', 'cylinder', 'capsule'].includes(shape.type);
}

// The mark of `shape` as line segments [[p, q], ...] in S [m]; [] for shapes that are not round.
// depth [m]: the planar extrusion depth (the disk's thickness).
export function orientationMarkSegments(shape, planar, depth) {
  if (!isRound(shape)) return [];
  const r = kLift * shape.radius;
  const x = [1, 0, 0];
  const y = [0, 1, 0];
  const z = [0, 0, 1];
  switch (shape.type) {
    case 'sphere': {
      if (planar) {
        const face = kLift * depth / 2;
        return [[[0, 0, face], [r, 0, face]], [[0, 0, -face], [r, 0, -face]]];
      }
      return [...arc([0, 0, 0], x, z, r, 0, 2 * Math.PI, kArcSegments),
        ...arc([0, 0, 0], y, z, r, 0, 2 * Math.PI, kArcSegments)];
    }
    case 'cylinder': {
      const end = kLift * shape.length / 2;
      return [[[0, 0, end], [r, 0, end]], [[0, 0, -end], [r, 0, -end]],
        [[r, 0, -shape.length / 2], [r, 0, shape.length / 2]]];
    }
    case 'capsule': {
      const half = shape.length / 2;
      if (planar) return arc([0, 0, 0], z, y, r, 0, Math.PI / 2, kArcSegments / 4);
      return [[[r, 0, -half], [r, 0, half]],
        ...arc([0, 0, half], x, z, r, 0, Math.PI / 2, kArcSegments / 4),
        ...arc([0, 0, -half], x, z, r, 0, -Math.PI / 2, kArcSegments / 4)];
    }
    default:
      return [];
  }
}
