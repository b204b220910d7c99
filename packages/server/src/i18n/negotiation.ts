import { match } from '@formatjs/intl-localematcher';
import Negotiator from 'negotiator';

/**
 * What a page's language is chosen from, strongest first (docs/operating.md, "Languages"): a choice
 * the person made on a page of this very authorization request; the request's `ui_locales` (OIDC
 * Core §3.1.2.1); the person's remembered choice (the `gatehouse_locale` cookie); their account's
 * `locale` claim; their browser's Accept-Language (RFC 9110 §12.5.4); the server's DEFAULT_LOCALE.
 */
export interface LanguageChoice {
  /** `ui_locales`: space-separated BCP 47 tags in order of preference. */
  readonly requested?: string | undefined;
  /** The language chosen on a page, remembered in the cookie. */
  readonly chosen?: string | undefined;
  /** Whether `chosen` was chosen on a page of the request being shown (it then beats `ui_locales`). */
  readonly chosenHere?: boolean;
  /** The signed-in user's `locale` claim (OIDC Core §5.1). */
  readonly user?: string | undefined;
  /** The Accept-Language header. */
  readonly acceptLanguage?: string | undefined;
}

/** The tags of a list that are well-formed BCP 47 (the matcher throws on the others). */
function wellFormed(tags: readonly string[]): string[] {
  return tags.filter((tag) => {
    try {
      return Intl.getCanonicalLocales(tag).length === 1;
    } catch {
      return false;
    }
  });
}

// The matcher's answer when nothing offered fits: a valid tag no offered locale is.
const NONE = 'und';

/**
 * The offered locale that best serves one requested tag, by CLDR's language matching (`pt` and
 * `pt-PT` -> `pt-BR`, `zh` and `zh-Hans-CN` -> `zh-CN`, `zh-TW` -> none), or undefined.
 */
export function matchLocale<L extends string>(tag: string, offered: readonly L[]): L | undefined {
  const [valid] = wellFormed([tag.trim()]);
  if (valid === undefined) return undefined;
  const exact = offered.find((l) => l.toLowerCase() === valid.toLowerCase());
  if (exact !== undefined) return exact;
  const found = match([valid], offered, NONE, { algorithm: 'best fit' });
  return found === NONE ? undefined : (found as L);
}

/** ui_locales: the first tag of the list that an offered locale serves ("first supported wins"). */
function firstServed<L extends string>(list: string | undefined, offered: readonly L[]): L | undefined {
  for (const tag of (list ?? '').split(' ').filter((t) => t !== '')) {
    const locale = matchLocale(tag, offered);
    if (locale !== undefined) return locale;
  }
  return undefined;
}

/** Accept-Language by its q-values (negotiator's parser, q=0 excluded), each matched in turn. */
function acceptedLocale<L extends string>(header: string | undefined, offered: readonly L[]): L | undefined {
  if (header === undefined || header === '') return undefined;
  const preferred = new Negotiator({ headers: { 'accept-language': header } }).languages();
  for (const tag of preferred) {
    const locale = tag === '*' ? undefined : matchLocale(tag, offered);
    if (locale !== undefined) return locale;
  }
  return undefined;
}

/** The locale of a page, from `choice` in the order of LanguageChoice, else `fallback`. */
export function chooseLocale<L extends string>(choice: LanguageChoice, offered: readonly L[], fallback: L): L {
  const chosen = choice.chosen === undefined ? undefined : matchLocale(choice.chosen, offered);
  if (choice.chosenHere && chosen !== undefined) return chosen;
  return (
    firstServed(choice.requested, offered) ??
    chosen ??
    (choice.user === undefined ? undefined : matchLocale(choice.user, offered)) ??
    acceptedLocale(choice.acceptLanguage, offered) ??
    fallback
  );
}
