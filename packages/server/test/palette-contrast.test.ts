import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AA_TEXT_CONTRAST, contrastRatio, parseHexColor, ratioWords } from '../src/branding/contrast.js';
import { STYLESHEET } from '../src/html/styles.js';

/** The custom properties of one `:root { … }` block, by name. */
function propertiesOf(block: string): Map<string, string> {
  return new Map([...block.matchAll(/--([a-z-]+):\s*([^;]+);/g)].map((m) => [m[1] as string, (m[2] as string).trim()]));
}

/** The shipped palette in each scheme: the light `:root`, and the dark one over it (prefers-color-scheme). */
function schemes(): { light: Map<string, string>; dark: Map<string, string> } {
  const light = /^:root \{([^}]*)\}/.exec(STYLESHEET)?.[1];
  const dark = /@media \(prefers-color-scheme: dark\) \{\s*:root \{([^}]*)\}/.exec(STYLESHEET)?.[1];
  assert.ok(light !== undefined && dark !== undefined, 'the stylesheet has a light and a dark :root');
  const lightProperties = propertiesOf(light);
  return { light: lightProperties, dark: new Map([...lightProperties, ...propertiesOf(dark)]) };
}

/** One rule of the stylesheet: its selector and the custom properties its text and its background are. */
interface Rule {
  readonly selector: string;
  readonly color?: string;
  readonly background?: string;
}

function rules(): Rule[] {
  const body = STYLESHEET.replace(/^:root \{[^}]*\}/, '').replace(/@media[^{]*\{\s*:root \{[^}]*\}\s*\}/g, '');
  return [...body.matchAll(/([^{}]+)\{([^{}]*)\}/g)].map((m) => {
    const declarations = m[2] as string;
    const color = /(?:^|[;\s])color:\s*var\(--([a-z-]+)\)/.exec(declarations)?.[1];
    const background = /background(?:-color)?:\s*var\(--([a-z-]+)\)/.exec(declarations)?.[1];
    return {
      selector: (m[1] as string).replace(/\/\*[^]*?\*\//g, '').trim(),
      ...(color === undefined ? {} : { color }),
      ...(background === undefined ? {} : { background }),
    };
  });
}

/** Shapes with no text in them (WCAG 2.2 SC 1.4.11 asks 3:1 of them, not 4.5:1): the consent page's tick. */
const NOT_TEXT = new Set(['.tick']);

/**
 * Every text the pages draw and what it is drawn on. A rule giving both a text colour and a
 * background is one pair; a hover giving only a background keeps the text of its rule; every other
 * text colour (and the body's) may stand on every surface that content sits on: the card, the page
 * behind it, and each background a rule gives without a text colour of its own.
 */
function textPairs(): { foreground: string; background: string; where: string }[] {
  const all = rules().filter((r) => !NOT_TEXT.has(r.selector));
  const colorOf = new Map(all.filter((r) => r.color !== undefined).map((r) => [r.selector, r.color as string]));
  const pairs: { foreground: string; background: string; where: string }[] = [];
  const foregrounds = new Set(['text']);
  const surfaces = new Set(['card', 'bg']);
  for (const rule of all) {
    if (rule.color !== undefined && rule.background !== undefined)
      pairs.push({ foreground: rule.color, background: rule.background, where: rule.selector });
    else if (rule.background !== undefined) {
      const base = colorOf.get(rule.selector.replace(/:(hover|focus|focus-visible|active)$/, ''));
      if (base !== undefined) pairs.push({ foreground: base, background: rule.background, where: rule.selector });
      else surfaces.add(rule.background);
    } else if (rule.color !== undefined) foregrounds.add(rule.color);
  }
  for (const foreground of foregrounds)
    for (const background of surfaces) pairs.push({ foreground, background, where: 'content' });
  return pairs;
}

describe('the base palette meets WCAG 2.2 AA contrast in both schemes', () => {
  it('the pairs are read from the stylesheet: buttons, the notice, the alert, links and muted text on every surface', () => {
    const pairs = textPairs().map((p) => `${p.foreground} on ${p.background}`);
    for (const expected of [
      'accent-text on accent',
      'accent-text on accent-hover',
      'ok on ok-soft',
      'danger on danger-soft',
      'accent on accent-soft',
      'muted on card',
      'muted on bg',
      'accent on card',
      'text on accent-soft',
    ])
      assert.ok(pairs.includes(expected), expected);
  });

  for (const scheme of ['light', 'dark'] as const)
    it(`every text colour of the ${scheme} scheme reaches 4.5:1 on what it is drawn on (SC 1.4.3)`, () => {
      const palette = schemes()[scheme];
      const below: string[] = [];
      for (const { foreground, background, where } of textPairs()) {
        const fg = parseHexColor(palette.get(foreground) ?? '');
        const bg = parseHexColor(palette.get(background) ?? '');
        assert.ok(fg && bg, `${scheme}: --${foreground} and --${background} are #rrggbb colours (${where})`);
        const ratio = contrastRatio(fg, bg);
        if (ratio < AA_TEXT_CONTRAST) below.push(`${where}: --${foreground} on --${background} ${ratioWords(ratio)}`);
      }
      assert.deepEqual(below, []);
    });
});
