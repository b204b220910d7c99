export { Languages, Markup, type MessageValue, type MessageValues, type PageText } from './languages.js';
export type { MessageId } from './catalogs/en.js';
export { englishProblemProse } from './catalogs/index.js';
export {
  defaultLocaleFrom,
  directionOf,
  isLocale,
  LOCALE_NAMES,
  PSEUDO_LOCALE,
  SOURCE_LOCALE,
  SUPPORTED_LOCALES,
  type Direction,
  type Locale,
  type PageLocale,
} from './locales.js';
export { chooseLocale, matchLocale, type LanguageChoice } from './negotiation.js';
