import { ProblemError } from '@gatehouse/contract';
import type { BrowserSessionRecord } from '../store/identity-repository.js';
import { constantTimeEqual } from '../primitives/constant-time.js';

/** The name of the hidden field every form carries. */
export const CSRF_FIELD = 'csrf_token';

/**
 * Synchronizer-token CSRF defence (OWASP CSRF Prevention Cheat Sheet): every form carries its
 * session's random token, and a POST is accepted only when the browser's session cookie names a
 * live session whose token equals the one sent. SameSite=Lax on the cookie is a second layer, not
 * the defence. Throws `csrf_token_invalid` (403) otherwise.
 */
export function checkCsrfToken(
  session: BrowserSessionRecord | undefined,
  presented: string | undefined,
): BrowserSessionRecord {
  if (!session || presented === undefined || !constantTimeEqual(presented, session.csrfToken))
    throw new ProblemError('csrf_token_invalid');
  return session;
}
