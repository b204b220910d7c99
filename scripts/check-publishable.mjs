#!/usr/bin/env node
// `prepublishOnly` of every public package: refuses `npm publish` while the package's `repository`
// still names the placeholder host (`.invalid`, RFC 2606 §2) that this repository ships with. A
// deployment that publishes the packages sets its own repository URL in the root package.json and in
// each package's (package-metadata.test.ts checks they agree), as it sets its own security contact in
// SECURITY.md.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2] ?? process.cwd();
const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
const url = typeof manifest.repository === 'object' ? manifest.repository?.url : manifest.repository;
if (typeof url !== 'string' || url === '') {
  console.error(`${manifest.name}: package.json has no repository URL; set one before publishing.`);
  process.exit(1);
}
const host = /^(?:git\+)?[a-z]+:\/\/([^/:]+)/.exec(url)?.[1] ?? '';
if (host.endsWith('.invalid')) {
  console.error(
    `${manifest.name}: repository ${url} is the placeholder this repository ships with; set the real URL ` +
      '(root package.json and every packages/*/package.json) before publishing.',
  );
  process.exit(1);
}
