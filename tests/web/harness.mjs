// What the browser tests of web/ share (viewer.test.mjs, trace.test.mjs): the command line
// `node TEST ANIMKIT OUT_DIR`, a temporary folder, a 50 s watchdog, `animkit view` on a file,
// headless Chromium on the page it serves, and the end of a test: PASS, or FAIL with the reason.
// However the test ends, the server is stopped and the folder removed.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

// A test's step: printed when it holds, thrown (and so the test's FAIL) when it does not.
export function check(ok, message) {
  if (!ok) throw new Error(message);
  console.log(`ok: ${message}`);
}

// `name` is the test's file (for the usage line), `tmpPrefix` names its temporary folder.
export function browserTest(name, tmpPrefix) {
  const [animkit, outDir = '.'] = process.argv.slice(2);
  if (!animkit) {
    console.error(`usage: node ${name} ANIMKIT OUT_DIR`);
    process.exit(2);
  }
  const watchdog = setTimeout(() => fail('timed out after 50 s'), 50_000);
  let server = null, context = null;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), tmpPrefix));

  function cleanup() {
    if (server && server.exitCode === null) server.kill('SIGKILL');
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  function fail(message) {
    console.error(`FAIL: ${message}`);
    cleanup();
    process.exit(1);
  }

  // `animkit view FILE --port 0 --json`: the server process and its first line (url, files).
  async function view(file) {
    server = spawn(animkit, ['view', file, '--port', '0', '--json'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const info = await new Promise((resolve, reject) => {
      let text = '';
      server.stdout.on('data', (d) => {
        text += d;
        const nl = text.indexOf('\n');
        if (nl >= 0) resolve(JSON.parse(text.slice(0, nl)));
      });
      server.on('exit', (code) => reject(new Error(`animkit view exited with ${code}`)));
    });
    return { server, info };
  }

  // Debian's chromium (through playwright-core), a fresh profile, no network beyond 127.0.0.1:
  // the page at `url`, once the viewer is ready and checked to have loaded without errors.
  async function open(url) {
    context = await chromium.launchPersistentContext(path.join(tmp, 'profile'), {
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--enable-unsafe-swiftshader',
             '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      viewport: { width: 1280, height: 720 },
    });
    const page = context.pages()[0] || (await context.newPage());
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await page.goto(url);
    await page.waitForFunction(() => window.viewer && window.viewer.ready, null, { timeout: 20_000 });
    await page.evaluate(() => window.viewer.ready);
    check(errors.length === 0, `the page loads without errors ${errors.join('; ')}`);
    return page;
  }
  async function closeBrowser() {
    await context.close();
    context = null;
  }

  // Runs the test's body (an async function): PASS when it returns, FAIL with what it threw.
  function run(main) {
    main().then(() => {
      clearTimeout(watchdog);
      cleanup();
      console.log('PASS');
    }, async (err) => {
      if (context) await context.close().catch(() => {});
      fail(err.stack || String(err));
    });
  }

  return { animkit, outDir, tmp, view, open, closeBrowser, run };
}
