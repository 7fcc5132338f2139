// three.js objects for the scene's collision shapes (src/quasidyn/model/shape.h), built in the
// shape frame S. 3D scenes: cylinders and capsules lie along S's z; half-spaces are z <= 0.
// Planar scenes (x-y plane): capsules lie along S's x, half-spaces are y <= 0, and the 2D
// sections get a depth along z so they read as solids.
import * as THREE from 'three';
import { ConvexGeometry } from 'three/examples/jsm/geometries/ConvexGeometry.js';

import { orientationMarkSegments } from './marks.js';

const kSegments = 40;
const kMarkColor = 0xf4f6fa;  // orientation marks (marks.js): light on every body colour

function withEdges(mesh) {
  const edges = new THREE.LineSegments(
    new THREE.EdgesGeometry(mesh.geometry, 25),
    new THREE.LineBasicMaterial({ color: 0x15181d, transparent: true, opacity: 0.55 }),
  );
  mesh.add(edges);
  return mesh;
}

function solid(geometry, material) {
  const mesh = new THREE.Mesh(geometry, material);
  mesh.castShadow = true;
  mesh.receiveShadow = true;
  return mesh;
}

// A triangle mesh of the page's `meshes` (a mesh file's triangles, in the shape's frame), shaded
// flat: each triangle its own normal (shared vertices would average the normals of faces that
// meet at a sharp edge).
function triangleMesh(mesh, material) {
  const indexed = new THREE.BufferGeometry();
  indexed.setAttribute('position', new THREE.Float32BufferAttribute(mesh.vertices, 3));
  indexed.setIndex(mesh.triangles);
  const geometry = indexed.toNonIndexed();
  geometry.computeVertexNormals();
  return withEdges(solid(geometry, material));
}

// The mesh of one shape that is not a half-space; `depth` [m] is the planar extrusion depth.
// A shape or visual made from a mesh file (`mesh`, an index into `meshes`) draws that mesh.
function shapeMesh(shape, planar, material, depth, meshes) {
  if (shape.mesh !== undefined) return triangleMesh(meshes[shape.mesh], material);
  switch (shape.type) {
    case 'sphere': {
      if (!planar) {
        return solid(new THREE.SphereGeometry(shape.radius, kSegments, kSegments / 2), material);
      }
      // A circle: a disk of the extrusion depth, its axis along z.
      const disk = withEdges(solid(
        new THREE.CylinderGeometry(shape.radius, shape.radius, depth, kSegments), material));
      disk.rotation.x = Math.PI / 2;
      return disk;
    }
    case 'box': {
      const [sx, sy, sz] = shape.size;
      return withEdges(solid(new THREE.BoxGeometry(sx, sy, planar ? depth : sz), material));
    }
    case 'cylinder': {
      const mesh = withEdges(solid(
        new THREE.CylinderGeometry(shape.radius, shape.radius, shape.length, kSegments), material));
      mesh.rotation.x = Math.PI / 2;  // three.js cylinders lie along y; ours along z
      return mesh;
    }
    case 'capsule': {
      const mesh = solid(
        new THREE.CapsuleGeometry(shape.radius, shape.length, 12, kSegments), material);
      if (planar) {
        mesh.rotation.z = -Math.PI / 2;  // along x
      } else {
        mesh.rotation.x = Math.PI / 2;  // along z
      }
      return mesh;
    }
    case 'convex': {
      if (planar) {
        const outline = new THREE.Shape(shape.vertices.map(([x, y]) => new THREE.Vector2(x, y)));
        const geometry = new THREE.ExtrudeGeometry(outline, { depth, bevelEnabled: false });
        geometry.translate(0, 0, -depth / 2);
        return withEdges(solid(geometry, material));
      }
      const points = shape.vertices.map(([x, y, z]) => new THREE.Vector3(x, y, z));
      return withEdges(solid(new ConvexGeometry(points), material));
    }
    default:
      throw new Error(`quasidyn viewer: unknown shape type '${shape.type}'`);
  }
}

// A half-space as ground: a grid of `size` [m] with lines every `spacing` [m] over a matte
// surface, in S's x-y plane (3D) or, for planar scenes, the filled region y <= 0 in the
// viewing plane with a grid on the surface plane x-z.
function halfSpaceObject(planar, size, spacing, color) {
  const group = new THREE.Group();
  const divisions = Math.max(2, Math.round(size / spacing));
  const grid = new THREE.GridHelper(size, divisions, 0x8a94a6, 0x4a5262);
  grid.material.transparent = true;
  grid.material.opacity = 0.7;
  const surfaceMaterial = new THREE.MeshStandardMaterial({
    color, roughness: 0.95, metalness: 0.0, side: THREE.DoubleSide,
    polygonOffset: true, polygonOffsetFactor: 1, polygonOffsetUnits: 1,
  });
  if (planar) {
    // Seen from +z: a band below the surface line, and the surface plane (x-z) as a grid.
    const band = new THREE.Mesh(new THREE.PlaneGeometry(size, size / 2), surfaceMaterial);
    band.position.y = -size / 4;
    band.receiveShadow = true;
    group.add(band);
    const line = new THREE.Line(
      new THREE.BufferGeometry().setFromPoints([
        new THREE.Vector3(-size / 2, 0, 0.0005), new THREE.Vector3(size / 2, 0, 0.0005)]),
      new THREE.LineBasicMaterial({ color: 0xc9d1dd }));
    group.add(line);
    group.add(grid);  // GridHelper lies in x-z: the plane y = 0
  } else {
    const plane = new THREE.Mesh(new THREE.PlaneGeometry(size, size), surfaceMaterial);
    plane.receiveShadow = true;
    group.add(plane);  // PlaneGeometry lies in x-y: the plane z = 0
    grid.rotation.x = Math.PI / 2;  // from x-z to x-y
    grid.position.z = 0.0005;
    group.add(grid);
  }
  group.userData.isGround = true;
  return group;
}

// One shape placed in its body: position and quaternion (x, y, z, w) of S in B.
// A characteristic size [m] of a shape (0 for half-spaces), to size the planar extrusion.
export function shapeExtent(shape) {
  switch (shape.type) {
    case 'sphere': return 2 * shape.radius;
    case 'box': return Math.max(shape.size[0], shape.size[1]);
    case 'cylinder':
    case 'capsule': return shape.length + 2 * shape.radius;
    case 'convex': {
      const box = new THREE.Box3().setFromPoints(
        shape.vertices.map((v) => new THREE.Vector3().fromArray(v)));
      return box.getSize(new THREE.Vector3()).length();
    }
    default: return 0;  // half-spaces; visual meshes do not size the planar extrusion
  }
}

// The orientation mark of a round shape (marks.js) as lines in S; null for other shapes.
function orientationMark(shape, planar, depth) {
  const segments = orientationMarkSegments(shape, planar, depth);
  if (segments.length === 0) return null;
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.Float32BufferAttribute(segments.flat(2), 3));
  const lines = new THREE.LineSegments(geometry,
    new THREE.LineBasicMaterial({ color: kMarkColor }));
  lines.name = 'orientation mark';
  lines.userData.orientationMark = true;
  return lines;
}

export function makeShapeObject(shape, planar, material, ground, meshes = []) {
  const object = shape.type === 'half_space'
    ? halfSpaceObject(planar, ground.size, ground.spacing, ground.color)
    : shapeMesh(shape, planar, material, ground.depth, meshes);
  const placed = new THREE.Group();
  placed.add(object);
  const mark = shape.type === 'half_space' ? null : orientationMark(shape, planar, ground.depth);
  if (mark) placed.add(mark);
  placed.position.fromArray(shape.position);
  placed.quaternion.fromArray(shape.quaternion);
  placed.name = shape.name;
  return placed;
}
