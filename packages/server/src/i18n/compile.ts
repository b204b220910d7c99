import {
  createLiteralElement,
  isLiteralElement,
  isPluralElement,
  isSelectElement,
  isTagElement,
  parse,
  type MessageFormatElement,
} from '@formatjs/icu-messageformat-parser';
import { escapeHtml } from '../primitives/html-escape.js';

/**
 * A catalog's messages made ready to format, once when the server starts: each ICU message parsed
 * (a broken one stops the start), its literal text HTML-escaped in the tree (so that a translation
 * holding `<` or `"` cannot make markup, and formatting escapes nothing per request), and, for the
 * pseudo-locale, accented and wrapped.
 */
export type CompiledMessages = Readonly<Record<string, MessageFormatElement[]>>;

/** Parses every message of `messages`; throws naming the first that is not valid ICU MessageFormat. */
export function compileMessages(
  messages: Readonly<Record<string, string>>,
  transform: (elements: MessageFormatElement[]) => MessageFormatElement[] = escapeLiterals,
): CompiledMessages {
  const compiled: Record<string, MessageFormatElement[]> = {};
  for (const [id, message] of Object.entries(messages)) {
    try {
      compiled[id] = transform(parse(message));
    } catch (error) {
      throw new Error(`the message '${id}' is not ICU MessageFormat: ${(error as Error).message}`, { cause: error });
    }
  }
  return compiled;
}

/** The same tree with `literal` applied to every literal text, inside plurals, selects and tags too. */
function mapLiterals(elements: MessageFormatElement[], literal: (text: string) => string): MessageFormatElement[] {
  return elements.map((element): MessageFormatElement => {
    if (isLiteralElement(element)) return { ...element, value: literal(element.value) };
    if (isTagElement(element)) return { ...element, children: mapLiterals(element.children, literal) };
    if (isPluralElement(element) || isSelectElement(element)) {
      const options = Object.fromEntries(
        Object.entries(element.options).map(([key, option]) => [
          key,
          { ...option, value: mapLiterals(option.value, literal) },
        ]),
      );
      return { ...element, options };
    }
    return element;
  });
}

/** Every literal text of a message HTML-escaped: what the page shows of it is text, never markup. */
export function escapeLiterals(elements: MessageFormatElement[]): MessageFormatElement[] {
  return mapLiterals(elements, escapeHtml);
}

const PLAIN = [...'abcdeghiklnorstuyzABCDEGHIKLNORSTUYZ'];
const MARKED = [...'àƀçđéĝĥîķĺñöŕšţûýžÀƁÇĐÉĜĤÎĶĹÑÖŔŠŢÛÝŽ'];
const ACCENTED: ReadonlyMap<string, string> = new Map(PLAIN.map((c, i) => [c, MARKED[i] ?? c]));

/** Text with its letters accented: still readable, visibly not English. */
export const accented = (text: string): string => [...text].map((c) => ACCENTED.get(c) ?? c).join('');

/** The first and last mark of every message in the pseudo-locale. */
export const PSEUDO_OPEN = '⟦';
export const PSEUDO_CLOSE = '⟧';

/** The pseudo-locale's form of an English message: its letters accented, the whole wrapped in ⟦ ⟧. */
export function pseudoLocalize(elements: MessageFormatElement[]): MessageFormatElement[] {
  const marked = mapLiterals(elements, (text) => escapeHtml(accented(text)));
  return [createLiteralElement(PSEUDO_OPEN), ...marked, createLiteralElement(PSEUDO_CLOSE)];
}
