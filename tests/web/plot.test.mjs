#!/usr/bin/env node
// `animkit plot` (issue 8): one panel per animated channel, keys as dots, the curve, both time
// axes and the events, as SVG.   node plot.test.mjs ANIMKIT OUT_DIR
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const [animkit, outDir = '.'] = process.argv.slice(2);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'animkit-plot-test-'));
let failed = false;
function check(ok, message) {
  console.log(`${ok ? 'ok' : 'FAIL'}: ${message}`);
  if (!ok) failed = true;
}
const count = (text, re) => (text.match(re) || []).length;

try {
  execFileSync(animkit, ['demo', '--engine', 'core', '--out', tmp], { stdio: 'pipe' });
  const input = path.join(tmp, 'core.json');
  fs.mkdirSync(outDir, { recursive: true });

  // wave: joints shoulder, elbow, wrist rotate about z (31 slerp keys each); x and y stay 0.
  const wave = path.join(outDir, 'plot-wave.svg');
  execFileSync(animkit, ['plot', input, '--clip', 'wave', '-o', wave]);
  const svg = fs.readFileSync(wave, 'utf8');
  check(svg.startsWith('<?xml') && svg.trimEnd().endsWith('</svg>'), 'an SVG document');
  check(count(svg, /class="chan"/g) === 6, 'six panels: rotation.z and .w of three joints');
  check(count(svg, /class="key"/g) === 6 * 31, 'every key drawn as a dot (31 per channel)');
  check(count(svg, /class="curve"/g) === 6, 'one curve per panel');
  check(count(svg, /class="event"/g) === 6 && svg.includes('>apex<'), 'the event apex marked in each panel');
  check(svg.includes('frames @ 30 fps') && svg.includes('>30<'), 'a frame axis');
  check(svg.includes('constant: rotation.x = 0, rotation.y = 0'), 'constant channels listed, not drawn');
  check(svg.includes('rotation.z (quat, slerp)'), 'the panel names the channel and its interpolation');

  // bend, one joint: the Hermite root translation (3 keys).
  const bend = path.join(outDir, 'plot-bend-root.svg');
  const out = execFileSync(animkit, ['plot', input, '--clip', 'bend', '--joint', 'root', '-o', bend, '--json'], { encoding: 'utf8' });
  check(JSON.parse(out).channels === 3, '--joint root: three channels');
  const root = fs.readFileSync(bend, 'utf8');
  check(count(root, /class="chan"/g) === 1 && root.includes('translation.y (hermite)'), 'one panel: translation.y (hermite)');
  check(count(root, /class="key"/g) === 3, 'its three keys');
  const pts = root.match(/class="curve"/) && root.match(/<polyline points="([^"]+)"/)[1].split(' ');
  check(pts && pts.length > 300, 'the curve is sampled densely (the engine evaluation between keys)');

  // Errors: exit 1 and an error line.
  const bad = spawnSync(animkit, ['plot', input, '--clip', 'nope', '-o', path.join(tmp, 'x.svg')], { encoding: 'utf8' });
  check(bad.status === 1 && /^error: .*no clip named 'nope'/.test(bad.stderr), 'an unknown clip is an error (exit 1)');
  const badJoint = spawnSync(animkit, ['plot', input, '--joint', 'nope', '-o', path.join(tmp, 'x.svg')], { encoding: 'utf8' });
  check(badJoint.status === 1 && /no joint named 'nope'/.test(badJoint.stderr), 'an unknown joint is an error (exit 1)');
} catch (err) {
  check(false, err.stack || String(err));
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
console.log(failed ? 'FAIL' : 'PASS');
process.exit(failed ? 1 : 0);
