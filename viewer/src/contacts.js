// Contact points (small spheres) and contact-force arrows of the shown step. The arrow of a
// contact starts at its point and shows the force on shape A, normal_force·normal +
// friction_force [N]; its length is |F| times `metersPerNewton`, so lengths compare across
// contacts and frames.
import * as THREE from 'three';

const kPointColor = 0xff3b6b;
const kArrowColor = 0xffd23f;

export class ContactLayer {
  // pointRadius [m]: radius of a contact marker; metersPerNewton [m/N]: arrow length per newton.
  constructor(parent, pointRadius, metersPerNewton) {
    this.pointRadius = pointRadius;
    this.metersPerNewton = metersPerNewton;
    this.points = new THREE.Group();
    this.arrows = new THREE.Group();
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
    const force = new THREE.Vector3();
    const normal = new THREE.Vector3();
    let arrowsUsed = 0;
    contacts.forEach((contact, i) => {
      const marker = this.marker(i);
      marker.visible = true;
      marker.position.fromArray(contact.point);
      normal.fromArray(contact.normal);
      force.fromArray(contact.friction_force).addScaledVector(normal, contact.normal_force);
      const magnitude = force.length();
      const length = magnitude * this.metersPerNewton;
      if (length > 1e-3 * this.pointRadius) {
        const arrow = this.arrow(arrowsUsed++);
        arrow.visible = true;
        arrow.position.fromArray(contact.point);
        arrow.setDirection(force.normalize());
        const head = Math.min(0.35 * length, 3 * this.pointRadius);
        arrow.setLength(length, head, 0.6 * head);
      }
    });
    for (let i = contacts.length; i < this.pointPool.length; ++i) this.pointPool[i].visible = false;
    for (let i = arrowsUsed; i < this.arrowPool.length; ++i) this.arrowPool[i].visible = false;
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

// The largest contact force |F| [N] over all frames (0 when there is none).
export function largestForce(frames) {
  let largest = 0;
  for (const contacts of frames.contacts) {
    for (const c of contacts) {
      const [fx, fy, fz] = c.friction_force;
      const [nx, ny, nz] = c.normal;
      const f = Math.hypot(fx + c.normal_force * nx, fy + c.normal_force * ny,
        fz + c.normal_force * nz);
      largest = Math.max(largest, f);
    }
  }
  return largest;
}
