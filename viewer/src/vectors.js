// Which vectors the page draws. A force far below the scene's forces is the round-off of a
// step's solve (a momentum term of 1e-25 N on a box pushed with 10 N), not a force: a contact
// force's arrow is drawn, and a momentum term listed as a vector, only when its magnitude is
// above
//
//   threshold = max(kRelativeThreshold · F_max, kEpsilonFactor · ε · max(F_max, W))   [N]
//
// F_max [N]: the largest |F| over the whole trajectory of the contact forces and momentum terms;
// W [N]: the heaviest object's weight m·|g| (the page's scene.weight, 0 without gravity), the
// scene's force scale when the run itself has no force of that size; ε = 2^-52, the machine
// epsilon of the doubles the step solves in. Torsion arcs (ecp) take the same rule on the
// largest |τ| [N·m] (drawThreshold(τ_max), no weight). No three.js here: these are pure
// functions that the viewer's node tests import (viewer/tests).

export const kRelativeThreshold = 1e-6;  // [-], of the largest force
// [-]: the round-off of a solve is about (a condition number) · ε · (its force scale).
export const kEpsilonFactor = 1e3;

// |v| of a vector (an array of numbers).
export function magnitude(v) {
  return Math.hypot(...v);
}

// The force [N] (x, y, z) an arrow shows: `force` (on the object); pages written before it
// existed give the force on shape A, normal_force·normal + friction_force.
export function contactForce(contact) {
  if (contact.force) return contact.force;
  const [fx, fy, fz] = contact.friction_force;
  const [nx, ny, nz] = contact.normal;
  const fn = contact.normal_force;
  return [fx + fn * nx, fy + fn * ny, fz + fn * nz];
}

// F_max [N]: the largest contact force and momentum term over all frames (viewer_data.h:
// frames.contacts, frames.momentum); 0 when there is none.
export function largestSceneForce(frames) {
  let largest = 0;
  for (const contacts of frames.contacts) {
    for (const c of contacts) largest = Math.max(largest, magnitude(contactForce(c)));
  }
  for (const terms of frames.momentum || []) {
    for (const m of terms) largest = Math.max(largest, magnitude(m.force));
  }
  return largest;
}

// The smallest magnitude drawn [the vectors' unit]: see the formula at the top. largest: F_max;
// scale: W (>= 0; 0 or missing when the scene has none).
export function drawThreshold(largest, scale = 0) {
  const reference = Math.max(largest, Number(scale) || 0);
  return Math.max(kRelativeThreshold * largest, kEpsilonFactor * Number.EPSILON * reference);
}

// The threshold [N] of a page (viewer_data.h: frames and scene.weight).
export function pageForceThreshold(data) {
  return drawThreshold(largestSceneForce(data.frames), data.scene && data.scene.weight);
}

// True when vector v is drawn: finite and longer than threshold.
export function isDrawn(v, threshold) {
  const length = magnitude(v);
  return Number.isFinite(length) && length > threshold && length > 0;
}

// The contacts whose force arrow is drawn: [{index (into contacts), force [N]}].
export function drawnForces(contacts, threshold) {
  const drawn = [];
  contacts.forEach((contact, index) => {
    const force = contactForce(contact);
    if (isDrawn(force, threshold)) drawn.push({ index, force });
  });
  return drawn;
}

// The panel's line for the momentum term of one frame (frames.momentum[j]: [{object, force}]):
// each object's force to 3 digits (components below the threshold, round-off, as 0), or
// "< threshold N" when the whole force is below it (0 N when
// the threshold is 0: the page has no force at all); '–' when the step has none.
export function momentumText(terms, threshold) {
  if (!terms || terms.length === 0) return '–';
  const digits = (x) => Number(x.toPrecision(3));
  const component = (x) => (Math.abs(x) > threshold ? digits(x) : 0);
  return terms.map((m) => (isDrawn(m.force, threshold)
    ? `${m.object} (${m.force.map(component).join(', ')}) N`
    : `${m.object} ${threshold > 0 ? `< ${digits(threshold)}` : '0'} N`)).join('; ');
}
