// A pose trace as one more input of the viewer: the JSON lines of `animkit play SCENARIO --pose
// --json` (The Warriors, issue 14), one line per update, each with "pose": {"rotations",
// "root_translation", "model": [{"bone", "name", "position", "rotation"} x 34]}. It is recognised
// by its content (whatever the file is called) and turned into a glTF of its own in memory: a
// node per bone, keyed at every update, so it plays and scrubs like any clip.
import * as THREE from 'three';

// warriors.txt "The pose", the parent table (Skeleton_InitParents, 0x00101120); the trace
// itself does not carry it (animkit/warriors/pose.cpp kParents).
const WARRIORS_PARENTS = [-1, 0, 1, 1, 3, 4, 5, 6, 6, 8, 6, 10, 6, 12, 6, 6, 5, 16, 17, 18, 19,
  19, 5, 22, 23, 24, 25, 25, 2, 28, 29, 2, 31, 32];
// The game's update (dt = 1/30 s, 0x005102cc): update k is shown at k / 30 s, so a frame of the
// timeline is an update.
const UPDATES_PER_SECOND = 30;

function isPoseLine(j) {
  return j && typeof j === 'object' && typeof j.update === 'number' && j.pose &&
    Array.isArray(j.pose.model) && j.pose.model.length === WARRIORS_PARENTS.length &&
    j.pose.model.every((m) => m && Array.isArray(m.position) && Array.isArray(m.rotation));
}

// The trace's lines (objects) when `text` is a pose trace: JSON lines, or one JSON array of
// them; null for anything else (a glTF, a scenario, a trace without --pose).
export function parseTrace(text) {
  const head = text.slice(0, 64).trimStart();
  if (!head.startsWith('{') && !head.startsWith('[')) return null;
  let lines;
  try {
    if (head.startsWith('[')) {
      lines = JSON.parse(text);
    } else {
      const first = text.indexOf('\n');
      // Cheap refusal before parsing a large file: the first line must be a pose line.
      if (!isPoseLine(JSON.parse(first < 0 ? text : text.slice(0, first)))) return null;
      lines = text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
    }
  } catch {
    return null;
  }
  if (!Array.isArray(lines) || !lines.length || !lines.every(isPoseLine)) return null;
  return lines;
}

// A `play --json` trace made without --pose: it names the updates but holds no pose to show.
function isTraceWithoutPose(text) {
  const first = text.indexOf('\n');
  try {
    const j = JSON.parse(first < 0 ? text : text.slice(0, first));
    return !!j && typeof j === 'object' && typeof j.update === 'number' && Array.isArray(j.tasks) && !j.pose;
  } catch {
    return false;
  }
}

// The trace's lines when the buffer is a pose trace, else null (glTF binaries start with "glTF";
// JSON glTF has no "update"); a trace made without --pose is an error that says so.
export function traceFromBuffer(buffer) {
  const bytes = new Uint8Array(buffer, 0, Math.min(4, buffer.byteLength));
  if (bytes.length === 4 && String.fromCharCode(...bytes) === 'glTF') return null;
  const text = new TextDecoder().decode(buffer);
  const lines = parseTrace(text);
  if (!lines && isTraceWithoutPose(text)) {
    throw new Error('a trace without the pose: make it with `animkit play SCENARIO --pose --json`');
  }
  return lines;
}

function base64(floats) {
  const bytes = new Uint8Array(floats.buffer, floats.byteOffset, floats.byteLength);
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

// The glTF (JSON, one embedded buffer) of a trace: bone 0's entry is motion (root velocity and
// turn), not a place, so node 0 stays at the origin; bone 1 (the pelvis, absolute) hangs from
// it; every other bone's local transform is its parent's model transform undone from its own,
// so three.js composing them back gives the trace's model-space values at each update.
export function traceToGltf(lines, name) {
  const n = lines.length, bones = WARRIORS_PARENTS.length;
  const times = new Float32Array(n);
  const translations = Array.from({ length: bones }, () => new Float32Array(n * 3));
  const rotations = Array.from({ length: bones }, () => new Float32Array(n * 4));
  const events = [];
  const q = new THREE.Quaternion(), pq = new THREE.Quaternion(), v = new THREE.Vector3();
  lines.forEach((line, k) => {
    times[k] = line.update / UPDATES_PER_SECOND;
    const model = line.pose.model;
    for (let b = 0; b < bones; ++b) {
      if (b === 0) {
        rotations[0].set([0, 0, 0, 1], k * 4);
        continue;
      }
      q.fromArray(model[b].rotation);
      v.fromArray(model[b].position);
      if (b >= 2) {
        const p = model[WARRIORS_PARENTS[b]];
        pq.fromArray(p.rotation).invert();
        v.sub(new THREE.Vector3().fromArray(p.position)).applyQuaternion(pq);
        q.premultiply(pq);
      }
      translations[b].set([v.x, v.y, v.z], k * 3);
      rotations[b].set([q.x, q.y, q.z, q.w], k * 4);
    }
    for (const e of line.events || []) {
      events.push({ name: `${e.name} (anim ${e.anim} f${e.frame})`, time: times[k], payload: e.payload || {} });
    }
  });
  // One buffer: the times, then each bone's translations and rotations.
  const parts = [times, ...translations.flatMap((t, b) => [t, rotations[b]])];
  const all = new Float32Array(parts.reduce((s, p) => s + p.length, 0));
  const views = [], accessors = [];
  let offset = 0;
  parts.forEach((p, i) => {
    all.set(p, offset);
    views.push({ buffer: 0, byteOffset: offset * 4, byteLength: p.byteLength });
    const type = i === 0 ? 'SCALAR' : i % 2 ? 'VEC3' : 'VEC4';
    const accessor = { bufferView: i, componentType: 5126, count: n, type };
    if (i === 0) Object.assign(accessor, { min: [times[0]], max: [times[n - 1]] });
    accessors.push(accessor);
    offset += p.length;
  });
  const children = WARRIORS_PARENTS.map(() => []);
  WARRIORS_PARENTS.forEach((p, b) => { if (p >= 0) children[p].push(b); });
  const nodes = lines[0].pose.model.map((m, b) => {
    const node = {
      name: m.name || `bone ${b}`,
      translation: Array.from(translations[b].subarray(0, 3)),
      rotation: Array.from(rotations[b].subarray(0, 4)),
    };
    if (children[b].length) node.children = children[b];
    return node;
  });
  const samplers = [], channels = [];
  for (let b = 1; b < bones; ++b) {
    for (const [path, accessor] of [['translation', 1 + 2 * b], ['rotation', 2 + 2 * b]]) {
      channels.push({ sampler: samplers.length, target: { node: b, path } });
      samplers.push({ input: 0, output: accessor, interpolation: 'LINEAR' });
    }
  }
  const duration = lines[n - 1].update / UPDATES_PER_SECOND;  // the double, for the readout
  return {
    asset: { version: '2.0', generator: 'animkit viewer (pose trace)' },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes,
    buffers: [{ byteLength: all.byteLength, uri: `data:application/octet-stream;base64,${base64(all)}` }],
    bufferViews: views,
    accessors,
    animations: [{
      name,
      samplers,
      channels,
      extras: { duration, frame_rate: UPDATES_PER_SECOND, looping: false, events, trace: true, updates: n },
    }],
  };
}
