import assert from 'node:assert/strict';
import type { Store } from '../src/store/store.js';

/** The key an enrolment page shows in text (the QR code's secret), without its spaces. */
export function enrolmentSecret(html: string): string {
  const match = /<p class="secret" id="totp-secret" translate="no">([A-Z2-7 ]+)<\/p>/.exec(html);
  assert.ok(match, 'the page shows the key in text');
  return (match[1] as string).replaceAll(' ', '');
}

/** The recovery codes a page shows once. */
export function recoveryCodes(html: string): string[] {
  const list = /<ul class="recovery-codes" id="recovery-codes"[^>]*>(.*?)<\/ul>/s.exec(html)?.[1] ?? '';
  return [...list.matchAll(/<li>([^<]+)<\/li>/g)].map((m) => m[1] as string);
}

/**
 * `store` whose transactions cannot insert an audit row (the insert throws): what a step's change
 * written in one transaction with its event must not survive.
 */
export function withFailingAuditInsert(store: Store): Store {
  const bound = <T extends object>(target: T, key: string | symbol): unknown => {
    const value: unknown = Reflect.get(target, key);
    return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
  };
  return new Proxy(store, {
    get(target, key) {
      if (key !== 'transaction') return bound(target, key);
      return (work: (tx: object) => Promise<unknown>) =>
        target.transaction((tx) =>
          work(
            new Proxy(tx, {
              get: (t, k) =>
                k === 'insertAuditEvent'
                  ? async () => {
                      throw new Error('the audit insert failed');
                    }
                  : bound(t, k),
            }),
          ),
        );
    },
  });
}
