#!/usr/bin/env node
// The browser test of web/ (issue 8): what the viewer shows is what animkit computed.
//
//   node viewer.test.mjs ANIMKIT OUT_DIR
//
// 1. `animkit demo --engine core` writes the 5-joint arm (core.json: clips wave and bend).
// 2. `animkit view core.json --port 0 --json` converts it to glTF and serves the page.
// 3. Headless Chromium (Debian's, through playwright-core) opens the page with the clip `wave` on
//    the left and `bend` on the right, and reads each joint's model-space position and rotation
//    through window.viewer.boneWorld(name, t, slot) at several times.
// 4. `animkit pose core.json --clip C --time T... --json` gives the core's own local-to-model at
//    the same times; every component must agree within 1e-4 (rotations up to sign).
// `wave` is slerp-keyed, which three.js also slerps, so it is compared between keys too; `bend`
// has a Hermite root translation (exported resampled at 30 Hz, lerped by three.js) and nlerp
// rotations (slerped by three.js), so it is compared at its key times only.
// A screenshot is saved as OUT_DIR/viewer.png. No network: everything is on 127.0.0.1.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { browserTest, check } from './harness.mjs';

const { animkit, outDir, tmp, view, open, closeBrowser, run } = browserTest('viewer.test.mjs', 'animkit-web-test-');
const TOLERANCE = 1e-4;

// Times: float32 values, so animkit (float) and the page (double) evaluate the very same instant.
const f32 = (x) => Math.fround(x);
const cases = [
  { clip: 'wave', slot: 0, times: [0, 0.1, 0.25, 0.37, 0.5, 0.61, 0.8125, 0.99, 1].map(f32) },
  { clip: 'bend', slot: 1, times: [0, 4, 9, 15, 22, 30].map((f) => f32(f / 30)) },
];

async function main() {
  execFileSync(animkit, ['demo', '--engine', 'core', '--out', tmp], { stdio: 'pipe' });
  const input = path.join(tmp, 'core.json');

  // The core's answer.
  const expected = {};
  for (const c of cases) {
    const args = ['pose', input, '--clip', c.clip, '--json'];
    for (const t of c.times) args.push('--time', String(t));
    expected[c.clip] = JSON.parse(execFileSync(animkit, args, { encoding: 'utf8' }));
  }

  // The server.
  const { server, info } = await view(input);
  check(/^http:\/\/127\.0\.0\.1:\d+\/[0-9a-f]{32}\/\?src=files\/core\.glb$/.test(info.url), `animkit view serves ${info.url}`);

  // The browser.
  const page = await open(`${info.url}&clip=wave&compare=bend&t=0.5`);

  const state = await page.evaluate(() => ({
    time: window.viewer.time(),
    playing: window.viewer.isPlaying(),
    left: window.viewer.clip(0),
    right: window.viewer.clip(1),
    clips: window.viewer.clips(),
    joints: window.viewer.joints(0),
    markers: [...document.querySelectorAll('#events .event')].map((e) => e.title),
    trail: window.viewer.trail(1),
  }));
  check(state.time === 0.5 && !state.playing, 'the URL\'s t=0.5 is shown, paused');
  check(state.left === 'wave' && state.right === 'bend', 'clip=wave on the left, compare=bend on the right');
  check(state.clips.map((c) => c.name).join() === 'wave,bend', 'the clip list is wave, bend');
  const wave = state.clips.find((c) => c.name === 'wave');
  check(wave.events.length === 1 && wave.events[0].name === 'apex' && wave.events[0].time === 0.5,
    'the event apex at 0.5 s is read from the animation extras');
  check(state.markers.length === 1 && state.markers[0].includes('apex'), 'the event is marked on the timeline');
  const ys = state.trail.map((p) => p[1]);
  check(Math.abs(Math.min(...ys) - 1) < 1e-4 && Math.abs(Math.max(...ys) - 1.2) < 1e-3,
    'the root trail of bend rises from 1 to 1.2');
  check(state.joints.join() === 'root,shoulder,elbow,wrist,tip', 'the skeleton has the 5 joints');
  check(new URL(page.url()).searchParams.get('t') === '0.5', 'the URL keeps t=0.5');

  // Hovering a joint names it.
  const at = await page.evaluate(() => window.viewer.screenPosition('elbow', 1));
  await page.mouse.move(at.x, at.y);
  const tip = await page.evaluate(() => { const t = document.getElementById('tooltip'); return t.hidden ? '' : t.textContent; });
  check(tip.startsWith('elbow'), `hovering the right figure's elbow shows "${tip}"`);

  // The comparison.
  let worst = { position: 0, rotation: 0 };
  let compared = 0;
  for (const c of cases) {
    for (const pose of expected[c.clip].poses) {
      const got = await page.evaluate(([t, slot, names]) =>
        names.map((n) => window.viewer.boneWorld(n, t, slot)), [pose.time, c.slot, pose.joints.map((j) => j.name)]);
      pose.joints.forEach((j, k) => {
        const g = got[k];
        const dp = Math.max(...j.position.map((v, i) => Math.abs(v - g.position[i])));
        const plus = Math.max(...j.rotation.map((v, i) => Math.abs(v - g.rotation[i])));
        const minus = Math.max(...j.rotation.map((v, i) => Math.abs(v + g.rotation[i])));
        const dq = Math.min(plus, minus);
        if (dp > worst.position) worst.position = dp;
        if (dq > worst.rotation) worst.rotation = dq;
        ++compared;
        if (!(dp <= TOLERANCE && dq <= TOLERANCE)) {
          throw new Error(`${c.clip} ${j.name} at ${pose.time} s: animkit ${JSON.stringify(j)}, ` +
                          `viewer ${JSON.stringify(g)} (position ${dp}, rotation ${dq})`);
        }
      });
    }
    console.log(`ok: ${c.clip}: ${expected[c.clip].poses[0].joints.length} joints at ` +
                `${c.times.length} times (${c.times.map((t) => +t.toFixed(6)).join(', ')} s) within ${TOLERANCE}`);
  }
  console.log(`largest difference over ${compared} joint poses: position ${worst.position.toExponential(2)}, ` +
              `rotation ${worst.rotation.toExponential(2)}`);

  // The record: both clips at the event.
  await page.evaluate(() => window.viewer.setTime(0.5));
  await page.mouse.move(0, 0);
  fs.mkdirSync(outDir, { recursive: true });
  const shot = path.join(outDir, 'viewer.png');
  await page.screenshot({ path: shot });
  check(fs.statSync(shot).size > 10_000, `screenshot saved as ${shot}`);
  await closeBrowser();

  // Ctrl-C stops the server cleanly.
  const exited = new Promise((resolve) => server.on('exit', (code, signal) => resolve({ code, signal })));
  server.kill('SIGINT');
  const end = await Promise.race([exited, new Promise((r) => setTimeout(() => r(null), 5000))]);
  check(end && end.code === 0, 'animkit view stops on SIGINT with exit code 0');
}

run(main);
