// Contact points (small spheres) and contact-force arrows of the shown step. The arrow of a
// contact starts at its point and shows the force on the object (contactForce: `force`, the
// force on body `on` from body `by`, viewer_data.h); its length is |F| times
// `metersPerNewton`, so lengths compare across contacts and frames. Forces and moments below
// the page's threshold (vectors.js) get no arrow or arc.
import * as THREE from 'three';

import { contactForce, drawThreshold, drawnForces } from './vectors.js';

export { contactForce };

const kPointColor = 0xff3b6b;
const kArrowColor = 0xffd23f;
const kTorsionColor = 0x5ee0a0;

export class ContactLayer {
  // pointRadius [m]: radius of a contact marker; metersPerNewton [m/N]: arrow length per newton.
  // metersPerNewtonMeter [m/(N·m)]: the radius of a torsion arc per newton metre (ecp pages).
  // forceThreshold [N], torsionThreshold [N·m]: smaller forces and moments are not drawn
  // (vectors.js).
  constructor(parent, pointRadius, metersPerNewton, metersPerNewtonMeter = 0, forceThreshold = 0,
    torsionThreshold = 0) {
    this.pointRadius = pointRadius;
    this.metersPerNewton = metersPerNewton;
    this.metersPerNewtonMeter = metersPerNewtonMeter;
    this.forceThreshold = forceThreshold;
    this.torsionThreshold = torsionThreshold;
    this.points = new THREE.Group();
    this.arrows = new THREE.Group();
    this.torsions = new THREE.Group();
    this.arrows.add(this.torsions);
    this.torsionPool = [];
    parent.add(this.points, this.arrows);
    this.pointGeometry = new THREE.SphereGeometry(pointRadius, 16, 8);
    this.pointMaterial = new THREE.MeshBasicMaterial({ color: kPointColor, depthTest: false });
    this.pointPool = [];
    this.arrowPool = [];
  }

  setVisible(showPoints, showArrows) {
    this.points.visible = showPoints;
    this.arrows.visible = showArrows;
  }

  // Shows `contacts` (viewer_data.h: frames.contacts[j]).
  show(contacts) {
    contacts.forEach((contact, i) => {
      const marker = this.marker(i);
      marker.visible = true;
      marker.position.fromArray(contact.point);
      marker.userData.contact = i;
    });
    const force = new THREE.Vector3();
    let arrowsUsed = 0;
    for (const drawn of drawnForces(contacts, this.forceThreshold)) {
      force.fromArray(drawn.force);
      const length = force.length() * this.metersPerNewton;
      if (!(length > 1e-3 * this.pointRadius)) continue;
      const arrow = this.arrow(arrowsUsed++);
      arrow.visible = true;
      arrow.position.fromArray(contacts[drawn.index].point);
      arrow.setDirection(force.normalize());
      const head = Math.min(0.35 * length, 3 * this.pointRadius);
      arrow.setLength(length, head, 0.6 * head);
    }
    for (let i = contacts.length; i < this.pointPool.length; ++i) this.pointPool[i].visible = false;
    for (let i = arrowsUsed; i < this.arrowPool.length; ++i) this.arrowPool[i].visible = false;
    // The torsional moment of an equivalent contact point (ecp): a three-quarter arc about the
    // normal, its radius proportional to |τ|, its head showing the sense (right-hand rule).
    let torsionsUsed = 0;
    const up = new THREE.Vector3(0, 0, 1);
    contacts.forEach((contact) => {
      const torsion = Math.abs(contact.torsion || 0);
      const radius = torsion * this.metersPerNewtonMeter;
      if (!(torsion > this.torsionThreshold) || !(radius > 0.5 * this.pointRadius)) return;
      const arc = this.torsion(torsionsUsed++);
      arc.visible = true;
      arc.position.fromArray(contact.point);
      const normal = new THREE.Vector3().fromArray(contact.normal).normalize();
      arc.quaternion.setFromUnitVectors(up, contact.torsion >= 0 ? normal : normal.negate());
      arc.scale.setScalar(radius);
      arc.userData.torsion = contact.torsion;
    });
    for (let i = torsionsUsed; i < this.torsionPool.length; ++i) this.torsionPool[i].visible = false;
  }

  // The visible torsion arcs: their moments [N·m] and radii [m], for scripts and tests.
  torsionArcs() {
    return this.torsionPool.filter((arc) => arc.visible).map((arc) =>
      ({ torsion: arc.userData.torsion, radius: arc.scale.x }));
  }

  torsion(i) {
    while (this.torsionPool.length <= i) {
      // A unit arc in the x-y plane from angle 0 to 3π/2 (counter-clockwise about +z) and a cone
      // at its end pointing along the arc; scaled to the moment's radius when shown.
      const material = new THREE.MeshBasicMaterial({ color: kTorsionColor, depthTest: false });
      const group = new THREE.Group();
      const ring = new THREE.Mesh(new THREE.TorusGeometry(1, 0.06, 6, 36, 1.5 * Math.PI), material);
      const head = new THREE.Mesh(new THREE.ConeGeometry(0.18, 0.4, 12), material);
      head.position.set(0, -1, 0);  // the arc's end (angle 3π/2), pointing along +x (its tangent)
      head.rotation.z = -Math.PI / 2;
      group.add(ring, head);
      group.renderOrder = 11;
      ring.renderOrder = 11;
      head.renderOrder = 11;
      this.torsions.add(group);
      this.torsionPool.push(group);
    }
    return this.torsionPool[i];
  }

  // The index (into the shown contacts) of the contact marker under `raycaster`, or -1.
  pick(raycaster) {
    if (!this.points.visible) return -1;
    const visible = this.pointPool.filter((mesh) => mesh.visible);
    const hits = raycaster.intersectObjects(visible, false);
    return hits.length > 0 ? hits[0].object.userData.contact : -1;
  }

  // The visible arrows' directions (unit vectors, world frame), for scripts and tests.
  arrowDirections() {
    const direction = new THREE.Vector3();
    return this.arrowPool.filter((arrow) => arrow.visible).map((arrow) =>
      direction.set(0, 1, 0).applyQuaternion(arrow.quaternion).toArray());
  }

  marker(i) {
    while (this.pointPool.length <= i) {
      const mesh = new THREE.Mesh(this.pointGeometry, this.pointMaterial);
      mesh.renderOrder = 10;  // drawn over the shapes it lies on
      this.points.add(mesh);
      this.pointPool.push(mesh);
    }
    return this.pointPool[i];
  }

  arrow(i) {
    while (this.arrowPool.length <= i) {
      const arrow = new THREE.ArrowHelper(new THREE.Vector3(0, 0, 1), new THREE.Vector3(), 1,
        kArrowColor);
      arrow.line.material.depthTest = false;
      arrow.cone.material.depthTest = false;
      arrow.renderOrder = 11;
      arrow.line.renderOrder = 11;
      arrow.cone.renderOrder = 11;
      this.arrows.add(arrow);
      this.arrowPool.push(arrow);
    }
    return this.arrowPool[i];
  }
}

// The largest torsional moment |τ| [N·m] over all frames (ecp pages; 0 otherwise).
export function largestTorsion(frames) {
  let largest = 0;
  for (const contacts of frames.contacts) {
    for (const c of contacts) largest = Math.max(largest, Math.abs(c.torsion || 0));
  }
  return largest;
}

// The threshold [N·m] of the torsion arcs: vectors.js's rule on the largest |τ| of the page.
export function torsionThreshold(frames) {
  return drawThreshold(largestTorsion(frames));
}

// The largest contact force |F| [N] over all frames (0 when there is none).
export function largestForce(frames) {
  let largest = 0;
  for (const contacts of frames.contacts) {
    for (const c of contacts) largest = Math.max(largest, Math.hypot(...contactForce(c)));
  }
  return largest;
}

// One line per quantity of a contact, for the readout: who pushes whom, the force on the
// object, its normal and friction parts, the gap at the step's start.
export function describeContact(contact) {
  const f = contactForce(contact);
  const digits = (x) => {
    const text = Number(x).toPrecision(4);
    return /\.\d*$/.test(text) ? text.replace(/\.?0+$/, '') : text;  // 33.00 → 33, not 1000 → 1
  };
  const vector = (v) => `(${v.map(digits).join(', ')})`;
  const friction = Math.hypot(...contact.friction_force);
  const lines = [
    contact.on ? `force on ${contact.on} from ${contact.by}` : `force on ${contact.a}`,
    `F = ${vector(f)} N, |F| = ${digits(Math.hypot(...f))} N`,
    `normal ${digits(contact.normal_force)} N, friction ${digits(friction)} N`,
    `shapes ${contact.a} – ${contact.b}`,
  ];
  if (contact.torsion !== undefined) {
    lines.splice(1, 0, 'at the equivalent contact point');
    lines.push(`torsional moment ${digits(contact.torsion)} N·m about the normal`);
  }
  if (contact.phi !== undefined) lines.push(`gap at the step's start φ = ${digits(contact.phi)} m`);
  return lines.join('\n');
}
