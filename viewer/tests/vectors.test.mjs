// Which vectors the page draws (viewer/src/vectors.js): forces far below the scene's forces are
// round-off and get no arrow and no vector in the panel. Run: node --test viewer/tests
import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  drawThreshold, drawnForces, isDrawn, kEpsilonFactor, kRelativeThreshold, largestSceneForce,
  momentumText, pageForceThreshold,
} from '../src/vectors.js';

// a == b up to a few ulps.
const near = (a, b) =>
  assert.ok(Math.abs(a - b) <= 4 * Number.EPSILON * Math.abs(b), `${a} vs ${b}`);

// A contact with force F [N] on the object.
const contact = (force) => ({ point: [0, 0, 0], normal: [0, 0, 1], normal_force: 0,
  friction_force: [0, 0, 0], force });

test('the threshold is 1e-6 of the largest force, with a floor of 1e3·ε times the weight', () => {
  assert.equal(kRelativeThreshold, 1e-6);
  near(drawThreshold(10), 1e-5);
  near(drawThreshold(10, 2), 1e-5);  // the weight below F_max changes nothing
  // Only round-off in the run (F_max = 1e-25 N) on a 10 N box: the floor of the weight.
  assert.equal(drawThreshold(1e-25, 10), kEpsilonFactor * Number.EPSILON * 10);
  assert.equal(drawThreshold(0, 0), 0);
  assert.equal(drawThreshold(0), 0);
});

test('the largest force takes the contact forces and the momentum terms of every frame', () => {
  const frames = {
    contacts: [[contact([3, 4, 0])], []],
    momentum: [[{ object: 'box', force: [0, 0, 0] }], [{ object: 'box', force: [0, 6, 8] }]],
  };
  assert.equal(largestSceneForce(frames), 10);
  assert.equal(largestSceneForce({ contacts: [[contact([3, 4, 0])]] }), 5);
  // Pages from before `force`: normal_force·normal + friction_force.
  assert.equal(largestSceneForce({ contacts: [[{ point: [0, 0, 0], normal: [0, 0, 1],
    normal_force: 2, friction_force: [0, 0, 0] }]] }), 2);
});

test('a 1e-25 N momentum term beside 10 N contact forces is not listed as a vector', () => {
  const data = {
    scene: { weight: 9.81 },
    frames: {
      contacts: [[contact([10, 0, 0])]],
      momentum: [[{ object: 'box', force: [1e-25, -3e-26, 0] },
        { object: 'ball', force: [0.5, -8.01e-19, 0] }]],
    },
  };
  const threshold = pageForceThreshold(data);
  near(threshold, 1e-5);
  assert.equal(momentumText(data.frames.momentum[0], threshold),
    'box < 0.00001 N; ball (0.5, 0, 0) N');
  assert.equal(momentumText([], threshold), '–');
  assert.equal(momentumText(undefined, threshold), '–');
  // No force at all in the page: nothing is drawn, and a zero term reads 0 N.
  assert.equal(momentumText([{ object: 'box', force: [0, 0, 0] }], 0), 'box 0 N');
});

test('contact arrows: only the forces above the threshold', () => {
  const contacts = [contact([10, 0, 0]), contact([1e-25, 0, 0]), contact([0, 0, 0]),
    contact([0, 2e-5, 0])];
  const drawn = drawnForces(contacts, 1e-5);
  assert.deepEqual(drawn.map((d) => d.index), [0, 3]);
  assert.deepEqual(drawn[0].force, [10, 0, 0]);
  // A round-off-only run on a scene with weight: no arrow at all.
  const threshold = drawThreshold(largestSceneForce({ contacts: [contacts.slice(1, 3)] }), 9.81);
  assert.deepEqual(drawnForces(contacts.slice(1, 3), threshold), []);
});

test('isDrawn refuses zero and non-finite vectors', () => {
  assert.equal(isDrawn([0, 0, 0], 0), false);
  assert.equal(isDrawn([NaN, 0, 0], 0), false);
  assert.equal(isDrawn([Infinity, 0, 0], 0), false);
  assert.equal(isDrawn([1e-30, 0, 0], 0), true);
  assert.equal(isDrawn([1e-5, 0, 0], 1e-5), false);  // strictly above
});
