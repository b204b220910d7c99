/**
 * Colour contrast as WCAG 2.2 defines it (§ Definitions, "contrast ratio" and "relative luminance",
 * sRGB with the 0.04045 threshold): the rule the brand colours are checked against at start, so that
 * every text the pages draw on or in a brand colour stays readable (SC 1.4.3, 4.5:1 for text).
 */

/** A colour in sRGB, each channel 0 to 255. */
export interface Rgb {
  readonly r: number;
  readonly g: number;
  readonly b: number;
}

/** WCAG 2.2 AA, SC 1.4.3 Contrast (Minimum): text and images of text. */
export const AA_TEXT_CONTRAST = 4.5;

const HEX = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;

/** `#rgb` or `#rrggbb` as a colour; undefined for anything else. */
export function parseHexColor(value: string): Rgb | undefined {
  const match = HEX.exec(value.trim());
  if (match === null) return undefined;
  const digits = match[1]!;
  const full = digits.length === 3 ? [...digits].map((d) => d + d).join('') : digits;
  return { r: parseInt(full.slice(0, 2), 16), g: parseInt(full.slice(2, 4), 16), b: parseInt(full.slice(4, 6), 16) };
}

/** `#rrggbb`, lowercase. */
export function hexOf({ r, g, b }: Rgb): string {
  return `#${[r, g, b].map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;
}

function linear(channel: number): number {
  const c = channel / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** WCAG 2.2 relative luminance: 0 for black, 1 for white. */
export function relativeLuminance({ r, g, b }: Rgb): number {
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** WCAG 2.2 contrast ratio, (L1 + 0.05) / (L2 + 0.05) with L1 the lighter: 1 to 21. */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** A ratio as a person reads it, rounded down so that a colour just under the rule never shows as meeting it. */
export function ratioWords(ratio: number): string {
  return `${(Math.floor(ratio * 100) / 100).toFixed(2)}:1`;
}

/** `a` mixed with `b`, `share` of `b` (0: `a`, 1: `b`). */
export function mix(a: Rgb, b: Rgb, share: number): Rgb {
  const at = (x: number, y: number) => Math.round(x + (y - x) * share);
  return { r: at(a.r, b.r), g: at(a.g, b.g), b: at(a.b, b.b) };
}
