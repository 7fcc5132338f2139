// Orientation marks of round shapes (viewer/src/marks.js): spheres, disks, cylinders and
// capsules carry lines fixed in their frame, so rolling is seen as rolling. Run:
// node --test viewer/tests
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { isRound, kLift, orientationMarkSegments } from '../src/marks.js';

const norm = (p) => Math.hypot(...p);
const points = (segments) => segments.flat();
// Rotation about S's z by angle a [rad].
const turnZ = (p, a) => [Math.cos(a) * p[0] - Math.sin(a) * p[1],
  Math.sin(a) * p[0] + Math.cos(a) * p[1], p[2]];
// The mark as a set of points, rounded, for comparing two marks.
const key = (segments) => new Set(points(segments).map((p) => p.map((x) => x.toFixed(6)).join()));

test('round shapes get a mark; boxes, convex shapes and meshes do not', () => {
  for (const shape of [{ type: 'sphere', radius: 0.1 },
    { type: 'cylinder', radius: 0.1, length: 0.3 },
    { type: 'capsule', radius: 0.1, length: 0.3 }]) {
    assert.ok(isRound(shape), shape.type);
    assert.ok(orientationMarkSegments(shape, false, 0.1).length > 0, `${shape.type} 3D`);
    assert.ok(orientationMarkSegments(shape, true, 0.1).length > 0, `${shape.type} planar`);
  }
  assert.deepEqual(orientationMarkSegments({ type: 'box', size: [1, 1, 1] }, false, 0.1), []);
  assert.deepEqual(orientationMarkSegments({ type: 'convex', vertices: [] }, true, 0.1), []);
  assert.equal(isRound({ type: 'cylinder', radius: 1, length: 1, mesh: 0 }), false);
  assert.equal(isRound({ type: 'half_space' }), false);
});

test('a planar ball (a disk) has a radius on both faces, and it turns with the ball', () => {
  const ball = { type: 'sphere', radius: 0.05 };
  const depth = 0.04;
  const mark = orientationMarkSegments(ball, true, depth);
  assert.equal(mark.length, 2);
  for (const [from, to] of mark) {
    assert.equal(norm(from.slice(0, 2)), 0);  // from the centre ...
    assert.ok(Math.abs(norm(to.slice(0, 2)) - kLift * 0.05) < 1e-12);  // ... to the rim
    assert.ok(Math.abs(from[2]) > depth / 2 && from[2] === to[2]);  // on a face, outside it
  }
  // Rolling by a quarter turn moves the mark's end: the disk no longer looks the same.
  const tip = mark[0][1];
  const turned = turnZ(tip, Math.PI / 2);
  assert.ok(norm([turned[0] - tip[0], turned[1] - tip[1], 0]) > 0.05);
});

test('a sphere has two meridians on its surface: any turn about a principal axis shows', () => {
  const radius = 0.2;
  const mark = orientationMarkSegments({ type: 'sphere', radius }, false, 0);
  for (const p of points(mark)) assert.ok(Math.abs(norm(p) - kLift * radius) < 1e-12);
  const turn = {
    x: (p, a) => [p[0], Math.cos(a) * p[1] - Math.sin(a) * p[2],
      Math.sin(a) * p[1] + Math.cos(a) * p[2]],
    y: (p, a) => [Math.cos(a) * p[0] + Math.sin(a) * p[2], p[1],
      -Math.sin(a) * p[0] + Math.cos(a) * p[2]],
    z: turnZ,
  };
  const before = key(mark);
  for (const [axis, rotate] of Object.entries(turn)) {
    const after = key(mark.map((s) => s.map((p) => rotate(p, 0.3))));
    const same = [...after].filter((p) => before.has(p)).length;
    assert.ok(same < after.size / 2, `a turn of 0.3 rad about ${axis} leaves the mark in place`);
  }
});

test('a cylinder: a radius on each end cap and a line along its side', () => {
  const cylinder = { type: 'cylinder', radius: 0.1, length: 0.4 };
  const mark = orientationMarkSegments(cylinder, false, 0);
  assert.equal(mark.length, 3);
  const caps = mark.filter(([from]) => norm(from.slice(0, 2)) === 0);
  assert.equal(caps.length, 2);
  for (const [, to] of caps) assert.ok(Math.abs(to[2]) > 0.2);  // just outside the caps
  const side = mark.find(([from, to]) => from[2] !== to[2]);
  assert.deepEqual(side.map((p) => p[2]), [-0.2, 0.2]);
  assert.ok(side.every((p) => Math.abs(norm(p.slice(0, 2)) - kLift * 0.1) < 1e-12));
});

test('a capsule: its side line and the arcs over both caps, on the surface', () => {
  const capsule = { type: 'capsule', radius: 0.1, length: 0.4 };
  const mark = orientationMarkSegments(capsule, false, 0);
  for (const p of points(mark)) {
    const axis = Math.max(-0.2, Math.min(0.2, p[2]));  // nearest point of the axis segment
    assert.ok(Math.abs(norm([p[0], p[1], p[2] - axis]) - kLift * 0.1) < 1e-12, p.join());
  }
  const heights = points(mark).map((p) => p[2]);
  assert.ok(Math.max(...heights) > 0.29 && Math.min(...heights) < -0.29);  // over both poles
  // Planar (along S's x, seen from +z): an arc from the top to the rim, on the surface.
  const planar = orientationMarkSegments(capsule, true, 0.1);
  for (const p of points(planar)) assert.ok(Math.abs(norm(p) - kLift * 0.1) < 1e-12);
});
