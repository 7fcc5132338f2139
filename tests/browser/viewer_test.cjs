// Opens a quasidyn viewer page in Debian's headless Chromium (driven by playwright-core) and
// checks: no console error or page error, no network request, a canvas that is not blank
// (pixel variance) and bodies that move between two times (pixel difference); the page opens
// with step 1's contacts and status; force arrows show the force on the object; hovering a
// contact point shows its force; #t= opens at a time; without WebGL a readable message; on an
// ecp page, the equivalent contact point with its torsional moment (an arc about the normal);
// every round shape with its orientation mark; no line of the panel cut at its edge (a plan
// page's long summary lines wrap); on a track page, the plan running and D over time.
// Saves the screenshots. (The pushing checks run on a planar_pushing page only, as run.sh writes it.) Usage: node viewer_test.cjs PAGE.html ARTIFACT_DIR [LATER_TIME_S]
'use strict';
const fs = require('fs');
const path = require('path');
const { launchChromium, checkLog, watchPage } = require('./browser_session.cjs');

const [page_path, artifact_dir, later_arg] = process.argv.slice(2);
if (!page_path || !artifact_dir) {
  console.error('usage: node viewer_test.cjs PAGE.html ARTIFACT_DIR [LATER_TIME_S]');
  process.exit(2);
}
const { check, failures } = checkLog();

// Luminance statistics of the WebGL canvas, read back in the page (preserveDrawingBuffer):
// mean, variance and a 64 × 36 thumbnail of 8-bit luminance for frame comparison.
async function canvasPixels(page) {
  return page.evaluate(() => {
    const canvas = document.getElementById('qd-canvas');
    const thumb = document.createElement('canvas');
    thumb.width = 64;
    thumb.height = 36;
    const context = thumb.getContext('2d');
    context.drawImage(canvas, 0, 0, thumb.width, thumb.height);
    const { data } = context.getImageData(0, 0, thumb.width, thumb.height);
    const luminance = [];
    for (let i = 0; i < data.length; i += 4) {
      luminance.push(0.2126 * data[i] + 0.7152 * data[i + 1] + 0.0722 * data[i + 2]);
    }
    const mean = luminance.reduce((a, b) => a + b, 0) / luminance.length;
    const variance = luminance.reduce((a, b) => a + (b - mean) ** 2, 0) / luminance.length;
    return { mean, variance, luminance };
  });
}

(async () => {
  fs.mkdirSync(artifact_dir, { recursive: true });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    const { console_errors, requests } = watchPage(page);
    await page.goto('file://' + path.resolve(page_path));
    await page.waitForFunction(() => window.quasidynViewer && window.quasidynViewer.ready,
      null, { timeout: 30000 });
    const viewer = await page.evaluate(() => ({
      duration: window.quasidynViewer.duration, frames: window.quasidynViewer.frameCount }));
    check(viewer.frames >= 2, `page has ${viewer.frames} frames (>= 2)`);
    const later = later_arg !== undefined ? Number(later_arg) : viewer.duration;

    await page.evaluate(() => { window.quasidynViewer.pause(); window.quasidynViewer.seek(0); });
    const first = await canvasPixels(page);
    await page.screenshot({ path: path.join(artifact_dir, 'viewer_t0.png') });

    // Play for a moment: the animation loop must advance the time by itself.
    await page.evaluate(() => window.quasidynViewer.play());
    await page.waitForTimeout(500);
    const played = await page.evaluate(() => window.quasidynViewer.time);
    check(played > 0, `playing advances the time (t = ${played.toFixed(3)} s after 0.5 s)`);

    const frame = await page.evaluate((t) => {
      window.quasidynViewer.pause();
      return window.quasidynViewer.seek(t);
    }, later);
    const second = await canvasPixels(page);
    await page.screenshot({ path: path.join(artifact_dir, 'viewer_later.png') });
    const info = await page.evaluate(() => document.getElementById('qd-info').innerText);
    check(/solved/.test(info), 'the info panel shows the step\'s solver status');
    check(frame > 0, `seek(${later}) shows frame ${frame} (> 0)`);

    // Not blank: a uniform canvas has variance 0; a scene with shapes, grid and shading has
    // luminance spread over tens of levels (standard deviation > 5 of 255).
    check(first.variance > 25, `canvas at t0 not blank (luminance variance ${first.variance.toFixed(1)} > 25)`);
    check(second.variance > 25, `canvas later not blank (luminance variance ${second.variance.toFixed(1)} > 25)`);
    // Motion: thumbnail pixels that changed by more than 8 levels (well above antialiasing
    // noise between identical renders, which is 0 for a deterministic software rasteriser).
    let changed = 0;
    first.luminance.forEach((value, i) => { if (Math.abs(value - second.luminance[i]) > 8) ++changed; });
    check(changed >= 3, `bodies moved: ${changed} of ${first.luminance.length} thumbnail pixels changed (>= 3)`);
    // Determinism of the comparison itself: the same time renders the same pixels.
    await page.evaluate((t) => window.quasidynViewer.seek(t), later);
    const again = await canvasPixels(page);
    const noise = again.luminance.filter((v, i) => Math.abs(v - second.luminance[i]) > 8).length;
    check(noise === 0, `re-rendering the same time changes no pixel (${noise} changed)`);

    // No line of the panel is cut at its edge (the plan page's summary lines are longer than the
    // panel is wide: they wrap): every element with text is no wider than its own box
    // (scrollWidth <= clientWidth; inline elements have no such box) and ends inside the panel.
    const panel = await page.evaluate(() => {
      const info = document.getElementById('qd-info');
      const right = info.getBoundingClientRect().right;
      const cut = [];
      let checked = 0;
      for (const node of info.querySelectorAll('*')) {
        if (!node.textContent.trim()) continue;
        ++checked;
        const inline = getComputedStyle(node).display === 'inline';
        if ((!inline && node.scrollWidth > node.clientWidth) ||
          node.getBoundingClientRect().right > right + 0.5) {
          cut.push(node.textContent.slice(0, 48));
        }
      }
      const notes = [...info.querySelectorAll('.qd-note')];
      const wrapped = notes.filter((note) =>
        note.getBoundingClientRect().height > 1.5 * parseFloat(getComputedStyle(note).lineHeight));
      return { cut, checked, lines: notes.length, wrapped: wrapped.length,
        longest: Math.max(0, ...notes.map((note) => note.textContent.length)) };
    });
    check(panel.cut.length === 0, `no panel line is cut: ${panel.checked} elements checked` +
      (panel.cut.length ? `; cut: ${JSON.stringify(panel.cut)}` : ''));
    if (/planar_hand_plan/.test(path.basename(page_path))) {
      check(panel.lines >= 8 && panel.wrapped > 0, `the plan's summary: ${panel.lines} lines ` +
        `(the longest ${panel.longest} characters), ${panel.wrapped} wrapped inside the panel`);
    }

    // Frame 0 shows step 1's contacts (the box on the table) and its status (a regression: it
    // showed "solver status initial" and no contact).
    const opening = await page.evaluate(() => {
      window.quasidynViewer.seek(0);
      return { contacts: window.quasidynViewer.contacts.length,
        info: document.getElementById('qd-info').innerText };
    });
    check(opening.contacts > 0 && !/initial/.test(opening.info) && /solved/.test(opening.info),
      `t = 0 shows step 1's ${opening.contacts} contact(s) and its status`);

    // Every round shape drawn (sphere, disk, cylinder, capsule) carries an orientation mark that
    // turns with its body (viewer/src/marks.js): the planar hand's ball, the ecp cylinder.
    const marks = await page.evaluate(() => {
      const data = JSON.parse(document.getElementById('quasidyn-data').textContent);
      const round = (shape) => shape.mesh === undefined &&
        ['sphere', 'cylinder', 'capsule'].includes(shape.type);
      let expected = 0;
      for (const body of data.bodies) {
        const drawn = body.visuals && body.visuals.length > 0 ? body.visuals : body.shapes;
        expected += drawn.filter(round).length;
      }
      return { drawn: window.quasidynViewer.orientationMarks, expected };
    });
    const needsMarks = /planar_hand|ecp_cylinder_rolling/.test(path.basename(page_path));
    // A plan's page draws the planner's goal (the ball at its goal pose, translucent).
    if (/planar_hand_plan/.test(path.basename(page_path))) {
      const target = await page.evaluate(() => ({ bodies: window.quasidynViewer.targetBodies,
        info: document.getElementById('qd-info').innerText }));
      check(target.bodies === 1 && /goal/.test(target.info),
        `the plan's goal is drawn (${target.bodies} body) and named in the legend`);
    }
    check(marks.drawn === marks.expected && (!needsMarks || marks.drawn > 0),
      `round shapes carry orientation marks: ${marks.drawn} drawn, ${marks.expected} round shapes`);

    // The pushing checks need planar_pushing's pusher and box (run.sh's first page); the plan
    // page (planar_hand) has neither.
    // The mesh page (run.sh's examples/mesh_objects): both meshes are drawn from the page's
    // triangles (the hex prism's 20 and the wedge's 8), not as their hulls.
    if (/mesh_objects/.test(path.basename(page_path))) {
      const triangles = await page.evaluate(() => window.quasidynViewer.meshTriangles);
      check(triangles === 28, `the meshes are drawn: ${triangles} mesh triangles (28 expected)`);
    }
    if (/planar_pushing/.test(path.basename(page_path))) {
      // One convention: every arrow is the force on the object. While the pusher pushes the box
      // to the right (+x), the pusher–box arrow points +x (on the robot it would point -x), and
      // no arrow points -x (table friction on the sliding box is only a fraction of it).
      const push = await page.evaluate(() => {
        window.quasidynViewer.seek(0.5);
        return { contacts: window.quasidynViewer.contacts,
          arrows: window.quasidynViewer.arrowDirections() };
      });
      const pusher = push.contacts.findIndex((c) => c.on === 'box' && /^pusher/.test(c.by));
      check(pusher >= 0, `t = 0.5 s: a pusher–box contact (${push.contacts.length} contacts)`);
      check(push.arrows.some((d) => d[0] > 0.9) && !push.arrows.some((d) => d[0] < -0.9),
        `arrows show the force on the object (x of the directions: ${push.arrows.map((d) => d[0].toFixed(2)).join(', ')})`);

      // Hovering the pusher–box contact shows its force; moving away hides it.
      if (pusher >= 0) {
        const [x, y] = await page.evaluate((i) => window.quasidynViewer.contactScreenPoint(i), pusher);
        await page.mouse.move(x, y);
        const readout = await page.evaluate(() => {
          const box = document.getElementById('qd-contact');
          return { text: box.innerText, shown: getComputedStyle(box).display !== 'none' };
        });
        check(readout.shown && /force on box from pusher/.test(readout.text) && /\|F\| = [0-9.]+ N/.test(readout.text),
          `hovering the contact shows its force: ${JSON.stringify(readout.text)}`);
        await page.screenshot({ path: path.join(artifact_dir, 'viewer_readout.png') });
        await page.mouse.move(5, 5);
        const hidden = await page.evaluate(() =>
          getComputedStyle(document.getElementById('qd-contact')).display === 'none');
        check(hidden, 'the readout hides when the pointer leaves the contact');
      }
    }

    // An ecp page (the spinning cylinder of examples/ecp_cylinder_rolling): each contact is the
    // equivalent contact point, on the line where the cylinder touches the plane, and carries
    // its torsional moment, drawn as an arc about the normal; the readout says so.
    if (/ecp_cylinder_rolling/.test(path.basename(page_path))) {
      const ecp = await page.evaluate(() => {
        window.quasidynViewer.seek(0.1);
        return { contacts: window.quasidynViewer.contacts,
          arcs: window.quasidynViewer.torsionArcs() };
      });
      const contact = ecp.contacts[0] || {};
      check(ecp.contacts.length === 1 && Math.abs(contact.point[2]) < 1e-6,
        `t = 0.1 s: one contact, its ECP on the plane (z = ${contact.point && contact.point[2]})`);
      check(typeof contact.torsion === 'number' && contact.torsion !== 0 && ecp.arcs.length === 1 &&
        ecp.arcs[0].radius > 0, `the torsional moment ${contact.torsion} N·m is drawn as an arc ` +
        `(${ecp.arcs.length} arc(s), radius ${ecp.arcs[0] && ecp.arcs[0].radius.toFixed(3)} m)`);
      const [x, y] = await page.evaluate(() => window.quasidynViewer.contactScreenPoint(0));
      await page.mouse.move(x, y);
      const text = await page.evaluate(() => document.getElementById('qd-contact').innerText);
      check(/equivalent contact point/.test(text) && /torsional moment -?[0-9.]+ N·m/.test(text),
        `hovering the ECP shows its torsional moment: ${JSON.stringify(text)}`);
      await page.screenshot({ path: path.join(artifact_dir, 'viewer_ecp.png') });
      await page.mouse.move(5, 5);
    }

    // A plan executed on a plant (`track --html`, run.sh's planar_hand_track page): the plan shown
    // is the one running at the time (the second one from its start on), the panel names it and
    // gives D of plant and plan, and the plot draws D of the plant, of every plan and a line
    // where each replan starts.
    if (/planar_hand_track/.test(path.basename(page_path))) {
      const run = await page.evaluate(() => {
        const data = JSON.parse(document.getElementById('quasidyn-data').textContent).execution;
        const second = data.plans[1].start_time;
        window.quasidynViewer.seek(0);
        const atStart = window.quasidynViewer.executionPlan;
        window.quasidynViewer.seek(second);
        const atSecond = window.quasidynViewer.executionPlan;
        const plot = document.getElementById('qd-distance-plot');
        return { plans: data.plans.length, atStart, atSecond,
          text: document.getElementById('qd-execution').innerText,
          plant: plot.querySelectorAll('.qd-plant-distance').length,
          planLines: plot.querySelectorAll('.qd-plan-distance').length,
          replans: plot.querySelectorAll('.qd-replan').length };
      });
      check(run.plans >= 2 && run.atStart === 0 && run.atSecond === 1,
        `the plan shown follows the time: plan ${run.atStart} at t = 0, plan ${run.atSecond} ` +
        `from the second plan's start (${run.plans} plans)`);
      check(/D plant \/ plan\s*[0-9.e+-]+ \/ [0-9.e+-]+ \(tolerance/.test(run.text) &&
        /deepest overlap/.test(run.text), `the panel gives D and the overlap: ${JSON.stringify(run.text)}`);
      check(run.plant === 1 && run.planLines === run.plans && run.replans === run.plans - 1,
        `the plot: D of the plant, of ${run.planLines} plans, ${run.replans} replan lines`);
      await page.screenshot({ path: path.join(artifact_dir, 'viewer_track.png') });
    }

    // The toggles hide the contact layer without errors.
    await page.click('#qd-points');
    await page.click('#qd-forces');
    await page.click('#qd-play');
    await page.waitForTimeout(200);

    // #t= in the address opens the page at that time, and changing it seeks.
    const url = 'file://' + path.resolve(page_path);
    const seeking = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    seeking.on('pageerror', (error) => console_errors.push(`page error (#t=): ${error.message}`));
    await seeking.goto(url + '#t=0.45');
    await seeking.waitForFunction(() => window.quasidynViewer && window.quasidynViewer.ready,
      null, { timeout: 30000 });
    const opened = await seeking.evaluate(() => ({ t: window.quasidynViewer.time,
      frame: window.quasidynViewer.frame, playing: window.quasidynViewer.playing }));
    check(Math.abs(opened.t - 0.45) < 1e-9 && opened.frame > 0 && !opened.playing,
      `#t=0.45 opens paused at t = ${opened.t} s (frame ${opened.frame})`);
    await seeking.evaluate(() => { window.location.hash = '#t=0.2'; });
    await seeking.waitForFunction(() => Math.abs(window.quasidynViewer.time - 0.2) < 1e-9,
      null, { timeout: 5000 }).catch(() => {});
    const moved = await seeking.evaluate(() => window.quasidynViewer.time);
    check(Math.abs(moved - 0.2) < 1e-9, `changing the address to #t=0.2 seeks (t = ${moved} s)`);
    await seeking.close();

    // Without WebGL: a readable message, no stack trace, no page error.
    const plain = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    const plain_errors = [];
    plain.on('pageerror', (error) => plain_errors.push(error.message));
    await plain.addInitScript(() => {
      const original = HTMLCanvasElement.prototype.getContext;
      HTMLCanvasElement.prototype.getContext = function (type, ...rest) {
        return /webgl/i.test(type) ? null : original.call(this, type, ...rest);
      };
    });
    await plain.goto(url);
    const message = await plain.waitForSelector('#qd-error', { timeout: 30000 })
      .then((box) => box.innerText()).catch(() => '');
    await plain.screenshot({ path: path.join(artifact_dir, 'viewer_no_webgl.png') });
    check(/needs WebGL/.test(message) && !/\bat .*\.(js|html):\d+/.test(message) &&
      plain_errors.length === 0,
      `without WebGL: a readable message (${JSON.stringify(message.slice(0, 60))}…), ` +
      `${plain_errors.length} page error(s)`);
    await plain.close();

    check(console_errors.length === 0,
      `no console errors${console_errors.length ? ': ' + console_errors.join(' | ') : ''}`);
    check(requests.length === 0,
      `no network requests${requests.length ? ': ' + requests.join(' ') : ''}`);
  } finally {
    await browser.close();
  }
  console.log(`${failures.length === 0 ? 'PASS' : 'FAIL'}: ${failures.length} check(s) failed; screenshots in ${artifact_dir}`);
  process.exit(failures.length === 0 ? 0 : 1);
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
