import {
  isArgumentElement,
  isLiteralElement,
  isNumberElement,
  isPluralElement,
  isPoundElement,
  isSelectElement,
  parse,
  type MessageFormatElement,
} from '@formatjs/icu-messageformat-parser';

export type MessageValues = Readonly<Record<string, string | number>>;

/**
 * Formats one ICU MessageFormat message (the format of the server's page catalogs): arguments,
 * numbers, plurals (with `#`) and selects. The console renders text only: no tags, and the result
 * is put in the page as text, never as markup.
 */
export function formatMessage(message: string, locale: string, values: MessageValues = {}): string {
  return render(parsed(message), locale, values, undefined);
}

const cache = new Map<string, MessageFormatElement[]>();

function parsed(message: string): MessageFormatElement[] {
  let elements = cache.get(message);
  if (elements === undefined) {
    elements = parse(message, { ignoreTag: true });
    cache.set(message, elements);
  }
  return elements;
}

function render(
  elements: readonly MessageFormatElement[],
  locale: string,
  values: MessageValues,
  count: number | undefined,
): string {
  let out = '';
  for (const element of elements) {
    if (isLiteralElement(element)) out += element.value;
    else if (isPoundElement(element)) out += count === undefined ? '#' : new Intl.NumberFormat(locale).format(count);
    else if (isNumberElement(element)) out += new Intl.NumberFormat(locale).format(Number(values[element.value] ?? 0));
    else if (isArgumentElement(element)) out += String(values[element.value] ?? '');
    else if (isPluralElement(element)) {
      const n = Number(values[element.value] ?? 0);
      const exact = element.options[`=${n}`];
      const category = new Intl.PluralRules(locale, { type: element.pluralType }).select(n - element.offset);
      const option = exact ?? element.options[category] ?? element.options.other;
      out += option === undefined ? '' : render(option.value, locale, values, n - element.offset);
    } else if (isSelectElement(element)) {
      const option = element.options[String(values[element.value] ?? '')] ?? element.options.other;
      out += option === undefined ? '' : render(option.value, locale, values, count);
    }
  }
  return out;
}
