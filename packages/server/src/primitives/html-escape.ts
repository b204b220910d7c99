/**
 * Escapes text for HTML content and double-quoted attribute values: the one escaping helper of every
 * page and message (html/layout.ts re-exports it for the pages; the message catalog escapes its
 * literal text and every value with it, i18n/).
 */
export function escapeHtml(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
