// Opens a page as a Jupyter notebook shows quasidyn's output (notebook_page.py: two Trajectory
// _repr_html_ frames in a notebook-like page) in Debian's headless Chromium (playwright-core) and
// checks: each <iframe srcdoc> ran its viewer (a WebGL canvas that is not blank, every body of
// the frame's data built), at the frame's fixed height; the notebook's own global and elements,
// named as the viewer's, are untouched; no console error or page error, no network request.
// Saves a screenshot. Usage: node notebook_test.cjs PAGE.html ARTIFACT_DIR
'use strict';
const fs = require('fs');
const path = require('path');
const { launchChromium, checkLog, watchPage } = require('./browser_session.cjs');

const [page_path, artifact_dir] = process.argv.slice(2);
if (!page_path || !artifact_dir) {
  console.error('usage: node notebook_test.cjs PAGE.html ARTIFACT_DIR');
  process.exit(2);
}
const { check, failures } = checkLog();

(async () => {
  fs.mkdirSync(artifact_dir, { recursive: true });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1200 } });
    const { console_errors, requests } = watchPage(page, ['about:srcdoc']);
    await page.goto('file://' + path.resolve(page_path));
    const frames = page.frames().filter((frame) => frame !== page.mainFrame());
    check(frames.length === 2, `the notebook holds ${frames.length} viewer frames (2 expected)`);
    for (const [i, frame] of frames.entries()) {
      const ready = await frame.waitForFunction(
        () => window.quasidynViewer && window.quasidynViewer.ready, null, { timeout: 30000 })
        .then(() => true).catch(() => false);
      check(ready, `frame ${i + 1}: the viewer started inside its frame`);
      if (!ready) continue;
      const shown = await frame.evaluate(() => {
        const canvas = document.getElementById('qd-canvas');
        const data = JSON.parse(document.getElementById('quasidyn-data').textContent);
        window.quasidynViewer.pause();
        window.quasidynViewer.seek(window.quasidynViewer.duration);
        // Luminance variance of the canvas (preserveDrawingBuffer), as viewer_test.cjs reads it.
        const thumb = document.createElement('canvas');
        thumb.width = 64;
        thumb.height = 36;
        const context = thumb.getContext('2d');
        context.drawImage(canvas, 0, 0, thumb.width, thumb.height);
        const pixels = context.getImageData(0, 0, thumb.width, thumb.height).data;
        const luminance = [];
        for (let p = 0; p < pixels.length; p += 4) {
          luminance.push(0.2126 * pixels[p] + 0.7152 * pixels[p + 1] + 0.0722 * pixels[p + 2]);
        }
        const mean = luminance.reduce((a, b) => a + b, 0) / luminance.length;
        const variance = luminance.reduce((a, b) => a + (b - mean) ** 2, 0) / luminance.length;
        return {
          canvas: canvas instanceof HTMLCanvasElement && canvas.width > 0 && canvas.height > 0,
          webgl: !!(canvas.getContext('webgl2') || canvas.getContext('webgl')),
          scene: data.scene.name, bodies: data.bodies.length,
          built: window.quasidynViewer.bodyCount, frames: window.quasidynViewer.frameCount,
          variance, height: window.innerHeight,
        };
      });
      check(shown.canvas && shown.webgl, `frame ${i + 1} (${shown.scene}): a WebGL canvas`);
      check(shown.bodies > 0 && shown.built === shown.bodies,
        `frame ${i + 1}: its ${shown.built} bodies built (${shown.bodies} in its data)`);
      check(shown.frames >= 2, `frame ${i + 1}: ${shown.frames} frames loaded (>= 2)`);
      check(shown.variance > 25,
        `frame ${i + 1}: canvas not blank (luminance variance ${shown.variance.toFixed(1)} > 25)`);
      check(shown.height === 520, `frame ${i + 1}: ${shown.height} px high (520 expected)`);
    }
    // The notebook's document: its global and its elements named as the viewer's are its own.
    const notebook = await page.evaluate(() => ({
      global: JSON.stringify(window.quasidynViewer),
      info: document.getElementById('qd-info').textContent,
      canvases: document.querySelectorAll('canvas').length,
      styles: document.querySelectorAll('style').length,
    }));
    check(notebook.global === '{"notebook":true}' && notebook.info === 'the notebook\'s own element' &&
      notebook.canvases === 0 && notebook.styles === 1,
      `the notebook's own document is untouched (${JSON.stringify(notebook)})`);
    await page.screenshot({ path: path.join(artifact_dir, 'notebook.png'), fullPage: true });
    check(console_errors.length === 0,
      `no console errors${console_errors.length ? ': ' + console_errors.join(' | ') : ''}`);
    check(requests.length === 0,
      `no network requests${requests.length ? ': ' + requests.join(' ') : ''}`);
  } finally {
    await browser.close();
  }
  console.log(`${failures.length === 0 ? 'PASS' : 'FAIL'}: ${failures.length} check(s) failed; screenshot in ${artifact_dir}`);
  process.exit(failures.length === 0 ? 0 : 1);
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
