// The animkit viewer: loads .glb files (animkit's glTF export) and pose traces (`animkit play
// SCENARIO --pose --json`, web/trace.js), lists their clips, plays them side by side, and exposes
// window.viewer for scripts and tests (tests/web/viewer.test.mjs, tests/web/trace.test.mjs).
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { traceFromBuffer, traceToGltf } from './trace.js';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);

// ---- scene -------------------------------------------------------------------------------------
const view = $('view');
const renderer = new THREE.WebGLRenderer({ antialias: true });
renderer.setPixelRatio(window.devicePixelRatio);
view.prepend(renderer.domElement);
const scene = new THREE.Scene();
scene.background = new THREE.Color(0x2a2d33);
const camera = new THREE.PerspectiveCamera(40, 1, 0.01, 1000);
const controls = new OrbitControls(camera, renderer.domElement);
controls.addEventListener('change', () => render());
let grid = null;

function resize() {
  const w = view.clientWidth || 1, h = view.clientHeight || 1;
  renderer.setSize(w, h, false);
  camera.aspect = w / h;
  camera.updateProjectionMatrix();
  render();
}
new ResizeObserver(resize).observe(view);

// ---- state -------------------------------------------------------------------------------------
const files = [];  // {src, name, gltf, clips: [{name, duration, frameRate, looping, events, clip}], joints: [node index]}
const slots = [null, null];  // left and right: {file, clip, holder, root, mixer, action, joints, ...}
const state = { time: 0, playing: false, speed: 1, loop: true, axes: true, trail: true };

// A clip id is "file:clip"; "file:-1" is the file's rest pose (a skeleton without clips).
const REST = { name: '(rest pose)', duration: 0, frameRate: 30, looping: false, events: [], clip: null };
function clipById(id) {
  const [f, c] = id.split(':').map(Number);
  if (!files[f]) return null;
  if (c === -1) return { file: files[f], clip: REST, id };
  return files[f].clips[c] ? { file: files[f], clip: files[f].clips[c], id } : null;
}
function findClip(name) {
  for (let f = 0; f < files.length; ++f) {
    const c = files[f].clips.findIndex((x) => x.name === name);
    if (c >= 0) return `${f}:${c}`;
  }
  return null;
}
// The timeline spans the longest clip shown.
function timelineEnd() {
  let end = 0;
  for (const s of slots) if (s) end = Math.max(end, s.clip.duration);
  return end > 0 ? end : 1;
}
// A slot's clip time for the timeline's time: wrapped past the end when looping, else held.
function slotTime(slot, t) {
  const d = slot.clip.duration;
  if (!(d > 0)) return 0;
  if (t <= d) return Math.max(0, t);
  return state.loop ? t - Math.floor(t / d) * d : d;
}

// ---- loading -----------------------------------------------------------------------------------
const loader = new GLTFLoader();

function addFile(gltf, src, name) {
  const json = gltf.parser.json;
  const index = files.length;
  const clips = gltf.animations.map((clip, i) => {
    const extras = (json.animations[i] && json.animations[i].extras) || {};
    return {
      name: clip.name || `animation ${i}`,
      duration: typeof extras.duration === 'number' ? extras.duration : clip.duration,
      frameRate: typeof extras.frame_rate === 'number' ? extras.frame_rate : 30,
      looping: !!extras.looping,
      events: Array.isArray(extras.events) ? extras.events : [],
      clip,
    };
  });
  // Joints: the skin's, else every node.
  const skin = json.skins && json.skins[0];
  const joints = skin ? skin.joints.slice() : (json.nodes || []).map((_, i) => i);
  files.push({ src, name, gltf, clips, joints, index });
  const li = document.createElement('li');
  const trace = clips.length === 1 && clips[0].clip && (json.animations[0].extras || {}).trace;
  li.textContent = trace
    ? `${name} — pose trace, ${json.animations[0].extras.updates} updates, ${joints.length} bones`
    : `${name} — ${joints.length} joints, ${clips.length} clips`;
  $('files').append(li);
  refreshClipLists();
  return index;
}

// What a file holds is told by its content, not its name: a pose trace (JSON lines with "pose"),
// else glTF (binary or JSON).
function clipName(name) {
  return name.replace(/\.(jsonl|json|trace|txt|log)$/i, '');
}
async function loadTrace(buffer, src, name) {
  const lines = traceFromBuffer(buffer);
  if (!lines) return null;
  const gltf = await loader.parseAsync(JSON.stringify(traceToGltf(lines, clipName(name))), '');
  const index = addFile(gltf, src, name);
  files[index].trace = { updates: lines.length };
  return index;
}

async function loadUrl(src) {
  const name = decodeURIComponent(src.split('/').pop());
  const r = await fetch(src);
  if (!r.ok) throw new Error(`${src}: HTTP ${r.status}`);
  const buffer = await r.arrayBuffer();
  const traced = await loadTrace(buffer, src, name);
  if (traced !== null) return traced;
  const base = src.slice(0, src.lastIndexOf('/') + 1);  // a .gltf's own files lie beside it
  return addFile(await loader.parseAsync(buffer, base), src, name);
}

async function loadBuffer(buffer, name) {
  const traced = await loadTrace(buffer, null, name);
  if (traced !== null) return traced;
  const gltf = await loader.parseAsync(buffer, '');
  return addFile(gltf, null, name);
}

function refreshClipLists() {
  for (const id of ['clip', 'compare']) {
    const select = $(id);
    const keep = select.value;
    select.querySelectorAll('option[data-clip]').forEach((o) => o.remove());
    files.forEach((f, fi) => [...f.clips, REST].forEach((c, ci) => {
      const o = document.createElement('option');
      o.value = `${fi}:${c === REST ? -1 : ci}`;
      o.dataset.clip = '1';
      o.textContent = files.length > 1 ? `${c.name} (${f.name})` : c.name;
      select.append(o);
    }));
    select.value = keep;
  }
}

// ---- a slot: one copy of a file's scene, playing one clip ---------------------------------------
function originalNodeMap(gltf) {
  const map = new Map();  // node index -> object of the loaded scene
  gltf.scene.traverse((o) => {
    const a = gltf.parser.associations.get(o);
    if (a && a.nodes !== undefined && !map.has(a.nodes)) map.set(a.nodes, o);
  });
  return map;
}

function disposeSlot(i) {
  const s = slots[i];
  if (!s) return;
  if (s.mixer) s.mixer.stopAllAction();
  scene.remove(s.holder);
  s.holder.traverse((o) => { if (o.geometry) o.geometry.dispose(); });
  slots[i] = null;
}

function makeSlot(i, id) {
  disposeSlot(i);
  const found = id && clipById(id);
  if (!found) return null;
  const { file, clip } = found;
  const gltf = file.gltf;
  // Clone the scene, keeping the node index of each object (parallel traversal).
  const root = gltf.scene.clone(true);
  const originals = [], clones = [];
  gltf.scene.traverse((o) => originals.push(o));
  root.traverse((o) => clones.push(o));
  const cloneOf = new Map(originals.map((o, k) => [o, clones[k]]));
  const byIndex = originalNodeMap(gltf);
  const names = gltf.parser.json.nodes.map((n, k) => n.name || `node ${k}`);
  const joints = file.joints.map((n) => ({ name: names[n], obj: cloneOf.get(byIndex.get(n)) }))
    .filter((j) => j.obj);
  const jointSet = new Set(joints.map((j) => j.obj));
  for (const j of joints) {
    let p = j.obj.parent;
    while (p && !jointSet.has(p)) p = p.parent;
    j.parent = p || null;
  }
  const holder = new THREE.Group();
  // A pose trace is in the game's space, z up: stood up in the view's y-up world (model-space
  // values, read relative to the holder, are unchanged).
  if (file.trace) holder.rotation.x = -Math.PI / 2;
  holder.add(root);
  scene.add(holder);
  const mixer = clip.clip ? new THREE.AnimationMixer(root) : null;
  const action = mixer ? mixer.clipAction(clip.clip) : null;
  if (action) action.play();
  const slot = { index: i, id, file, clip, holder, root, mixer, action, joints, byName: new Map() };
  for (const j of joints) slot.byName.set(j.name, j);
  slots[i] = slot;
  pose(slot, 0);
  buildHelpers(slot);
  return slot;
}

// Evaluates the slot's clip at clip time `t` through three's AnimationMixer (what is shown).
function pose(slot, t) {
  if (slot.action) {
    slot.action.time = t;
    slot.mixer.update(0);
  }
  slot.holder.updateMatrixWorld(true);
}

// Model-space matrix of a joint: relative to the slot's holder (the glTF scene's space).
const tmpInv = new THREE.Matrix4();
function modelMatrix(slot, obj, out = new THREE.Matrix4()) {
  tmpInv.copy(slot.holder.matrixWorld).invert();
  return out.multiplyMatrices(tmpInv, obj.matrixWorld);
}

function extent(slot) {
  const box = new THREE.Box3();
  const m = new THREE.Matrix4(), p = new THREE.Vector3();
  for (const j of slot.joints) box.expandByPoint(p.setFromMatrixPosition(modelMatrix(slot, j.obj, m)));
  return box;
}

function buildHelpers(slot) {
  const box = extent(slot);
  const size = Math.max(box.getSize(new THREE.Vector3()).length(), 1e-3);
  slot.box = box;
  slot.size = size;
  // Bones: a line from each joint to its parent, refreshed every frame.
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(slot.joints.length * 6), 3));
  slot.bones = new THREE.LineSegments(geometry, new THREE.LineBasicMaterial({ color: 0xdddddd }));
  slot.bones.frustumCulled = false;
  slot.holder.add(slot.bones);
  // Joints: a small sphere each (hover target) and axes (x red, y green, z blue).
  const sphere = new THREE.SphereGeometry(size * 0.012, 12, 8);
  const material = new THREE.MeshBasicMaterial({ color: 0xffd54f });
  slot.axes = [];
  slot.spheres = [];
  for (const j of slot.joints) {
    const s = new THREE.Mesh(sphere, material.clone());
    s.userData.joint = j.name;
    s.userData.slot = slot.index;
    j.obj.add(s);
    slot.spheres.push(s);
    const axes = new THREE.AxesHelper(size * 0.08);
    axes.visible = state.axes;
    j.obj.add(axes);
    slot.axes.push(axes);
    // Spheres and axes sit under scaled joints: undo the scale so they keep their size.
    const ws = j.obj.getWorldScale(new THREE.Vector3());
    const k = 1 / Math.max(1e-6, (ws.x + ws.y + ws.z) / 3);
    s.scale.setScalar(k);
    axes.scale.setScalar(k);
  }
  // The root's motion over the clip as a trail.
  const rootJoint = slot.joints.find((j) => !j.parent) || slot.joints[0];
  const points = [];
  const steps = Math.max(2, Math.min(2000, Math.ceil(slot.clip.duration * 60)));
  const m = new THREE.Matrix4();
  if (rootJoint) {
    for (let k = 0; k <= steps; ++k) {
      pose(slot, (slot.clip.duration * k) / steps);
      points.push(new THREE.Vector3().setFromMatrixPosition(modelMatrix(slot, rootJoint.obj, m)));
    }
  }
  const trail = new THREE.BufferGeometry().setFromPoints(points);
  slot.trail = new THREE.Line(trail, new THREE.LineBasicMaterial({ color: 0x40c0f0 }));
  slot.trail.visible = state.trail;
  slot.holder.add(slot.trail);
  slot.rootJoint = rootJoint;
  pose(slot, 0);
}

function updateBones(slot) {
  const pos = slot.bones.geometry.attributes.position;
  const m = new THREE.Matrix4(), a = new THREE.Vector3(), b = new THREE.Vector3();
  let n = 0;
  for (const j of slot.joints) {
    if (!j.parent) continue;
    a.setFromMatrixPosition(modelMatrix(slot, j.obj, m));
    b.setFromMatrixPosition(modelMatrix(slot, j.parent, m));
    pos.setXYZ(n++, a.x, a.y, a.z);
    pos.setXYZ(n++, b.x, b.y, b.z);
  }
  pos.needsUpdate = true;
  slot.bones.geometry.setDrawRange(0, n);
}

// Places the slots side by side and frames the camera on them.
function layout() {
  const live = slots.filter(Boolean);
  if (!live.length) return;
  const widths = live.map((s) => Math.max(s.box.max.x - s.box.min.x, s.size * 0.6));
  let x = 0;
  live.forEach((s, k) => {
    s.holder.position.x = x - s.box.min.x;
    x += widths[k] + Math.max(...live.map((o) => o.size)) * 0.5;
  });
  scene.updateMatrixWorld(true);
  const box = new THREE.Box3();
  for (const s of live) {
    box.expandByObject(s.trail);
    box.union(s.box.clone().applyMatrix4(s.holder.matrixWorld));  // placed (and stood up)
  }
  const center = box.getCenter(new THREE.Vector3());
  const radius = Math.max(box.getSize(new THREE.Vector3()).length() * 0.5, 1e-3);
  const dist = radius / Math.sin((camera.fov * Math.PI) / 360) * 1.1;
  camera.near = dist / 100;
  camera.far = dist * 100;
  camera.position.set(center.x + dist * 0.25, center.y + dist * 0.2, center.z + dist);
  camera.updateProjectionMatrix();
  controls.target.copy(center);
  controls.update();
  if (grid) scene.remove(grid);
  const g = radius * 4;
  grid = new THREE.GridHelper(g, 20, 0x555555, 0x3a3a3a);
  grid.position.set(center.x, Math.min(0, box.min.y), center.z);
  grid.visible = $('show-grid').checked;
  scene.add(grid);
}

// ---- time --------------------------------------------------------------------------------------
function setTime(t) {
  const end = timelineEnd();
  state.time = Math.min(Math.max(0, Number(t) || 0), end);
  for (const s of slots) {
    if (!s) continue;
    pose(s, slotTime(s, state.time));
    updateBones(s);
  }
  updateTransport();
  render();
}

function updateTransport() {
  const end = timelineEnd();
  const scrub = $('scrub');
  scrub.max = String(end);
  scrub.value = String(state.time);
  const left = slots[0];
  const rate = left ? left.clip.frameRate : 30;
  $('readout').textContent =
    `${state.time.toFixed(3)} s / ${end.toFixed(3)} s · frame ${(state.time * rate).toFixed(1)} / ${Math.round(end * rate)}`;
  $('play').textContent = state.playing ? '▮▮' : '▶';
}

function drawEvents() {
  const layer = $('events');
  layer.replaceChildren();
  const end = timelineEnd();
  slots.forEach((s) => {
    if (!s) return;
    for (const e of s.clip.events) {
      const mark = document.createElement('div');
      mark.className = 'event';
      mark.style.left = `${(100 * e.time) / end}%`;
      if (s.index === 1) mark.style.background = '#e79c3c';
      const payload = e.payload && Object.keys(e.payload).length ? ' ' + JSON.stringify(e.payload) : '';
      mark.title = `${s.index ? 'right' : 'left'} · ${e.name} at ${e.time} s${payload}`;
      const label = document.createElement('span');
      label.textContent = e.name;
      mark.append(label);
      mark.addEventListener('click', () => { pause(); setTime(e.time); writeUrl(); });
      layer.append(mark);
    }
  });
}

function describe() {
  const caption = (s) => (s ? `${s.file.name} · ${s.clip.name}` : '');
  $('caption-left').textContent = caption(slots[0]);
  $('caption-right').textContent = caption(slots[1]);
  const s = slots[0];
  $('clipinfo').textContent = s
    ? `${s.clip.duration} s at ${s.clip.frameRate} fps${s.clip.looping ? ', looping' : ''}, ` +
      `${s.clip.events.length} events, ${s.joints.length} joints`
    : '';
}

function setClip(id, slotIndex = 0) {
  makeSlot(slotIndex, id);
  $(slotIndex ? 'compare' : 'clip').value = id || '';
  layout();
  drawEvents();
  describe();
  setTime(Math.min(state.time, timelineEnd()));
  writeUrl();
}

function play() {
  if (!state.playing && state.time >= timelineEnd() && !state.loop) state.time = 0;
  state.playing = true;
  last = performance.now();
  updateTransport();
  writeUrl();
}
function pause() {
  state.playing = false;
  updateTransport();
  writeUrl();
}

let last = performance.now();
function tick(now) {
  requestAnimationFrame(tick);
  const dt = Math.min(0.1, (now - last) / 1000);
  last = now;
  if (!state.playing) return;
  const end = timelineEnd();
  let t = state.time + dt * state.speed;
  if (t > end) {
    if (state.loop) t -= end * Math.floor(t / end);
    else { t = end; state.playing = false; }
  }
  setTime(t);
}

function render() {
  renderer.render(scene, camera);
}

// The URL keeps what is shown: src, clip, compare and (when paused) t.
function writeUrl() {
  const p = new URLSearchParams();
  for (const f of files) if (f.src) p.append('src', f.src);
  if (slots[0] && slots[0].clip.clip) p.set('clip', slots[0].clip.name);
  if (slots[1] && slots[1].clip.clip) p.set('compare', slots[1].clip.name);
  if (!state.playing && state.time > 0) p.set('t', String(+state.time.toFixed(6)));
  history.replaceState(null, '', `${location.pathname}?${p.toString().replace(/%2F/g, '/')}`);
}

// ---- hover: joint names ------------------------------------------------------------------------
const raycaster = new THREE.Raycaster();
const pointer = new THREE.Vector2();
let hovered = null;
renderer.domElement.addEventListener('pointermove', (ev) => {
  const r = renderer.domElement.getBoundingClientRect();
  pointer.set(((ev.clientX - r.left) / r.width) * 2 - 1, -((ev.clientY - r.top) / r.height) * 2 + 1);
  raycaster.setFromCamera(pointer, camera);
  const targets = slots.filter(Boolean).flatMap((s) => s.spheres);
  const hit = raycaster.intersectObjects(targets, false)[0];
  if (hovered) hovered.material.color.set(0xffd54f);
  hovered = hit ? hit.object : null;
  const tip = $('tooltip');
  if (hovered) {
    hovered.material.color.set(0xff5050);
    const s = slots[hovered.userData.slot];
    const w = boneWorldNow(s, hovered.userData.joint);
    tip.textContent = `${hovered.userData.joint}  (${w.position.map((v) => v.toFixed(3)).join(', ')})`;
    tip.style.left = `${ev.clientX - r.left + 12}px`;
    tip.style.top = `${ev.clientY - r.top + 12}px`;
    tip.hidden = false;
  } else {
    tip.hidden = true;
  }
  render();
});

// ---- controls ----------------------------------------------------------------------------------
$('play').onclick = () => (state.playing ? pause() : play());
$('scrub').oninput = (e) => { pause(); setTime(parseFloat(e.target.value)); writeUrl(); };
$('speed').onchange = (e) => { state.speed = parseFloat(e.target.value); };
$('loop').onchange = (e) => { state.loop = e.target.checked; setTime(state.time); };
$('clip').onchange = (e) => setClip(e.target.value, 0);
$('compare').onchange = (e) => setClip(e.target.value || null, 1);
const frame = () => 1 / ((slots[0] && slots[0].clip.frameRate) || 30);
const step = (n) => { pause(); setTime(Math.round(state.time / frame() + n) * frame()); writeUrl(); };
$('prev').onclick = () => step(-1);
$('next').onclick = () => step(1);
$('show-axes').onchange = (e) => {
  state.axes = e.target.checked;
  slots.forEach((s) => s && s.axes.forEach((a) => (a.visible = state.axes)));
  render();
};
$('show-trail').onchange = (e) => {
  state.trail = e.target.checked;
  slots.forEach((s) => s && (s.trail.visible = state.trail));
  render();
};
$('show-grid').onchange = (e) => { if (grid) grid.visible = e.target.checked; render(); };
window.addEventListener('keydown', (e) => {
  if (e.target.tagName === 'SELECT' || e.target.tagName === 'INPUT' && e.target.type !== 'range') return;
  if (e.code === 'Space') { e.preventDefault(); state.playing ? pause() : play(); }
  else if (e.code === 'ArrowLeft') { e.preventDefault(); step(-1); }
  else if (e.code === 'ArrowRight') { e.preventDefault(); step(1); }
  else if (e.code === 'Home') { pause(); setTime(0); writeUrl(); }
});

async function openLocal(fileList) {
  for (const f of fileList) {
    try {
      const fi = await loadBuffer(await f.arrayBuffer(), f.name);
      if (!slots[0]) setClip(files[fi].clips.length ? `${fi}:0` : `${fi}:-1`, 0);
    } catch (err) {
      status(`${f.name}: ${err.message || err}`);
    }
  }
}
$('open').onchange = (e) => openLocal(e.target.files);
view.addEventListener('dragover', (e) => { e.preventDefault(); view.classList.add('drop'); });
view.addEventListener('dragleave', () => view.classList.remove('drop'));
view.addEventListener('drop', (e) => { e.preventDefault(); view.classList.remove('drop'); openLocal(e.dataTransfer.files); });

function status(text) { $('status').textContent = text; }

// ---- the script API (tests/web/viewer.test.mjs) -------------------------------------------------
function boneWorldNow(slot, name) {
  const j = slot && slot.byName.get(name);
  if (!j) throw new Error(`no joint named '${name}'`);
  const m = modelMatrix(slot, j.obj);
  const p = new THREE.Vector3(), q = new THREE.Quaternion(), s = new THREE.Vector3();
  m.decompose(p, q, s);
  return { position: p.toArray(), rotation: q.toArray(), scale: s.toArray() };
}

async function start() {
  const sources = params.getAll('src').flatMap((s) => s.split(',')).filter(Boolean);
  if (!sources.length) {
    // Under `animkit view`, files/index.json lists the converted files.
    try {
      const r = await fetch('files/index.json');
      if (r.ok) for (const f of (await r.json()).files) sources.push(`files/${f.name}`);
    } catch { /* a plain static server: wait for files to be opened */ }
  }
  for (const src of sources) {
    status(`loading ${src}…`);
    await loadUrl(src);
  }
  status(files.length ? '' : 'no file: open or drop .glb files, or add ?src=FILE.glb to the URL');
  state.loop = params.get('loop') !== '0';
  $('loop').checked = state.loop;
  if (params.has('speed')) { state.speed = parseFloat(params.get('speed')) || 1; $('speed').value = String(state.speed); }
  const first = files.findIndex((f) => f.clips.length);
  const left = (params.get('clip') && findClip(params.get('clip'))) ||
    (first >= 0 ? `${first}:0` : files.length ? '0:-1' : null);
  if (left) setClip(left, 0);
  if (params.get('compare')) setClip(findClip(params.get('compare')), 1);
  if (params.has('t')) { setTime(parseFloat(params.get('t'))); writeUrl(); }
  else if (left && slots[0] && slots[0].clip.duration > 0) play();
  resize();
  requestAnimationFrame(tick);
}

const ready = start();
ready.catch((err) => status(`error: ${err.message || err}`));

window.viewer = {
  THREE,
  ready,
  files: () => files.map((f) => ({ src: f.src, name: f.name, joints: f.joints.length, clips: f.clips.map((c) => c.name), trace: !!f.trace })),
  clips: () => files.flatMap((f) => f.clips.map((c) => ({ file: f.name, name: c.name, duration: c.duration, frameRate: c.frameRate, looping: c.looping, events: c.events }))),
  // The clip shown on the left (slot 0) or right (slot 1), chosen by name or "file:clip" index.
  setClip: (name, slot = 0) => setClip(name === null ? null : (/^\d+:\d+$/.test(name) ? name : findClip(name)), slot),
  clip: (slot = 0) => (slots[slot] ? slots[slot].clip.name : null),
  joints: (slot = 0) => (slots[slot] ? slots[slot].joints.map((j) => j.name) : []),
  setTime, time: () => state.time, duration: timelineEnd,
  play, pause, isPlaying: () => state.playing,
  setLoop: (on) => { state.loop = !!on; $('loop').checked = state.loop; setTime(state.time); },
  setSpeed: (s) => { state.speed = s; },
  // A joint's model-space (glTF scene space) position, rotation [x, y, z, w] and scale at timeline
  // time t (pauses there), as three.js evaluates the exported animation.
  boneWorld(name, t, slot = 0) {
    if (t !== undefined) { pause(); setTime(t); }
    return boneWorldNow(slots[slot], name);
  },
  // Every joint at once: {name: {position, rotation, scale}}.
  pose(t, slot = 0) {
    if (t !== undefined) { pause(); setTime(t); }
    const s = slots[slot];
    return Object.fromEntries(s ? s.joints.map((j) => [j.name, boneWorldNow(s, j.name)]) : []);
  },
  // The root trail's points (model space) of a slot.
  trail: (slot = 0) => {
    const a = slots[slot] && slots[slot].trail.geometry.attributes.position;
    return a ? Array.from({ length: a.count }, (_, i) => [a.getX(i), a.getY(i), a.getZ(i)]) : [];
  },
  // Where a joint is drawn, in page pixels (for hovering it from a test).
  screenPosition(name, slot = 0) {
    const j = slots[slot] && slots[slot].byName.get(name);
    if (!j) throw new Error(`no joint named '${name}'`);
    const p = new THREE.Vector3().setFromMatrixPosition(j.obj.matrixWorld).project(camera);
    const r = renderer.domElement.getBoundingClientRect();
    return { x: r.left + ((p.x + 1) / 2) * r.width, y: r.top + ((1 - p.y) / 2) * r.height };
  },
  load: async (src) => { const i = await loadUrl(src); writeUrl(); return i; },
  render,
};
