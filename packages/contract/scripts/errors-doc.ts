import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { OAUTH_ERRORS, OAUTH_REASONS, PROBLEMS, statusOfOAuthReason, type OAuthReasonEntry } from '../src/index.js';

/** docs/errors.md, rendered from the catalog: `npm run docs:errors` writes it, a test checks it is current. */
export const ERRORS_DOC_PATH = fileURLToPath(new URL('../../../docs/errors.md', import.meta.url));

export function renderErrorsDoc(): string {
  const lines = [
    '# Error catalog',
    '',
    '<!-- Generated from packages/contract/src/errors by `npm run docs:errors`; do not edit by hand. -->',
    '',
    'Every error Gatehouse answers is one of these. The server serves each page below at',
    '`/problems/{page}`; OAuth errors name it in `error_uri`, REST problems in `type`. `/problems/`',
    'lists them all, each OAuth reason linking to its line (`/problems/{page}#{reason}`).',
    '',
    '## OAuth 2.0 errors (RFC 6749 §5.2)',
    '',
    'Body: `{"error": …, "error_description": …, "error_uri": …}`, with `Cache-Control: no-store` and `Pragma: no-cache`.',
    '',
    '### Refresh-token states',
    '',
    'What a refresh (`grant_type=refresh_token`) answers for a token in each state; where several apply, the first row that does wins.',
    '',
    '| state | answer |',
    '|---|---|',
    "| in the replay window: rotated less than the client's `replay_window` ago, its successor unused, presented by its client | 200 with the same successor (byte for byte) and a new access token; nothing consumed |",
    '| past rotation limit (used up, or the family at `max_rotations`) | `invalid_grant` / `refresh token is past its rotation limit`; a replay revokes the family |',
    '| revoked (by the client, an operator, reuse detection; or superseded) | `invalid_grant` / `refresh token has been revoked` |',
    '| expired (idle or absolute lifetime) | `invalid_grant` / `refresh token has expired` |',
    '| active | 200: rotated into a new token (or, rotation off, kept) |',
    '',
    'Every refusal is permanent and identical on every retry; the replay window is off unless the client has one.',
    '',
  ];
  for (const entry of Object.values(OAUTH_ERRORS)) {
    lines.push(
      `### \`${entry.error}\` — ${entry.title}`,
      '',
      `Page: \`/problems/${entry.page}\` · status ${entry.status} · ${entry.transient ? 'transient: retry with backoff' : 'permanent: retrying the same request fails again'}`,
      '',
    );
    lines.push(
      entry.summary,
      '',
      `**What the client must do:** ${entry.clientAction}`,
      '',
      '| reason | status | `error_description` |',
      '|---|---|---|',
    );
    for (const [name, reason] of Object.entries(OAUTH_REASONS) as [keyof typeof OAUTH_REASONS, OAuthReasonEntry][]) {
      if (reason.error === entry.error)
        lines.push(`| \`${name}\` | ${statusOfOAuthReason(name)} | \`${reason.description}\` |`);
    }
    lines.push('');
  }
  lines.push(
    '## REST API problems (RFC 9457)',
    '',
    'Body: `application/problem+json` with `type`, `title`, `status`, `detail`, `instance`, and `errors` for field-level problems.',
    'The sign-in and consent pages (`/authorize`, `/login`, `/consent`) show the same entries as HTML pages, with the same status.',
    '',
  );
  for (const p of Object.values(PROBLEMS)) {
    lines.push(
      `### \`${p.code}\` — ${p.title}`,
      '',
      `Page: \`/problems/${p.slug}\` · status ${p.status} · ${p.transient ? 'transient: retry with backoff' : 'permanent: retrying the same request fails again'}`,
      '',
    );
    lines.push(p.summary, '', `**What the client must do:** ${p.clientAction}`, '');
  }
  return `${lines.join('\n')}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(ERRORS_DOC_PATH, renderErrorsDoc());
  console.log(`wrote ${ERRORS_DOC_PATH}`);
}
