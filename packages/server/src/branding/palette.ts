import { PAGE_COLORS } from '../html/styles.js';
import { AA_TEXT_CONTRAST, contrastRatio, hexOf, mix, parseHexColor, ratioWords, type Rgb } from './contrast.js';

/**
 * The brand's colours as the pages use them, in the light and the dark scheme (the base stylesheet
 * follows `prefers-color-scheme`, html/styles.ts). The primary colour is the links', the buttons'
 * and the marks'; the background colour is the page's behind the card. Each is checked at start
 * against every colour text meets it on (WCAG 2.2 AA, SC 1.4.3, 4.5:1); the shades the pages need
 * besides (hover, soft tint, the buttons' text, the dark scheme's primary when none is set) are
 * derived so that they pass too.
 */

/** The colour settings as set, `#rgb` or `#rrggbb`; each optional. */
export interface BrandColors {
  readonly primary?: string;
  readonly primaryDark?: string;
  readonly background?: string;
  readonly backgroundDark?: string;
}

/** What a brand replaces in one scheme: the stylesheet's custom properties, as `#rrggbb`. */
export interface SchemeColors {
  readonly accent?: string;
  readonly accentHover?: string;
  readonly accentText?: string;
  readonly accentSoft?: string;
  readonly bg?: string;
}

export interface BrandPalette {
  readonly light: SchemeColors;
  readonly dark: SchemeColors;
}

/** One pair the pages draw text in: the foreground on the background, and what it is. */
export interface ContrastPair {
  readonly foreground: string;
  readonly background: string;
  readonly what: string;
}

const SETTINGS = {
  primary: 'BRAND_PRIMARY_COLOR',
  primaryDark: 'BRAND_PRIMARY_COLOR_DARK',
  background: 'BRAND_BACKGROUND_COLOR',
  backgroundDark: 'BRAND_BACKGROUND_COLOR_DARK',
} as const;

const WHITE: Rgb = { r: 255, g: 255, b: 255 };
const BLACK: Rgb = { r: 0, g: 0, b: 0 };
const rgb = (hex: string): Rgb => parseHexColor(hex)!;

function colorOf(name: keyof typeof SETTINGS, value: string | undefined): Rgb | undefined {
  if (value === undefined) return undefined;
  const color = parseHexColor(value);
  if (color === undefined)
    throw new Error(`${SETTINGS[name]} must be a colour as #rgb or #rrggbb, got ${JSON.stringify(value)}`);
  return color;
}

/** The first of `shares` (0 to 1, rising) at which `from` mixed towards `to` meets the rule against `against`. */
function firstPassing(from: Rgb, to: Rgb, against: (c: Rgb) => Rgb, shares: readonly number[]): Rgb {
  for (const share of shares) {
    const candidate = mix(from, to, share);
    if (contrastRatio(candidate, against(candidate)) >= AA_TEXT_CONTRAST) return candidate;
  }
  return to;
}

const steps = (from: number): number[] =>
  Array.from({ length: Math.round((1 - from) / 0.02) + 1 }, (_, i) => from + i * 0.02);

/** The accent's shades in one scheme: hover, the buttons' text and the soft tint the accent is drawn on. */
function accentShades(accent: Rgb, card: Rgb, dark: boolean): SchemeColors {
  // The accent meets 4.5:1 on the card: the card's own end (white in light, near-black in dark)
  // is the buttons' text, and the hover moves away from it, which only raises the contrast.
  const text = dark ? rgb(PAGE_COLORS.dark.bg) : WHITE;
  const hover = mix(accent, dark ? WHITE : BLACK, 0.15);
  // The soft tint (the user's mark, the "what to do" box) is the card tinted by the accent, as
  // little as keeps the accent readable on it.
  const soft = firstPassing(accent, card, () => accent, steps(dark ? 0.76 : 0.88));
  return { accent: hexOf(accent), accentHover: hexOf(hover), accentText: hexOf(text), accentSoft: hexOf(soft) };
}

/** The scheme's accent, refused when text in it or on it would be unreadable. */
function checkedAccent(name: 'primary' | 'primaryDark', accent: Rgb, card: Rgb, hint: string): Rgb {
  const ratio = contrastRatio(accent, card);
  if (ratio < AA_TEXT_CONTRAST)
    throw new Error(
      `${SETTINGS[name]}=${hexOf(accent)}: links in this colour on the page's card (${hexOf(card)}) have a ` +
        `contrast of ${ratioWords(ratio)}, under the ${AA_TEXT_CONTRAST}:1 that WCAG 2.2 AA asks of text ` +
        `(SC 1.4.3 Contrast (Minimum)); choose a ${hint} colour`,
    );
  return accent;
}

/** The scheme's page background, refused when the footer's text on it would be unreadable. */
function checkedBackground(name: 'background' | 'backgroundDark', bg: Rgb, scheme: 'light' | 'dark'): Rgb {
  const { text, muted } = PAGE_COLORS[scheme];
  for (const [what, color] of [
    ['the footer', muted],
    ['the page', text],
  ] as const) {
    const ratio = contrastRatio(rgb(color), bg);
    if (ratio < AA_TEXT_CONTRAST)
      throw new Error(
        `${SETTINGS[name]}=${hexOf(bg)}: the text of ${what} (${color}) on this background has a contrast of ` +
          `${ratioWords(ratio)}, under the ${AA_TEXT_CONTRAST}:1 that WCAG 2.2 AA asks of text (SC 1.4.3 ` +
          `Contrast (Minimum)); choose a ${scheme === 'light' ? 'lighter' : 'darker'} colour` +
          (scheme === 'light' ? ` (${SETTINGS.backgroundDark} sets the dark scheme's)` : ''),
      );
  }
  return bg;
}

/**
 * The palette of `colors`, or an Error naming the setting, its value and the ratio it reached. The
 * dark scheme's primary, when not set, is the primary lightened until it reads on the dark card;
 * its background, when not set, stays the pages' own.
 */
export function brandPalette(colors: BrandColors): BrandPalette {
  const primary = colorOf('primary', colors.primary);
  const primaryDark = colorOf('primaryDark', colors.primaryDark);
  const background = colorOf('background', colors.background);
  const backgroundDark = colorOf('backgroundDark', colors.backgroundDark);
  const lightCard = rgb(PAGE_COLORS.light.card);
  const darkCard = rgb(PAGE_COLORS.dark.card);
  const lightAccent = primary && checkedAccent('primary', primary, lightCard, 'darker');
  const darkAccent =
    primaryDark === undefined
      ? primary && firstPassing(primary, WHITE, () => darkCard, steps(0))
      : checkedAccent('primaryDark', primaryDark, darkCard, 'lighter');
  return {
    light: {
      ...(lightAccent && accentShades(lightAccent, lightCard, false)),
      ...(background && { bg: hexOf(checkedBackground('background', background, 'light')) }),
    },
    dark: {
      ...(darkAccent && accentShades(darkAccent, darkCard, true)),
      // The light scheme's background is set on :root, which the dark scheme would inherit: it says its own.
      ...(backgroundDark
        ? { bg: hexOf(checkedBackground('backgroundDark', backgroundDark, 'dark')) }
        : background && { bg: PAGE_COLORS.dark.bg }),
    },
  };
}

/** Every pair of colours a palette makes the pages draw text in (the property test checks each meets 4.5:1). */
export function contrastPairs(palette: BrandPalette): ContrastPair[] {
  const pairs: ContrastPair[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    const colors = palette[scheme];
    const base = PAGE_COLORS[scheme];
    const bg = colors.bg ?? base.bg;
    if (colors.accent !== undefined) {
      const { accent, accentHover, accentText, accentSoft } = colors as Required<SchemeColors>;
      pairs.push(
        { foreground: accent, background: base.card, what: `${scheme}: links on the card` },
        { foreground: accentText, background: accent, what: `${scheme}: a primary button` },
        { foreground: accentText, background: accentHover, what: `${scheme}: a primary button under the pointer` },
        { foreground: accent, background: accentSoft, what: `${scheme}: the accent on its soft tint` },
      );
    }
    pairs.push(
      { foreground: base.muted, background: bg, what: `${scheme}: the footer on the background` },
      { foreground: base.text, background: bg, what: `${scheme}: text on the background` },
    );
  }
  return pairs;
}

/** The ratio of a pair. */
export function pairRatio(pair: ContrastPair): number {
  return contrastRatio(rgb(pair.foreground), rgb(pair.background));
}
