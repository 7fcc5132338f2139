// Optional markers over the scene (viewer_data.h, "markers"): dots at world points and lines
// joining each point to its parent, e.g. the object positions of a planner's tree
// (`quasidyn plan --html`). Drawn on top of the bodies so that points inside them stay visible.
import * as THREE from 'three';

const kPointColor = 0x4fd1ff;
const kLineColor = 0x2b6f8f;

// Adds the markers of `markers` ({label, points (P × 3), parents (P)}) to `parent`; pointSize
// [m] is the dots' size. Returns the group (visible by default).
export function addMarkers(parent, markers, pointSize) {
  const group = new THREE.Group();
  group.name = 'markers';
  const positions = new Float32Array(3 * markers.points.length);
  markers.points.forEach((p, i) => positions.set(p, 3 * i));
  const pointGeometry = new THREE.BufferGeometry();
  pointGeometry.setAttribute('position', new THREE.BufferAttribute(positions, 3));
  const points = new THREE.Points(pointGeometry, new THREE.PointsMaterial({
    color: kPointColor, size: pointSize, sizeAttenuation: true, depthTest: false }));
  points.renderOrder = 2;
  group.add(points);
  const segments = [];
  markers.parents.forEach((p, i) => {
    if (p >= 0) segments.push(...markers.points[p], ...markers.points[i]);
  });
  if (segments.length > 0) {
    const lineGeometry = new THREE.BufferGeometry();
    lineGeometry.setAttribute('position',
      new THREE.BufferAttribute(new Float32Array(segments), 3));
    const lines = new THREE.LineSegments(lineGeometry, new THREE.LineBasicMaterial({
      color: kLineColor, transparent: true, opacity: 0.6, depthTest: false }));
    lines.renderOrder = 1;
    group.add(lines);
  }
  parent.add(group);
  return group;
}
