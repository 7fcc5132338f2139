// The execution page's logic (viewer/src/execution.js): which plan runs at a time and the D shown
// for the plant and that plan, and the plot's series. Run: node --test viewer/tests
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { distanceSeries, executionState } from '../src/execution.js';
import { indexAt } from '../src/time_index.js';

// h = 0.1 s; plan 0 (4 steps) ran 2 steps, plan 1 (3 steps) from t = 0.2 s ran all 3.
const execution = {
  plant: { t: [0, 0.1, 0.2, 0.3, 0.4, 0.5], distance: [1, 0.8, 0.7, 0.5, 0.3, 0.1],
    max_penetration: 0.001 },
  plans: [
    { start_time: 0, time_step: 0.1, steps: 4, steps_run: 2, found: true, t: [0, 0.1, 0.2, 0.3, 0.4],
      distance: [1, 0.75, 0.5, 0.25, 0], max_penetration: 0.001 },
    { start_time: 0.2, time_step: 0.1, steps: 3, steps_run: 3, found: false, t: [0.2, 0.3, 0.4, 0.5],
      distance: [0.7, 0.45, 0.2, 0.05], max_penetration: 0.0005 },
  ],
  plan_color: '#7ab8ff',
  goal_tolerance: 0.15,
};

test('indexAt: the last time not after t, 0 before the first', () => {
  assert.equal(indexAt([0, 0.1, 0.2], -1), 0);
  assert.equal(indexAt([0, 0.1, 0.2], 0.1), 1);
  assert.equal(indexAt([0, 0.1, 0.2], 0.1 - 1e-12), 1);  // within the times' round-off
  assert.equal(indexAt([0, 0.1, 0.2], 0.15), 1);
  assert.equal(indexAt([0, 0.1, 0.2], 5), 2);
});

test('the plan running is the last one started; D of the plant and of that plan', () => {
  assert.deepEqual(executionState(execution, 0.1),
    { plan: 0, planStep: 1, plantDistance: 0.8, planDistance: 0.75 });
  // A replan starts where the plant was: at its start time the new plan shows, from its q_0.
  assert.deepEqual(executionState(execution, 0.2),
    { plan: 1, planStep: 0, plantDistance: 0.7, planDistance: 0.7 });
  assert.deepEqual(executionState(execution, 0.45),
    { plan: 1, planStep: 2, plantDistance: 0.3, planDistance: 0.2 });
});

test('without a goal no D is shown', () => {
  const noGoal = { ...execution, plant: { ...execution.plant, distance: [] },
    plans: execution.plans.map((plan) => ({ ...plan, distance: [] })) };
  const state = executionState(noGoal, 0.3);
  assert.equal(state.plantDistance, null);
  assert.equal(state.planDistance, null);
  assert.equal(state.plan, 1);
});

test('the plot draws each plan until the next starts, the last to the run\'s end', () => {
  const { plant, plans } = distanceSeries(execution, 0.5);
  assert.equal(plant.length, 6);
  assert.deepEqual(plans[0], [[0, 1], [0.1, 0.75], [0.2, 0.5]]);
  assert.deepEqual(plans[1].map(([t]) => t), [0.2, 0.3, 0.4, 0.5]);
  // A run shorter than the last plan: its points past the run's end are left out.
  assert.deepEqual(distanceSeries(execution, 0.3).plans[1].map(([t]) => t), [0.2, 0.3]);
});
