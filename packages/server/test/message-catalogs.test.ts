import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { describe, it } from 'node:test';
import { isStructurallySame, parse } from '@formatjs/icu-messageformat-parser';
import { CATALOGS, ENGLISH_PROBLEM_PROSE } from '../src/i18n/catalogs/index.js';
import { en } from '../src/i18n/catalogs/en.js';
import { chooseLocale, Languages, matchLocale, SUPPORTED_LOCALES } from '../src/i18n/index.js';
import { defaultLocaleFrom } from '../src/i18n/locales.js';
import { SRC, sourceFiles } from './_source-imports.js';

const ENGLISH_IDS = Object.keys(en);

describe('the message catalogs', () => {
  it('every message id the code names exists in English, and every English message is used by some code', () => {
    const code = sourceFiles(SRC)
      .filter((file) => !relative(SRC, file).startsWith('i18n/catalogs/'))
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    const named = new Set([...code.matchAll(/'([a-z][a-z0-9-]*(?:\.[a-z0-9-]+)+)'/g)].map((m) => m[1] as string));
    const unused = ENGLISH_IDS.filter((id) => !named.has(id));
    assert.deepEqual(unused, [], 'English messages no code uses');
    // The type MessageId checks every id at compile time; the calls written with a literal are checked here too.
    const called = [...code.matchAll(/\bt\(\s*'([^']+)'/g)].map((m) => m[1] as string);
    assert.ok(called.length > 100, `${called.length} calls`);
    assert.deepEqual(
      called.filter((id) => !(id in en)),
      [],
      'ids the code names that English does not have',
    );
  });

  it('every translation parses as ICU MessageFormat and has the arguments and tags of the English message', () => {
    const different: string[] = [];
    for (const locale of SUPPORTED_LOCALES)
      for (const [id, message] of Object.entries(CATALOGS[locale].messages)) {
        const same = isStructurallySame(parse(en[id as keyof typeof en]), parse(message));
        if (!same.success) different.push(`${locale} ${id}: ${same.error?.message ?? ''}`);
      }
    assert.deepEqual(different, []);
  });

  it('lists what each locale misses: every message of the pages is translated, and the prose of every error catalog page', () => {
    const missing = Object.fromEntries(
      SUPPORTED_LOCALES.map((locale) => [locale, ENGLISH_IDS.filter((id) => !(id in CATALOGS[locale].messages))]),
    );
    assert.deepEqual(
      Object.entries(missing).filter(([, ids]) => ids.length > 0),
      [],
      'messages of the pages a locale misses',
    );
    for (const locale of SUPPORTED_LOCALES.filter((l) => l !== 'en')) {
      const prose = [...ENGLISH_PROBLEM_PROSE.keys()].filter((slug) => CATALOGS[locale].problems[slug] === undefined);
      assert.deepEqual(prose, [], `${locale}: error catalog pages left in English`);
      for (const slug of Object.keys(CATALOGS[locale].problems)) assert.ok(ENGLISH_PROBLEM_PROSE.has(slug), slug);
    }
  });

  it('a value is escaped, the message text too, and markup comes only from tags', () => {
    const english = new Languages().text('en');
    assert.equal(
      english.t('common.signed-in-as', { username: '<b>"x"</b>' }),
      'Signed in as <strong>&#60;b&#62;&#34;x&#34;&#60;/b&#62;</strong>',
    );
  });
});

describe('choosing the language of a page', () => {
  const offered = [...SUPPORTED_LOCALES];

  it('matches tags as CLDR does: pt and pt-PT are pt-BR, zh and zh-Hans-CN are zh-CN, zh-TW is none, en-US is en', () => {
    assert.equal(matchLocale('pt', offered), 'pt-BR');
    assert.equal(matchLocale('pt-PT', offered), 'pt-BR');
    assert.equal(matchLocale('zh', offered), 'zh-CN');
    assert.equal(matchLocale('zh-Hans-CN', offered), 'zh-CN');
    assert.equal(matchLocale('zh-TW', offered), undefined);
    assert.equal(matchLocale('en-US', offered), 'en');
    assert.equal(matchLocale('not a tag', offered), undefined);
  });

  it("ui_locales (first supported wins, OIDC Core §3.1.2.1), then the chosen language, the user's, Accept-Language by q-value, the default", () => {
    const choose = (choice: Parameters<typeof chooseLocale>[0]) => chooseLocale(choice, offered, 'ja');
    const all = { requested: 'xx-YY fr de', chosen: 'es', user: 'ar', acceptLanguage: 'de;q=0.5, pt;q=0.9' };
    assert.equal(choose(all), 'fr');
    assert.equal(choose({ ...all, requested: 'xx-YY' }), 'es');
    assert.equal(choose({ ...all, requested: undefined, chosen: undefined }), 'ar');
    assert.equal(choose({ acceptLanguage: 'de;q=0.5, pt;q=0.9, *;q=0.1' }), 'pt-BR');
    assert.equal(choose({ acceptLanguage: 'zh-TW, en;q=0' }), 'ja');
    assert.equal(choose({}), 'ja');
    // A language chosen on a page of this very request beats its ui_locales.
    assert.equal(choose({ ...all, chosenHere: true }), 'es');
  });

  it('DEFAULT_LOCALE is one of the supported locales, checked at start with a clear error', () => {
    assert.equal(defaultLocaleFrom(undefined), 'en');
    assert.equal(defaultLocaleFrom('pt-BR'), 'pt-BR');
    assert.throws(
      () => defaultLocaleFrom('pt_br'),
      /DEFAULT_LOCALE is one of en, de, fr, es, pt-BR, ja, zh-CN, ar, got "pt_br"/,
    );
  });
});
