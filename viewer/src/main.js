// The quasidyn trajectory viewer: reads the page's JSON (src/quasidyn/viewer/viewer_data.h),
// builds a three.js scene of the bodies' shapes and animates their per-frame poses.
// window.quasidynViewer exposes the playback to scripts and tests (seek, play, pause, ...).
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';

import { ContactLayer, describeContact, largestForce, largestTorsion, torsionThreshold }
  from './contacts.js';
import { ExecutionSection } from './execution.js';
import { addMarkers } from './markers.js';
import { Panel, row } from './panel.js';
import { makeShapeObject, shapeExtent } from './shapes.js';
import { indexAt } from './time_index.js';
import { pageForceThreshold } from './vectors.js';

// Body colours: objects take the warm / saturated ones in order, robots a steel grey family.
const kObjectColors = ['#e4572e', '#2e86de', '#f3a712', '#29b765', '#a06cd5', '#17bebb',
  '#ff6f91', '#8d6e63', '#c0ca33', '#5c6bc0'];
const kRobotColors = ['#b9c3d1', '#9aa7ba', '#d3dae4', '#8894a8'];
const kWorldColor = '#6f7785';
const kTargetColor = '#7dffb2';  // the run's target (viewer_data.h: target), translucent
const kGroundColor = '#343a45';

// True when the browser can give a WebGL context (three.js needs one to draw anything).
function hasWebGL() {
  try {
    const canvas = document.createElement('canvas');
    return Boolean(canvas.getContext('webgl2') || canvas.getContext('webgl'));
  } catch (error) {
    return false;
  }
}

// The time [s] a page address asks for with #t=<seconds> (also #…&t=…), or null.
function hashTime(hash) {
  const match = /(?:^#|&)t=([-+0-9.eE]+)/.exec(hash || '');
  const t = match ? Number(match[1]) : NaN;
  return Number.isFinite(t) ? t : null;
}

function readData() {
  const element = document.getElementById('quasidyn-data');
  if (!element) throw new Error('quasidyn viewer: the page has no quasidyn-data element');
  const data = JSON.parse(element.textContent);
  if (data.format !== 'quasidyn-viewer-data' || data.format_version !== 1) {
    throw new Error(`quasidyn viewer: unsupported data ${data.format} v${data.format_version}`);
  }
  return data;
}

// A round number near x (1, 2 or 5 × 10^k), for grid spacings.
function niceNumber(x) {
  const power = 10 ** Math.floor(Math.log10(x));
  const mantissa = x / power;
  return (mantissa < 1.5 ? 1 : mantissa < 3.5 ? 2 : mantissa < 7.5 ? 5 : 10) * power;
}

class Viewer {
  constructor(data) {
    this.data = data;
    this.frames = data.frames;
    this.planar = data.scene.planar;
    this.frameCount = this.frames.t.length;
    this.duration = this.frames.t[this.frameCount - 1];
    this.time = 0;
    this.frame = 0;
    this.speed = 1;
    this.playing = false;

    this.renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    this.renderer.setSize(window.innerWidth, window.innerHeight);
    this.renderer.shadowMap.enabled = true;
    this.renderer.shadowMap.type = THREE.PCFShadowMap;
    this.renderer.toneMapping = THREE.ACESFilmicToneMapping;
    this.renderer.domElement.id = 'qd-canvas';
    document.body.append(this.renderer.domElement);

    this.scene = new THREE.Scene();
    this.scene.background = new THREE.Color('#1d2127');
    if (!this.planar) THREE.Object3D.DEFAULT_UP.set(0, 0, 1);

    this.buildBodies();
    this.fitView();
    this.buildGround();
    this.buildLights();
    // Forces below the page's threshold [N] are round-off, not drawn (vectors.js).
    this.forceThreshold = pageForceThreshold(data);
    const forceMax = largestForce(this.frames);
    const drawsForces = forceMax > this.forceThreshold;
    // The largest force spans a quarter of the scene.
    const metersPerNewton = drawsForces ? 0.25 * this.extent / forceMax : 0;
    // The largest torsional moment (ecp) draws an arc of a twentieth of the scene's radius.
    const torsionMax = largestTorsion(this.frames);
    const metersPerNewtonMeter = torsionMax > 0 ? 0.05 * this.extent / torsionMax : 0;
    this.contacts = new ContactLayer(this.scene, 0.007 * this.extent, metersPerNewton,
      metersPerNewtonMeter, this.forceThreshold, torsionThreshold(this.frames));
    if (data.markers) {
      this.markers = addMarkers(this.scene, data.markers, 0.01 * this.extent);
      this.legend.push({ name: data.markers.label || 'markers', color: '#4fd1ff' });
    }
    this.buildOverlays();
    this.buildTarget();
    const forceScale = (drawsForces
      ? `longest = ${forceMax.toPrecision(3)} N` : 'no contact force') +
      (torsionMax > 0 ? `; torsion arcs: largest = ${torsionMax.toPrecision(3)} N·m` : '') +
      (this.forceThreshold > 0
        ? `; below ${this.forceThreshold.toPrecision(2)} N not drawn` : '');

    this.panel = new Panel(data, this.legend, {
      onPlayPause: () => (this.playing ? this.pause() : this.play()),
      onSeekFrame: (j) => { this.pause(); this.seek(this.frames.t[j]); },
      onSpeed: (factor) => { this.speed = factor; },
      onToggle: (points, arrows) => { this.contacts.setVisible(points, arrows); this.render(); },
    }, forceScale, this.forceThreshold);
    // A plan executed on a plant (viewer_data.h: execution): the plan running, D over time.
    if (data.execution) {
      this.execution = new ExecutionSection(data.execution, this.duration, row);
      this.panel.addSection(this.execution.element);
    }

    window.addEventListener('resize', () => this.resize());
    window.addEventListener('keydown', (event) => this.onKey(event));
    // The contact readout: hovering a contact point shows its force; a click pins it (until
    // a click elsewhere), so that it stays while playing.
    this.raycaster = new THREE.Raycaster();
    this.pinned = -1;
    this.hovered = -1;
    this.renderer.domElement.addEventListener('pointermove', (event) => this.onPointer(event, false));
    this.renderer.domElement.addEventListener('click', (event) => this.onPointer(event, true));
    this.seek(0);
    this.lastTick = performance.now();
    this.renderer.setAnimationLoop(() => this.tick());
  }

  buildBodies() {
    const materialOf = (color) => new THREE.MeshStandardMaterial({
      color, roughness: 0.5, metalness: 0.08 });
    // The planar extrusion depth [m]: half the largest shape.
    let largest = 0;
    for (const body of this.data.bodies) {
      for (const shape of body.shapes) largest = Math.max(largest, shapeExtent(shape));
    }
    this.depth = 0.5 * (largest || 0.1);
    this.bodyGroups = [];
    this.halfSpaces = [];
    this.meshTriangles = 0;  // triangles drawn from the page's meshes (tests)
    this.orientationMarks = 0;  // round shapes drawn with an orientation mark (marks.js; tests)
    this.legend = [];
    let objects = 0;
    let robots = 0;
    for (const body of this.data.bodies) {
      const color = body.kind === 'world' ? kWorldColor
        : body.kind === 'robot' ? kRobotColors[robots++ % kRobotColors.length]
          : kObjectColors[objects++ % kObjectColors.length];
      const group = new THREE.Group();
      group.name = body.name;
      const material = materialOf(color);
      // A body with visuals (URDF, SDF, MJCF <visual>) is drawn by them; its collision shapes
      // are drawn otherwise. Half-spaces are always the ground.
      const meshes = this.data.meshes || [];
      const visuals = body.visuals || [];
      const countMesh = (shape) => {
        if (shape.mesh !== undefined) this.meshTriangles += meshes[shape.mesh].triangles.length / 3;
      };
      for (const shape of body.shapes) {
        if (shape.type === 'half_space') {
          this.halfSpaces.push({ group, shape });
        } else if (visuals.length === 0) {
          group.add(makeShapeObject(shape, this.planar, material, { depth: this.depth }, meshes));
          countMesh(shape);
        }
      }
      for (const visual of visuals) {
        group.add(makeShapeObject(visual, this.planar, material, { depth: this.depth }, meshes));
        countMesh(visual);
      }
      // Robots are listed once, by the instance name before the body's '/'.
      const label = body.kind === 'robot' ? body.name.split('/')[0] : body.name;
      if (body.kind !== 'world' && !this.legend.some((item) => item.name === label)) {
        this.legend.push({ name: label, color });
      }
      group.traverse((node) => { if (node.userData.orientationMark) ++this.orientationMarks; });
      this.scene.add(group);
      this.bodyGroups.push(group);
    }
  }

  // Other runs of the scene (viewer_data.h: overlays) as translucent copies of the moving bodies,
  // one color per run.
  buildOverlays() {
    this.overlays = [];
    for (const overlay of this.data.overlays || []) {
      const material = new THREE.MeshStandardMaterial({
        color: overlay.color, transparent: true, opacity: 0.35, depthWrite: false });
      const groups = this.data.bodies.map((body, b) => {
        if (body.kind === 'world') return null;
        const ghost = this.bodyGroups[b].clone(true);
        ghost.traverse((node) => {
          if (node.isMesh) node.material = material;
          if (node.isLineSegments) node.visible = false;
        });
        this.scene.add(ghost);
        return ghost;
      });
      this.overlays.push({ times: overlay.t, poses: overlay.poses, groups });
      this.legend.push({ name: overlay.label, color: overlay.color });
    }
  }

  // What the run aims at (viewer_data.h: target; the goal of optimize and plan, the MPC's
  // target) as translucent copies of its bodies at the target configuration, edges kept.
  buildTarget() {
    this.targetBodies = 0;
    const target = this.data.target;
    if (!target) return;
    const material = new THREE.MeshStandardMaterial({
      color: kTargetColor, transparent: true, opacity: 0.3, depthWrite: false });
    for (const b of target.bodies) {
      const ghost = this.bodyGroups[b].clone(true);
      ghost.traverse((node) => { if (node.isMesh) node.material = material; });
      ghost.position.fromArray(target.poses, 7 * b);
      ghost.quaternion.fromArray(target.poses, 7 * b + 3);
      ghost.name = `target ${ghost.name}`;
      this.scene.add(ghost);
      ++this.targetBodies;
    }
    if (this.targetBodies > 0) this.legend.push({ name: target.label, color: kTargetColor });
  }

  applyOverlays(t) {
    for (const overlay of this.overlays) {
      let low = 0;
      let high = overlay.times.length - 1;
      while (low < high) {
        const middle = (low + high + 1) >> 1;
        if (overlay.times[middle] <= t + 1e-9 * Math.max(1, Math.abs(t))) low = middle;
        else high = middle - 1;
      }
      const row = overlay.poses[low];
      overlay.groups.forEach((group, b) => {
        if (!group) return;
        group.position.fromArray(row, 7 * b);
        group.quaternion.fromArray(row, 7 * b + 3);
      });
    }
  }

  // Camera target and distance from the bodies' bounds over the first and last frames and the
  // target's bodies (viewer_data.h: target).
  fitView() {
    const bounds = new THREE.Box3();
    for (const j of [0, this.frameCount - 1]) {
      this.applyPoses(j);
      for (const group of this.bodyGroups) bounds.expandByObject(group);
    }
    const target = this.data.target;
    for (const b of target ? target.bodies : []) {
      this.bodyGroups[b].position.fromArray(target.poses, 7 * b);
      this.bodyGroups[b].quaternion.fromArray(target.poses, 7 * b + 3);
      bounds.expandByObject(this.bodyGroups[b]);
    }
    if (bounds.isEmpty()) bounds.set(new THREE.Vector3(-0.5, -0.5, -0.5),
      new THREE.Vector3(0.5, 0.5, 0.5));
    const size = bounds.getSize(new THREE.Vector3());
    this.extent = Math.max(size.length(), 1e-3);
    this.center = bounds.getCenter(new THREE.Vector3());
    this.bounds = bounds;

    const fov = 40;
    this.camera = new THREE.PerspectiveCamera(fov, window.innerWidth / window.innerHeight,
      this.extent / 1000, this.extent * 100);
    const distance = 0.56 * this.extent / Math.tan((fov / 2) * Math.PI / 180);
    const direction = this.planar ? new THREE.Vector3(0, 0, 1)
      : new THREE.Vector3(1.1, -1.5, 0.95).normalize();
    this.camera.position.copy(this.center).addScaledVector(direction, distance);
    this.camera.lookAt(this.center);
    this.controls = new OrbitControls(this.camera, this.renderer.domElement);
    this.controls.target.copy(this.center);
    this.controls.enableDamping = true;
    this.controls.update();
  }

  buildGround() {
    const spacing = niceNumber(this.extent / 10);
    const size = spacing * 2 * Math.ceil(1.5 * this.extent / spacing);
    for (const { group, shape } of this.halfSpaces) {
      const ground = makeShapeObject(shape, this.planar, null,
        { size, spacing, color: kGroundColor, depth: this.depth });
      // Centre the ground under the bodies: shift along the plane, in S's frame.
      const inShape = this.center.clone().sub(ground.position)
        .applyQuaternion(ground.quaternion.clone().invert());
      if (this.planar) inShape.y = 0; else inShape.z = 0;
      ground.children[0].position.copy(inShape);
      group.add(ground);
    }
    if (this.planar) {
      // A faint grid behind the plane of motion, for scale.
      const grid = new THREE.GridHelper(size, Math.round(size / spacing), 0x39404c, 0x2d333c);
      grid.rotation.x = Math.PI / 2;
      grid.position.set(this.center.x, this.center.y, -this.depth);
      this.scene.add(grid);
    }
  }

  buildLights() {
    const up = this.planar ? new THREE.Vector3(0, 1, 0) : new THREE.Vector3(0, 0, 1);
    const hemisphere = new THREE.HemisphereLight(0xf2f5ff, 0x3a3f4a, 1.6);
    hemisphere.position.copy(up);
    this.scene.add(hemisphere);
    const sun = new THREE.DirectionalLight(0xffffff, 2.2);
    const offset = this.planar ? new THREE.Vector3(0.4, 1.0, 1.2)
      : new THREE.Vector3(0.5, -0.3, 1.0);
    sun.position.copy(this.center).addScaledVector(offset.normalize(), 2 * this.extent);
    sun.target.position.copy(this.center);
    sun.castShadow = true;
    sun.shadow.mapSize.set(1024, 1024);
    const half = this.extent;
    Object.assign(sun.shadow.camera, { left: -half, right: half, top: half, bottom: -half,
      near: 0.01 * this.extent, far: 5 * this.extent });
    sun.shadow.bias = -0.0005;
    this.scene.add(sun, sun.target);
  }

  applyPoses(j) {
    const row = this.frames.poses[j];
    this.bodyGroups.forEach((group, b) => {
      group.position.fromArray(row, 7 * b);
      group.quaternion.fromArray(row, 7 * b + 3);
    });
  }

  // The frame shown at time t [s]: the last one with t_j <= t.
  frameAt(t) {
    return indexAt(this.frames.t, t);
  }

  // Shows time t [s] (clamped to [0, duration]) and renders at once; returns the frame index.
  seek(t) {
    this.time = Math.min(Math.max(Number(t) || 0, 0), this.duration);
    this.frame = this.frameAt(this.time);
    this.applyPoses(this.frame);
    this.applyOverlays(this.time);
    this.contacts.show(this.frames.contacts[this.frame]);
    this.panel.update(this.frames, this.frame, this.time, this.data.run.steps_requested);
    if (this.execution) this.execution.update(this.time);
    if (this.panel.readout) this.showReadout();
    this.render();
    return this.frame;
  }

  // The index of the shown contact under the page point (x, y) [px], or -1.
  contactAt(x, y) {
    const pointer = new THREE.Vector2(2 * x / window.innerWidth - 1, 1 - 2 * y / window.innerHeight);
    this.raycaster.setFromCamera(pointer, this.camera);
    return this.contacts.pick(this.raycaster);
  }

  onPointer(event, click) {
    const i = this.contactAt(event.clientX, event.clientY);
    if (click) this.pinned = i;
    this.hovered = i;
    this.readoutAt = [event.clientX, event.clientY];
    this.showReadout();
  }

  // The readout of the hovered (else the pinned) contact of the shown frame; none when the
  // frame has no such contact.
  showReadout() {
    const contacts = this.frames.contacts[this.frame];
    const i = this.hovered >= 0 ? this.hovered : this.pinned;
    const [x, y] = this.readoutAt || [0, 0];
    this.panel.showReadout(i >= 0 && i < contacts.length ? describeContact(contacts[i]) : '', x, y);
  }

  // The page point [px] of contact i of the shown frame, for scripts and tests.
  contactScreenPoint(i) {
    const p = new THREE.Vector3().fromArray(this.frames.contacts[this.frame][i].point);
    p.project(this.camera);
    return [(p.x + 1) * window.innerWidth / 2, (1 - p.y) * window.innerHeight / 2];
  }

  play() {
    if (this.time >= this.duration) this.seek(0);
    this.playing = true;
    this.panel.setPlaying(true);
  }

  pause() {
    this.playing = false;
    this.panel.setPlaying(false);
  }

  stepFrames(delta) {
    this.pause();
    const j = Math.min(Math.max(this.frame + delta, 0), this.frameCount - 1);
    this.seek(this.frames.t[j]);
  }

  onKey(event) {
    if (event.target instanceof HTMLInputElement && event.target.type === 'range') return;
    if (event.code === 'Space') {
      event.preventDefault();
      if (this.playing) this.pause(); else this.play();
    } else if (event.code === 'ArrowRight') {
      this.stepFrames(1);
    } else if (event.code === 'ArrowLeft') {
      this.stepFrames(-1);
    }
  }

  tick() {
    const now = performance.now();
    const elapsed = Math.min((now - this.lastTick) / 1000, 0.1);
    this.lastTick = now;
    if (this.playing) {
      this.seek(this.time + elapsed * this.speed);
      if (this.time >= this.duration) this.pause();
    }
    this.controls.update();
    this.render();
  }

  render() {
    this.renderer.render(this.scene, this.camera);
  }

  resize() {
    this.camera.aspect = window.innerWidth / window.innerHeight;
    this.camera.updateProjectionMatrix();
    this.renderer.setSize(window.innerWidth, window.innerHeight);
    this.render();
  }
}

// A readable message in the page (id qd-error) instead of the scene: `title` says what is
// wrong, `detail` what to do; the technical cause goes to the console only.
function showMessage(title, detail, cause) {
  const box = document.createElement('div');
  box.id = 'qd-error';
  box.style.cssText = 'max-width:640px;margin:48px auto;padding:20px 24px;border-radius:8px;' +
    'background:#2a2f38;color:#e6e9ef;font:15px/1.55 system-ui,sans-serif';
  const heading = document.createElement('h1');
  heading.style.cssText = 'margin:0 0 8px;font-size:19px;color:#ffd23f';
  heading.textContent = title;
  const text = document.createElement('p');
  text.style.margin = '0';
  text.textContent = detail;
  box.append(heading, text);
  document.body.append(box);
  if (cause) console.warn(cause);
  window.quasidynViewer = { ready: false, error: `${title} ${detail}` };
}

function start() {
  if (!hasWebGL()) {
    showMessage('This page needs WebGL, which this browser does not offer.',
      'The quasidyn viewer draws the scene with WebGL. Turn on hardware acceleration (or ' +
      'WebGL) in the browser\'s settings, or open the page in another browser. The trajectory ' +
      'itself is intact: it is the JSON in this page\'s quasidyn-data element.');
    return;
  }
  try {
    const viewer = new Viewer(readData());
    const seekHash = () => {
      const t = hashTime(window.location.hash);
      if (t !== null) { viewer.pause(); viewer.seek(t); }
    };
    seekHash();
    window.addEventListener('hashchange', seekHash);
    window.quasidynViewer = {
      seek: (t) => viewer.seek(t),
      play: () => viewer.play(),
      pause: () => viewer.pause(),
      render: () => viewer.render(),
      get time() { return viewer.time; },
      get frame() { return viewer.frame; },
      get playing() { return viewer.playing; },
      get contacts() { return viewer.frames.contacts[viewer.frame]; },
      // An execution page's plan shown at the current time (its index; -1 on other pages).
      get executionPlan() { return viewer.execution ? viewer.execution.plan : -1; },
      arrowDirections: () => viewer.contacts.arrowDirections(),
      torsionArcs: () => viewer.contacts.torsionArcs(),
      contactScreenPoint: (i) => viewer.contactScreenPoint(i),
      duration: viewer.duration,
      frameCount: viewer.frameCount,
      meshTriangles: viewer.meshTriangles,
      orientationMarks: viewer.orientationMarks,
      targetBodies: viewer.targetBodies,
      bodyCount: viewer.bodyGroups.length,
      forceThreshold: viewer.forceThreshold,
      ready: true,
    };
  } catch (error) {
    showMessage('The quasidyn viewer could not show this page.',
      `${error && error.message ? error.message : error}. Write the page again with ` +
      '`quasidyn view TRAJECTORY` from the same quasidyn version.', error);
  }
}

if (document.readyState === 'loading') {
  document.addEventListener('DOMContentLoaded', start);
} else {
  start();
}
