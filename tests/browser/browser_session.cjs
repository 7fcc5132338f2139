// What the browser tests share (viewer_test.cjs, notebook_test.cjs): Debian's headless Chromium
// with WebGL on the CPU, the checks' log, and a page's console errors and network requests.
'use strict';
const { chromium } = require('playwright-core');

// Headless Chromium (QUASIDYN_CHROMIUM, else Debian's), WebGL without a GPU: ANGLE on
// SwiftShader (Chromium's CPU Vulkan).
function launchChromium() {
  return chromium.launch({
    executablePath: process.env.QUASIDYN_CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run',
      '--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
  });
}

// check(ok, what) logs one line per check; failures lists the failed ones.
function checkLog() {
  const failures = [];
  const check = (ok, what) => {
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
    if (!ok) failures.push(what);
  };
  return { check, failures };
}

// The page's console and page errors, and every request other than file:, data: and the
// addresses in `allowed` (a page is self-contained: it loads nothing from a network).
function watchPage(page, allowed = []) {
  const console_errors = [];
  const requests = [];
  page.on('console', (message) => {
    if (message.type() === 'error') console_errors.push(message.text());
  });
  page.on('pageerror', (error) => console_errors.push(`page error: ${error.message}`));
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith('file:') && !url.startsWith('data:') && !allowed.includes(url)) {
      requests.push(url);
    }
  });
  return { console_errors, requests };
}

module.exports = { launchChromium, checkLog, watchPage };
