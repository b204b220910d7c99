import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The public mail domains: those of free mail providers (gmail.com, outlook.com, yahoo.com, …) and of
 * disposable addresses, from the `freemail` package's lists (its data files; its own lookup is not
 * used). Anyone can get an address there, so such a domain proves nothing about an organization: it
 * is never an organization's domain, and never makes anyone a member. Read once, on first use.
 */
let publicDomains: ReadonlySet<string> | undefined;

function loadPublicDomains(): ReadonlySet<string> {
  const folder = join(dirname(createRequire(import.meta.url).resolve('freemail/package.json')), 'data');
  const names = ['free.txt', 'disposable.txt'].flatMap((file) =>
    readFileSync(join(folder, file), 'utf8')
      .split('\n')
      .map((line) => line.trim().toLowerCase())
      .filter((line) => line !== '' && !line.startsWith('#')),
  );
  return new Set(names);
}

/** Whether `domain`, or a domain it is under (mail.yahoo.com is under yahoo.com), is a public mail domain. */
export function isPublicMailDomain(domain: string): boolean {
  publicDomains ??= loadPublicDomains();
  const labels = domain.toLowerCase().replace(/\.$/, '').split('.');
  for (let i = 0; i < labels.length - 1; i++) if (publicDomains.has(labels.slice(i).join('.'))) return true;
  return false;
}
