import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CATALOGS, ENGLISH_PROBLEM_PROSE } from '../src/i18n/catalogs/index.js';
import { PSEUDO_LOCALE, SOURCE_LOCALE, SUPPORTED_LOCALES, type Locale, type PageLocale } from '../src/i18n/locales.js';
import { escapeHtml } from '../src/primitives/html-escape.js';
import { untranslated } from './_page-text.js';
import { startTestServer, type TestServer } from './_server.js';

const SLUGS = [...ENGLISH_PROBLEM_PROSE.keys()];

/** One page of the catalog as a browser that chose `locale` on the switcher gets it (or its JSON form). */
async function problemPage(server: TestServer, path: string, locale: PageLocale, accept = 'text/html') {
  const response = await fetch(`${server.url}${path}`, { headers: { accept, cookie: `gatehouse_locale=${locale}` } });
  return { status: response.status, body: await response.text() };
}

/** What a locale's pages must say of an entry: its own translation; English is the contract's text. */
function proseOf(locale: Locale, slug: string) {
  const prose = locale === SOURCE_LOCALE ? ENGLISH_PROBLEM_PROSE.get(slug) : CATALOGS[locale].problems[slug];
  assert.ok(prose, `${locale} has the prose of ${slug}`);
  return prose;
}

/**
 * The pages of the error catalog (/problems/…) speak the page's language for every entry: each
 * locale has its own prose of every OAuth error and every problem, not English standing in for it,
 * while what the wire says (the JSON form, the problem's `title`, the `error_description`s) stays
 * English, byte for byte.
 */
describe('every page of the error catalog in every language', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ pseudoLocale: true });
  });
  after(() => server.close());

  it('every locale translates every entry of the catalog: title, summary and what to do, none left in English', () => {
    for (const locale of SUPPORTED_LOCALES.filter((l) => l !== SOURCE_LOCALE)) {
      const missing = SLUGS.filter((slug) => CATALOGS[locale].problems[slug] === undefined);
      assert.deepEqual(missing, [], `${locale} lacks the prose of these pages`);
      const unknown = Object.keys(CATALOGS[locale].problems).filter((slug) => !ENGLISH_PROBLEM_PROSE.has(slug));
      assert.deepEqual(unknown, [], `${locale} translates pages the catalog does not have`);
      for (const slug of SLUGS) {
        const english = ENGLISH_PROBLEM_PROSE.get(slug);
        const own = proseOf(locale, slug);
        assert.notEqual(own.summary, english?.summary, `${locale} ${slug}: the summary is the English one`);
        assert.notEqual(own.action, english?.action, `${locale} ${slug}: what to do is the English one`);
      }
    }
  });

  it("each locale's page of every entry shows that locale's title, summary and what to do, under <html lang>", async () => {
    for (const locale of SUPPORTED_LOCALES) {
      const pages = await Promise.all(SLUGS.map((slug) => problemPage(server, `/problems/${slug}`, locale)));
      SLUGS.forEach((slug, i) => {
        const { status, body } = pages[i] as { status: number; body: string };
        const prose = proseOf(locale, slug);
        const where = `${locale} /problems/${slug}`;
        assert.equal(status, 200, where);
        assert.match(body, new RegExp(`<html lang="${locale}"`), where);
        assert.ok(body.includes(`<h1>${escapeHtml(prose.title)}</h1>`), `${where}: title`);
        assert.ok(body.includes(`<p class="summary">${escapeHtml(prose.summary)}</p>`), `${where}: summary`);
        assert.ok(body.includes(`<p>${escapeHtml(prose.action)}</p></section>`), `${where}: what to do`);
      });
      const index = await problemPage(server, '/problems/', locale);
      for (const slug of SLUGS)
        assert.ok(index.body.includes(escapeHtml(proseOf(locale, slug).title)), `${locale} index lists ${slug}`);
    }
  });

  it('in the pseudo-locale, no word of any catalog page or of the index bypasses the catalog', async () => {
    const paths = ['/problems/', ...SLUGS.map((slug) => `/problems/${slug}`)];
    const pages = await Promise.all(paths.map((path) => problemPage(server, path, PSEUDO_LOCALE)));
    const failures = paths
      .map((path, i) => ({ path, body: (pages[i] as { body: string }).body }))
      .map(({ path, body }) => ({ path, lang: /<html lang="([^"]*)"/.exec(body)?.[1], words: untranslated(body) }))
      .filter((p) => p.lang !== PSEUDO_LOCALE || p.words.length > 0);
    assert.deepEqual(failures, []);
  });

  it('the JSON form of every entry is byte-identical in every language, and the HTML shows the wire title in English', async () => {
    for (const slug of SLUGS) {
      const answers = await Promise.all(
        SUPPORTED_LOCALES.map((locale) => problemPage(server, `/problems/${slug}`, locale, 'application/json')),
      );
      const english = answers[0] as { body: string };
      assert.equal((JSON.parse(english.body) as { title: string }).title, ENGLISH_PROBLEM_PROSE.get(slug)?.title);
      answers.forEach((answer, i) => assert.equal(answer.body, english.body, `${SUPPORTED_LOCALES[i]} ${slug}`));
    }
    const german = await problemPage(server, '/problems/missing-required-field', 'de');
    assert.match(german.body, /<q lang="en" translate="no">Missing required field<\/q>/);
  });
});
