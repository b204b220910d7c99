import type { BrandPalette, SchemeColors } from './palette.js';

/**
 * The brand's colours as a stylesheet the pages load after their own (html/styles.ts): it sets the
 * custom properties the base stylesheet draws with, in the light scheme and, under
 * `prefers-color-scheme: dark`, in the dark one. No inline style: the CSP stays `style-src 'self'`.
 */
const PROPERTIES: { readonly [K in keyof SchemeColors]-?: string } = {
  accent: '--accent',
  accentHover: '--accent-hover',
  accentText: '--accent-text',
  accentSoft: '--accent-soft',
  bg: '--bg',
};

function declarations(colors: SchemeColors): string {
  return Object.entries(PROPERTIES)
    .flatMap(([key, property]) => {
      const value = colors[key as keyof SchemeColors];
      return value === undefined ? [] : [`${property}: ${value};`];
    })
    .join(' ');
}

/** The palette's rules; empty when it sets nothing. */
export function paletteStylesheet(palette: BrandPalette): string {
  const light = declarations(palette.light);
  const dark = declarations(palette.dark);
  return [
    light === '' ? '' : `:root { ${light} }\n`,
    dark === '' ? '' : `@media (prefers-color-scheme: dark) {\n  :root { ${dark} }\n}\n`,
  ].join('');
}
