import { Parser } from 'htmlparser2';
import { PSEUDO_CLOSE, PSEUDO_OPEN } from '../src/i18n/compile.js';

/** The attributes a person reads or hears: each must be a message of the catalog. */
const SPOKEN_ATTRIBUTES = [
  'title',
  'aria-label',
  'placeholder',
  'alt',
  'data-checking',
  'data-not-used',
  'data-failed',
];

/** Text with every message of the pseudo-locale (⟦…⟧, nested or not) taken out. */
function withoutMessages(text: string): string {
  let depth = 0;
  let rest = '';
  for (const c of text) {
    if (c === PSEUDO_OPEN) depth += 1;
    else if (c === PSEUDO_CLOSE) depth = Math.max(0, depth - 1);
    else if (depth === 0) rest += c;
  }
  return rest;
}

/** Only spaces, punctuation and symbols (the marks, the · between parts) may stand outside a message. */
const wordless = (text: string): boolean => /^[\s\p{P}\p{S}]*$/u.test(withoutMessages(text));

/**
 * What of a page did not come through the catalog: its visible text and spoken attributes outside
 * every message, except inside an element marked translate="no" (a value: a name, a code, a wire
 * value, the languages by their own names), a script or a style.
 */
export function untranslated(html: string): string[] {
  const found: string[] = [];
  const skipping: boolean[] = [];
  let text = '';
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const skip =
          (skipping.at(-1) ?? false) || attributes.translate === 'no' || name === 'script' || name === 'style';
        skipping.push(skip);
        if (skip) return;
        const spoken = SPOKEN_ATTRIBUTES.map((a) => attributes[a]).filter((v) => v !== undefined && v !== '');
        if (name === 'input' && ['submit', 'button'].includes(attributes.type ?? '')) spoken.push(attributes.value);
        for (const value of spoken) if (value !== undefined && !wordless(value)) found.push(`${name}[…]: ${value}`);
      },
      ontext(data) {
        if (!(skipping.at(-1) ?? false)) text += data;
      },
      onclosetag() {
        skipping.pop();
        text += '\n';
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  for (const line of withoutMessages(text).split('\n')) if (!wordless(line)) found.push(line.trim());
  return found;
}
