// Validates glTF files with the Khronos glTF-Validator (npm package gltf-validator).
// Usage: node tools/validate_gltf.mjs FILE.glb... ; prints one summary line per file and exits 1
// when any file has an error. The info UNUSED_OBJECT (a skin without a mesh) is expected.
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import validator from 'gltf-validator';

let failed = false;
for (const file of process.argv.slice(2)) {
  const bytes = new Uint8Array(await readFile(file));
  const report = await validator.validateBytes(bytes, {
    uri: basename(file),
    maxIssues: 100,
    externalResourceFunction: () => Promise.reject(new Error('no external resources')),
  });
  const { numErrors, numWarnings, numInfos, messages } = report.issues;
  console.log(`${file}: ${numErrors} errors, ${numWarnings} warnings, ${numInfos} infos`);
  for (const m of messages) {
    if (m.severity <= 1) console.log(`  ${m.severity === 0 ? 'error' : 'warning'} ${m.code} ${m.pointer ?? ''}: ${m.message}`);
  }
  if (numErrors > 0) failed = true;
}
process.exit(failed ? 1 : 0);
