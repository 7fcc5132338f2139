// A plan executed on a plant (viewer_data.h: execution; src/quasidyn/viewer/execution_page.h):
// the page's run is the plant's and its one overlay the plan then running. This panel section
// names the plan running at the shown time, the distance to the goal D of the plant and of that
// plan, the deepest overlap, and plots D over time (plant solid, plans in the plans' colour)
// with a dashed line where each plan starts, the goal's tolerance and a cursor at the shown time.

import { indexAt } from './time_index.js';

const kSvg = 'http://www.w3.org/2000/svg';
const kPlantColor = '#e6e9ef';
const kToleranceColor = '#7dffb2';

// What the panel shows at time t [s]: the plan running (the last one started by t), its step j,
// and D of the plant and of that plan there (null without a goal).
export function executionState(execution, t) {
  const plans = execution.plans;
  const r = indexAt(plans.map((plan) => plan.start_time), t);
  const plan = plans[r];
  const j = indexAt(plan.t, t);
  const plantIndex = indexAt(execution.plant.t, t);
  const hasGoal = execution.plant.distance.length > 0;
  return {
    plan: r,
    planStep: j,
    plantDistance: hasGoal ? execution.plant.distance[plantIndex] : null,
    planDistance: hasGoal ? plan.distance[j] : null,
  };
}

// The plot's polylines in data units: the plant's D, and per plan its D from its start until the
// next plan starts (the last to its end), every point within [0, duration].
export function distanceSeries(execution, duration) {
  const plant = execution.plant.t.map((t, k) => [t, execution.plant.distance[k]]);
  const plans = execution.plans.map((plan, r) => {
    const next = r + 1 < execution.plans.length ? execution.plans[r + 1].start_time : Infinity;
    const until = Math.min(next, duration);
    const points = [];
    plan.t.forEach((t, j) => {
      if (t <= until + 1e-9 * Math.max(1, until)) points.push([t, plan.distance[j]]);
    });
    return points;
  });
  return { plant, plans };
}

function svgNode(tag, attributes) {
  const node = document.createElementNS(kSvg, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  return node;
}

export class ExecutionSection {
  // execution: the page data's `execution`; duration: the plant's run [s]; row(parent, key):
  // the panel's key–value row maker (panel.js), returning the value element.
  constructor(execution, duration, row) {
    this.execution = execution;
    this.duration = duration;
    this.element = document.createElement('div');
    this.element.id = 'qd-execution';
    this.element.style.marginTop = '6px';
    const plans = execution.plans;
    this.planValue = row(this.element, 'plan');
    this.distanceValue = row(this.element, 'D plant / plan');
    const deepest = row(this.element, 'deepest overlap');
    const worst = plans.reduce((best, plan, r) =>
      (plan.max_penetration > plans[best].max_penetration ? r : best), 0);
    deepest.textContent = `${(1e3 * execution.plant.max_penetration).toPrecision(3)} mm` +
      (plans.length > 1 ? ` (plan ${worst})` : '') + ' on the plant';
    if (execution.plant.distance.length > 0) this.buildPlot();
    this.plan = 0;
  }

  buildPlot() {
    const width = 300;
    const height = 96;
    const pad = 4;
    const { plant, plans } = distanceSeries(this.execution, this.duration);
    let top = this.execution.goal_tolerance || 0;
    for (const series of [plant, ...plans]) for (const [, d] of series) top = Math.max(top, d);
    top = top > 0 ? 1.05 * top : 1;
    const span = this.duration > 0 ? this.duration : 1;
    this.x = (t) => pad + (width - 2 * pad) * Math.min(Math.max(t / span, 0), 1);
    const y = (d) => height - pad - (height - 2 * pad) * d / top;
    const svg = svgNode('svg', { id: 'qd-distance-plot', width, height,
      viewBox: `0 0 ${width} ${height}`, role: 'img',
      'aria-label': 'distance to the goal D over time: plant and plan' });
    svg.style.cssText = 'display:block;margin-top:4px;background:rgba(255,255,255,.04);' +
      'border-radius:4px';
    const line = (points, color, extra = {}) => svg.append(svgNode('polyline', {
      points: points.map(([t, d]) => `${this.x(t).toFixed(1)},${y(d).toFixed(1)}`).join(' '),
      fill: 'none', stroke: color, 'stroke-width': 1.5, ...extra }));
    const tolerance = this.execution.goal_tolerance;
    if (tolerance > 0) {
      line([[0, tolerance], [span, tolerance]], kToleranceColor,
        { 'stroke-dasharray': '2 3', 'stroke-width': 1, class: 'qd-tolerance' });
    }
    this.execution.plans.forEach((plan, r) => {
      if (r > 0) {
        const x = this.x(plan.start_time).toFixed(1);
        svg.append(svgNode('line', { x1: x, x2: x, y1: 0, y2: height, stroke: '#9aa4b5',
          'stroke-dasharray': '3 3', 'stroke-width': 1, class: 'qd-replan' }));
      }
    });
    for (const points of plans) {
      line(points, this.execution.plan_color, { class: 'qd-plan-distance' });
    }
    line(plant, kPlantColor, { class: 'qd-plant-distance' });
    this.cursor = svgNode('line', { x1: 0, x2: 0, y1: 0, y2: height, stroke: '#ffd23f',
      'stroke-width': 1 });
    svg.append(this.cursor);
    const caption = document.createElement('div');
    caption.style.cssText = 'font-size:11px;color:#9aa4b5';
    caption.textContent = `D over time (0 – ${top.toPrecision(3)}): plant white, plan ` +
      'blue, dashed: a plan starts' + (tolerance > 0 ? ', green: the goal\'s tolerance' : '');
    this.element.append(svg, caption);
  }

  // Shows time t [s].
  update(t) {
    const state = executionState(this.execution, t);
    const plan = this.execution.plans[state.plan];
    this.plan = state.plan;
    const count = this.execution.plans.length;
    this.planValue.textContent = `${state.plan} (${count} plan${count > 1 ? 's' : ''}; from ` +
      `t = ${plan.start_time} s, step ${state.planStep} / ${plan.steps}` +
      (state.plantDistance === null ? ')' : `, ${plan.found ? 'found' : 'not found'})`);
    this.distanceValue.textContent = state.plantDistance === null ? 'no goal'
      : `${state.plantDistance.toPrecision(3)} / ${state.planDistance.toPrecision(3)}` +
        (this.execution.goal_tolerance !== undefined
          ? ` (tolerance ${this.execution.goal_tolerance})` : '');
    if (this.cursor) {
      const x = this.x(t).toFixed(1);
      this.cursor.setAttribute('x1', x);
      this.cursor.setAttribute('x2', x);
    }
  }
}
