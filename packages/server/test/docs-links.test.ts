/**
 * The documentation cannot drift in its links: every relative link of README.md and docs/*.md names a
 * file that exists, and every `#anchor` a heading of the page it points at, by GitHub's slug rules
 * (the heading's text, lowercased, punctuation removed, spaces to '-'; a repeated slug gets -1, -2).
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const DOCS = join(ROOT, 'docs');
const PAGES = [
  join(ROOT, 'README.md'),
  ...readdirSync(DOCS)
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(DOCS, name)),
];

/** The page's lines outside fenced code blocks, where links and headings are markdown. */
function proseLines(text: string): string[] {
  let fenced = false;
  return text.split('\n').filter((line) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return false;
    }
    return !fenced;
  });
}

/** GitHub's anchor of a heading's text. */
function slug(heading: string): string {
  const text = heading.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(path: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of proseLines(readFileSync(path, 'utf8'))) {
    const heading = /^#{1,6} (.*)$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1] ?? '');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Every link target of a page: `[text](target)` and `![alt](target)`, outside code. */
function linksOf(path: string): string[] {
  const targets: string[] = [];
  for (const line of proseLines(readFileSync(path, 'utf8'))) {
    const prose = line.replace(/`[^`]*`/g, '``');
    for (const match of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) targets.push(match[1] ?? '');
  }
  return targets;
}

const isExternal = (target: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(target);

describe('the documentation links only to what exists', () => {
  it('README.md and docs/README.md are among the pages checked', () => {
    assert.ok(PAGES.includes(join(ROOT, 'README.md')));
    assert.ok(PAGES.includes(join(DOCS, 'README.md')));
  });

  it('slugs follow GitHub: lowercase, punctuation removed, spaces to hyphens', () => {
    assert.equal(slug('Signing in: the authorization flow'), 'signing-in-the-authorization-flow');
    assert.equal(slug('AI agents (MCP clients)'), 'ai-agents-mcp-clients');
    assert.equal(slug('Rate limits (`src/abuse/`)'), 'rate-limits-srcabuse');
  });

  for (const page of PAGES) {
    const name = relative(ROOT, page);
    it(`${name}: every relative link names a file that exists, every #anchor a heading of it`, () => {
      const broken: string[] = [];
      for (const target of linksOf(page)) {
        if (isExternal(target)) continue;
        const [path, anchor] = target.split('#', 2) as [string, string | undefined];
        const file = path === '' ? page : join(dirname(page), decodeURIComponent(path));
        if (!existsSync(file)) {
          broken.push(`${target}: no file ${relative(ROOT, file)}`);
          continue;
        }
        if (anchor === undefined || !file.endsWith('.md')) continue;
        if (!anchorsOf(file).has(anchor)) broken.push(`${target}: no heading #${anchor} in ${relative(ROOT, file)}`);
      }
      assert.deepEqual(broken, [], `broken links in ${name}`);
    });
  }

  it('docs/README.md lists every page of docs/', () => {
    const toc = new Set(linksOf(join(DOCS, 'README.md')).map((target) => target.split('#')[0]));
    const missing = readdirSync(DOCS).filter((f) => f.endsWith('.md') && f !== 'README.md' && !toc.has(f));
    assert.deepEqual(missing, [], 'docs pages missing from docs/README.md');
  });
});
