import { MAX_JSON_DEPTH, ProblemError, TOO_DEEP_DETAIL } from '@gatehouse/contract';

/**
 * How deep arrays and objects may nest in a request body (RFC 8259 §9 lets a parser limit it): a
 * 5000-deep PATCH body once ended in a 500 here. The limit and its detail live in the contract, so
 * that the client SDK refuses the same bodies before sending, with the same answer.
 */
export { MAX_JSON_DEPTH };

// `fatal` refuses malformed UTF-8 instead of replacing it; a leading BOM is dropped, as RFC 8259 §8.1 allows.
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A JSON request body, or the catalog's malformed-json problem: the bytes must be UTF-8 (RFC 8259
 * §8.1), so that a body that is not is refused rather than stored with U+FFFD in place of what was
 * sent; the text must parse; and it must nest at most MAX_JSON_DEPTH levels. JSON.parse makes
 * `__proto__` an own property, never a prototype.
 */
export function parseJsonBody(body: Buffer): unknown {
  let text: string;
  try {
    text = STRICT_UTF8.decode(body);
  } catch {
    throw new ProblemError('malformed_json', 'The request body is not UTF-8.');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ProblemError(
      'malformed_json',
      text.trim() === '' ? 'The request body is empty; send a JSON object.' : 'The request body is not valid JSON.',
    );
  }
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) throw new ProblemError('malformed_json', TOO_DEEP_DETAIL);
  return value;
}

/** Whether the brackets of a valid JSON text nest deeper than `max`, counting none inside strings. */
export function nestsDeeperThan(text: string, max: number): boolean {
  // Nesting max + 1 levels takes max + 1 opening and as many closing brackets: most bodies are
  // too short to, and need no scan.
  if (text.length < 2 * (max + 1)) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}
