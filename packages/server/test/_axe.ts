import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';

/** axe-core, as its package ships it: injected into each page by the test, not served by Gatehouse. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The rules of WCAG 2.0, 2.1 and 2.2, levels A and AA (axe-core's tags). */
const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

interface Violation {
  readonly id: string;
  readonly impact: string | null;
  readonly nodes: readonly { readonly target: readonly string[] }[];
}

/** axe's serious and critical violations of WCAG 2.2 AA on the page shown. */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  return seriousViolationsByAxe(page);
}

/** What seriousViolations says, on a page where axe-core is loaded already. */
async function seriousViolationsByAxe(page: Page): Promise<string[]> {
  const violations = await page.evaluate(async (tags) => {
    const axe = (
      globalThis as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<{ violations: Violation[] }> } }
    ).axe;
    return (await axe.run(document, { runOnly: { type: 'tag', values: tags } })).violations;
  }, WCAG_AA);
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/**
 * axe's serious and critical violations of every page of `shown`, each as the server answered it and
 * at the server's `origin` (its stylesheet loads from there). A page that moves on by itself (the
 * continue page's meta refresh) is held where it is: navigations away from it are stopped.
 */
export async function violationsOfPages(
  browser: Browser,
  origin: string,
  shown: readonly { readonly kind: string; readonly page: { readonly html: string } }[],
  options: BrowserContextOptions = {},
): Promise<string[]> {
  const context = await browser.newContext(options);
  // axe-core comes with every document of the context, as a script of the browser's own that runs
  // before the page's: handed to chromium once, where evaluating it in each page sent its 500 kB over
  // the protocol again for every page (a fifth of the walk's time). A page without it fails on `axe`.
  await context.addInitScript({ content: AXE_SOURCE });
  const page = await context.newPage();
  await page.route(`${origin}/**`, (route) =>
    route.request().isNavigationRequest() ? route.abort('aborted') : route.fallback(),
  );
  const failures: string[] = [];
  for (const { kind, page: answer } of shown) {
    await page.route(`${origin}/__page`, (route) => route.fulfill({ contentType: 'text/html', body: answer.html }));
    await page.goto(`${origin}/__page`);
    for (const violation of await seriousViolationsByAxe(page)) failures.push(`${kind}: ${violation}`);
    await page.unroute(`${origin}/__page`);
  }
  await context.close();
  return failures;
}
