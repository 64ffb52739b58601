#!/usr/bin/env node
// The browser test of a pose trace in the viewer (issue 14, item 3): a Warriors scenario's
// `animkit play --pose --json` output opens as an animation, told by its content.
//
//   node trace.test.mjs ANIMKIT OUT_DIR
//
// 1. `animkit demo --engine warriors` writes the gait scenario (walk -> run, then a fade to idle);
//    `animkit play` traces it with the pose into a file named walk.log (no trace extension).
// 2. `animkit view walk.log --port 0 --json` serves it as it is (no format claims it).
// 3. Headless Chromium opens the page; the trace is one clip of 34 bones, one frame per update,
//    its events on the timeline. At updates 0, 17, 45, 61 and 89 every bone's model-space
//    position and rotation (window.viewer.boneWorld) must equal the trace's "model" entry within
//    1e-4 (rotations up to sign); between two updates the position lies between theirs.
// 4. The same file opened from the page's file input (a local file) is recognised as well.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { browserTest, check } from './harness.mjs';

const { animkit, outDir, tmp, view, open, closeBrowser, run } = browserTest('trace.test.mjs', 'animkit-trace-test-');
const TOLERANCE = 1e-4;

async function main() {
  execFileSync(animkit, ['demo', '--engine', 'warriors', '--out', tmp], { stdio: 'pipe' });
  const text = execFileSync(animkit, ['play', path.join(tmp, 'warriors-scenario.json'), '--pose', '--json'],
    { encoding: 'utf8', maxBuffer: 64 << 20 });
  const traceFile = path.join(tmp, 'walk.log');
  fs.writeFileSync(traceFile, text);
  const lines = text.split('\n').filter(Boolean).map((l) => JSON.parse(l));
  check(lines.length === 90 && lines.every((l) => l.pose.model.length === 34), 'the trace has 90 updates of 34 bones');
  const eventCount = lines.reduce((n, l) => n + l.events.length, 0);

  const { server, info } = await view(traceFile);
  check(info.files.length === 1 && info.files[0].copied && info.files[0].name === 'walk.log',
    `animkit view serves the trace as it is (${info.url})`);

  const page = await open(`${info.url}&t=0`);

  const state = await page.evaluate(() => ({
    files: window.viewer.files(),
    clips: window.viewer.clips(),
    clip: window.viewer.clip(0),
    joints: window.viewer.joints(0),
    duration: window.viewer.duration(),
    markers: document.querySelectorAll('#events .event').length,
    listed: document.getElementById('files').textContent,
  }));
  check(state.files.length === 1 && state.files[0].trace, 'the file is read as a pose trace');
  check(state.clip === 'walk' && state.clips.length === 1, 'the trace is one clip, "walk", shown on the left');
  check(state.joints.join() === lines[0].pose.model.map((m) => m.name).join(), 'its joints are the 34 bones, named as in the trace');
  check(Math.abs(state.duration - 89 / 30) < 1e-6 && state.clips[0].frameRate === 30,
    `it lasts 89 / 30 s, one frame per update (${state.duration} s)`);
  check(state.clips[0].events.length === eventCount && state.markers === eventCount,
    `the trace's ${eventCount} events are on the timeline`);
  check(state.listed.includes('pose trace, 90 updates'), `the file list says "${state.listed}"`);

  // The bones at given updates against the trace's model-space values.
  const names = state.joints;
  let worst = { position: 0, rotation: 0 }, compared = 0;
  for (const k of [0, 17, 45, 61, 89]) {
    const t = Math.fround(k / 30);  // the key times are float32
    const got = await page.evaluate(([t, names]) => names.map((n) => window.viewer.boneWorld(n, t)), [t, names]);
    for (let b = 1; b < 34; ++b) {  // entry 0 is motion (velocity, turn), not a place
      const want = lines[k].pose.model[b];
      const g = got[b];
      const dp = Math.max(...want.position.map((v, i) => Math.abs(v - g.position[i])));
      const dq = Math.min(Math.max(...want.rotation.map((v, i) => Math.abs(v - g.rotation[i]))),
                          Math.max(...want.rotation.map((v, i) => Math.abs(v + g.rotation[i]))));
      worst = { position: Math.max(worst.position, dp), rotation: Math.max(worst.rotation, dq) };
      ++compared;
      if (!(dp <= TOLERANCE && dq <= TOLERANCE)) {
        throw new Error(`update ${k} ${want.name}: trace ${JSON.stringify(want)}, viewer ${JSON.stringify(g)}`);
      }
    }
  }
  check(true, `33 bones at updates 0, 17, 45, 61, 89 equal the trace within ${TOLERANCE} ` +
    `(largest: position ${worst.position.toExponential(2)}, rotation ${worst.rotation.toExponential(2)}, ${compared} bones)`);
  // The left foot moves between updates 17 and 18; half-way it lies between the two.
  const foot = names[33];
  const mid = await page.evaluate(([t, n]) => window.viewer.boneWorld(n, t).position, [17.5 / 30, foot]);
  const a = lines[17].pose.model[33].position, c = lines[18].pose.model[33].position;
  check(a.some((v, i) => Math.abs(v - c[i]) > 1e-3), `${foot} moves from update 17 to 18`);
  check(mid.every((v, i) => v >= Math.min(a[i], c[i]) - 1e-5 && v <= Math.max(a[i], c[i]) + 1e-5),
    `scrubbed to update 17.5, ${foot} lies between updates 17 and 18`);
  const readout = await page.evaluate(() => { window.viewer.setTime(45 / 30); return document.getElementById('readout').textContent; });
  check(readout.includes('frame 45.0 / 89'), `the readout counts updates as frames ("${readout}")`);

  // A local file (the file input), recognised by its content too.
  await page.setInputFiles('#open', { name: 'fight.txt', mimeType: 'text/plain', buffer: Buffer.from(text) });
  await page.waitForFunction(() => window.viewer.files().length === 2, null, { timeout: 10_000 });
  const local = await page.evaluate(() => window.viewer.files()[1]);
  check(local.trace && local.clips.join() === 'fight' && local.joints === 34, 'a local file fight.txt opens as a trace too');

  // A trace made without --pose is refused with a word, not taken for a glTF.
  const bare = execFileSync(animkit, ['play', path.join(tmp, 'warriors-scenario.json'), '--json'], { encoding: 'utf8' });
  await page.setInputFiles('#open', { name: 'bare.jsonl', mimeType: 'text/plain', buffer: Buffer.from(bare) });
  await page.waitForFunction(() => document.getElementById('status').textContent.includes('bare.jsonl'), null, { timeout: 10_000 });
  const said = await page.evaluate(() => document.getElementById('status').textContent);
  check(said.includes('--pose') && (await page.evaluate(() => window.viewer.files().length)) === 2,
    `a trace without the pose is refused: "${said}"`);

  fs.mkdirSync(outDir, { recursive: true });
  const shot = path.join(outDir, 'trace.png');
  await page.evaluate(() => window.viewer.setTime(45 / 30));
  await page.screenshot({ path: shot });
  check(fs.statSync(shot).size > 10_000, `screenshot saved as ${shot}`);
  await closeBrowser();
  server.kill('SIGINT');
}

run(main);
