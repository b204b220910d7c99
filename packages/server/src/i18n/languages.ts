import { createIntl, createIntlCache, type IntlShape } from '@formatjs/intl';
import { escapeHtml } from '../primitives/html-escape.js';
import { CATALOGS, englishProblemProse } from './catalogs/index.js';
import type { ProblemProse } from './catalogs/catalog.js';
import { en, type MessageId } from './catalogs/en.js';
import {
  accented,
  compileMessages,
  pseudoLocalize,
  PSEUDO_CLOSE,
  PSEUDO_OPEN,
  type CompiledMessages,
} from './compile.js';
import {
  directionOf,
  PSEUDO_LOCALE,
  SOURCE_LOCALE,
  SUPPORTED_LOCALES,
  type Direction,
  type Locale,
  type PageLocale,
} from './locales.js';
import { chooseLocale, type LanguageChoice } from './negotiation.js';

/** HTML a caller made (escaped already), passed as a message's value as it is. */
export class Markup {
  readonly html: string;
  constructor(html: string) {
    this.html = html;
  }
}

/** A message's value: text (escaped), a number (formatted by the locale's rules), markup, or a tag. */
export type MessageValue = string | number | Markup | ((chunks: string[]) => string);
export type MessageValues = Readonly<Record<string, MessageValue>>;

/**
 * The words of a page in one locale: its messages as HTML and its dates, through the locale's Intl
 * formatters (made once per locale and kept: @formatjs/intl's cache).
 */
export interface PageText {
  readonly locale: PageLocale;
  readonly dir: Direction;
  /** A message as HTML: its own text escaped when compiled, every string value escaped here. */
  readonly t: (id: MessageId, values?: MessageValues) => string;
  /** A day, in UTC (a page has no script to learn the browser's zone). */
  readonly date: (seconds: number) => string;
  /** A day and time, in UTC with the zone named. */
  readonly dateTime: (seconds: number) => string;
  /** A moment relative to `now`, in the largest unit that fits ("3 days ago", "yesterday"). */
  readonly relative: (seconds: number, now: number) => string;
  /** What a page says about an entry of the error catalog, by its page slug, as HTML. */
  readonly problem: (slug: string) => ProblemProse;
}

/**
 * The markup of the tags every message may use: bold, code, an application's name and a host (as
 * they are, never translated), and a value of the wire (in English, as sent).
 */
const TAGS = {
  b: (chunks: string[]) => `<strong>${chunks.join('')}</strong>`,
  code: (chunks: string[]) => `<code>${chunks.join('')}</code>`,
  app: (chunks: string[]) => `<strong class="client-name" translate="no">${chunks.join('')}</strong>`,
  site: (chunks: string[]) => `<strong class="client-host" translate="no">${chunks.join('')}</strong>`,
  wire: (chunks: string[]) => `<q lang="en" translate="no">${chunks.join('')}</q>`,
};

const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86400],
  ['month', 30 * 86400],
  ['day', 86400],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

function prepared(values: MessageValues | undefined): Record<string, string | number | ((c: string[]) => string)> {
  const out: Record<string, string | number | ((c: string[]) => string)> = {};
  for (const [name, value] of Object.entries(values ?? {}))
    out[name] = typeof value === 'string' ? escapeHtml(value) : value instanceof Markup ? value.html : value;
  return out;
}

function pageText(locale: PageLocale, messages: CompiledMessages, problems: (slug: string) => ProblemProse): PageText {
  const intl: IntlShape<string> = createIntl(
    {
      locale,
      defaultLocale: SOURCE_LOCALE,
      messages,
      defaultRichTextElements: TAGS,
      onError: (error) => {
        throw error;
      },
    },
    createIntlCache(),
  );
  const utc = { timeZone: 'UTC' } as const;
  return {
    locale,
    dir: directionOf(locale),
    // One message, every value a string, a number or a tag making text: the result is text.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
    t: (id, values) => intl.formatMessage({ id }, prepared(values)) as string,
    date: (seconds) => intl.formatDate(seconds * 1000, { ...utc, day: 'numeric', month: 'long', year: 'numeric' }),
    dateTime: (seconds) =>
      intl.formatDate(seconds * 1000, {
        ...utc,
        day: 'numeric',
        month: 'long',
        year: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        timeZoneName: 'short',
      }),
    relative: (seconds, now) => {
      const delta = seconds - now;
      const [unit, size] = UNITS.find(([, s]) => Math.abs(delta) >= s) ?? ['second', 1];
      return intl.formatRelativeTime(Math.round(delta / size), unit, { numeric: 'auto' });
    },
    problem: problems,
  };
}

const escapedProse = (p: ProblemProse): ProblemProse => ({
  title: escapeHtml(p.title),
  summary: escapeHtml(p.summary),
  action: escapeHtml(p.action),
});

/** The English prose of a catalog page when a locale has no translation of it. */
function proseIn(locale: Locale): (slug: string) => ProblemProse {
  const cache = new Map<string, ProblemProse>();
  return (slug) => {
    let prose = cache.get(slug);
    if (prose === undefined) {
      const english = englishProblemProse(slug);
      prose = escapedProse(CATALOGS[locale].problems[slug] ?? english);
      cache.set(slug, prose);
    }
    return prose;
  };
}

function pseudoProse(slug: string): ProblemProse {
  const wrap = (text: string): string => `${PSEUDO_OPEN}${escapeHtml(accented(text))}${PSEUDO_CLOSE}`;
  const english = englishProblemProse(slug);
  return { title: wrap(english.title), summary: wrap(english.summary), action: wrap(english.action) };
}

let compiled: ReadonlyMap<PageLocale, PageText> | undefined;

/**
 * Every catalog, compiled once per process (the first server or command that asks): English, each
 * locale over English (a message it lacks is the English one), and the pseudo-locale.
 */
function compiledTexts(): ReadonlyMap<PageLocale, PageText> {
  if (compiled !== undefined) return compiled;
  const english = compileMessages(en);
  const texts = new Map<PageLocale, PageText>();
  for (const locale of SUPPORTED_LOCALES) {
    const own = compileMessages(CATALOGS[locale].messages);
    texts.set(locale, pageText(locale, { ...english, ...own }, proseIn(locale)));
  }
  texts.set(PSEUDO_LOCALE, pageText(PSEUDO_LOCALE, compileMessages(en, pseudoLocalize), pseudoProse));
  compiled = texts;
  return texts;
}

/** The languages a server's pages speak: the supported locales (and the tests' pseudo-locale), and its default. */
export class Languages {
  readonly defaultLocale: Locale;
  /** The locales a page may be in, in the switcher's order. */
  readonly offered: readonly PageLocale[];
  readonly #texts: ReadonlyMap<PageLocale, PageText>;

  constructor(options: { readonly defaultLocale?: Locale; readonly pseudoLocale?: boolean } = {}) {
    this.defaultLocale = options.defaultLocale ?? SOURCE_LOCALE;
    this.offered = options.pseudoLocale ? [...SUPPORTED_LOCALES, PSEUDO_LOCALE] : SUPPORTED_LOCALES;
    this.#texts = compiledTexts();
  }

  /** The words of a page in `locale` (an offered one). */
  text(locale: PageLocale): PageText {
    return this.#texts.get(locale) ?? (this.#texts.get(this.defaultLocale) as PageText);
  }

  /** The locale of a page, from what the request and the person say (negotiation.ts). */
  choose(choice: LanguageChoice): PageLocale {
    return chooseLocale(choice, this.offered, this.defaultLocale);
  }
}
