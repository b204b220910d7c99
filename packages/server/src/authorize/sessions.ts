import type { FastifyReply, FastifyRequest } from 'fastify';
import { digestOf } from '../primitives/secrets.js';
import { newOpaqueSecret } from '../primitives/random.js';
import type { BrowserSessionRecord } from '../store/identity-repository.js';
import type { Repository } from '../store/repository.js';
import type { SignInState } from './sign-in/state.js';
import { cookieValue, setCookie, type CookiePolicy } from '../http/cookies.js';

/**
 * Sign-in sessions of the authorization pages. A session is a row in the store (so every process
 * sharing the store knows it); the browser holds a random 256-bit value in an HttpOnly cookie and
 * the store only its SHA-256, like every other credential.
 */
const SESSION_COOKIE = 'gatehouse_session';
/** A session unused for this long ends, seconds. */
export const SESSION_IDLE_TTL = 60 * 60;
/** No session lives longer than this, however busy, seconds. */
const SESSION_ABSOLUTE_TTL = 12 * 60 * 60;
// Moving the idle expiry costs a write: do it at most every few minutes, not on every page.
const TOUCH_AFTER = 5 * 60;

export type { CookiePolicy };

/** The browser's live session, its idle expiry moved on; undefined when it has none. */
export async function currentSession(
  store: Repository,
  request: FastifyRequest,
  now: number,
): Promise<BrowserSessionRecord | undefined> {
  const value = cookieValue(request.headers.cookie, SESSION_COOKIE);
  if (value === undefined || !/^[A-Za-z0-9_-]{43}$/.test(value)) return undefined;
  const session = await store.findBrowserSession(digestOf(value), now);
  if (!session) return undefined;
  const expiresAt = idleExpiry(session.createdAt, now);
  if (expiresAt - session.expiresAt >= TOUCH_AFTER) {
    await store.touchBrowserSession(session.id, expiresAt);
    return { ...session, expiresAt };
  }
  return session;
}

function idleExpiry(createdAt: number, now: number): number {
  return Math.min(now + SESSION_IDLE_TTL, createdAt + SESSION_ABSOLUTE_TTL);
}

/**
 * Starts a session and sets its cookie: anonymous for a browser arriving without one (its forms
 * need a CSRF token before anyone signs in), or in the `state` a sign-in reached (pending or signed in).
 */
export async function startSession(
  store: Repository,
  reply: FastifyReply,
  policy: CookiePolicy,
  now: number,
  state: SignInState = { status: 'anonymous' },
): Promise<BrowserSessionRecord> {
  // Anonymous sessions are cheap to make: clear the dead ones as new ones come.
  await store.deleteExpiredBrowserSessions(now);
  const value = newOpaqueSecret();
  const session: BrowserSessionRecord = {
    id: digestOf(value),
    csrfToken: newOpaqueSecret(),
    username: state.status === 'anonymous' ? null : state.username,
    authenticatedAt: state.status === 'signed_in' ? state.authTime : null,
    pending: state.status === 'pending',
    methods: state.status === 'anonymous' ? [] : state.methods,
    createdAt: now,
    expiresAt: idleExpiry(now, now),
  };
  await store.insertBrowserSession(session);
  reply.header('set-cookie', sessionCookie(value, policy));
  return session;
}

/**
 * Signs a browser in: the old session (and its CSRF token) is dropped and a new one with a new
 * cookie value begins, so that a session id planted before sign-in is worth nothing after it
 * (session fixation, OWASP ASVS V3.2.1). Each step of a sign-in (pending, then signed in) does so.
 */
export async function signIn(
  store: Repository,
  reply: FastifyReply,
  policy: CookiePolicy,
  old: BrowserSessionRecord,
  state: Exclude<SignInState, { status: 'anonymous' }>,
  now: number,
): Promise<BrowserSessionRecord> {
  await store.deleteBrowserSession(old.id);
  return startSession(store, reply, policy, now, state);
}

function sessionCookie(value: string, policy: CookiePolicy): string {
  return setCookie(SESSION_COOKIE, value, SESSION_ABSOLUTE_TTL, policy);
}

/**
 * The opaque subject of the user a signed-in session names. A session keeps the username (a
 * foreign key to users: renaming or removing the user ends it); grants, codes and device approvals
 * name the user by its subject (OIDC Core §2). Undefined when the user was removed meanwhile.
 */
export async function signedInSubject(
  store: Pick<Repository, 'findUser'>,
  session: { readonly username: string },
): Promise<string | undefined> {
  return (await store.findUser(session.username))?.subject;
}
