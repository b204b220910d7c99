/**
 * The operator's brand (BRAND_*): its settings read and checked (the colours against WCAG 2.2 AA
 * contrast), and the brand the pages show, made from them at start.
 */
export { brandSettingsFromEnv, DEFAULT_BRAND_NAME, type BrandSettings } from './settings.js';
export { loadBrand } from './load.js';
export {
  brandPalette,
  contrastPairs,
  pairRatio,
  type BrandColors,
  type BrandPalette,
  type ContrastPair,
} from './palette.js';
export { AA_TEXT_CONTRAST, contrastRatio, hexOf, parseHexColor, relativeLuminance, type Rgb } from './contrast.js';
