import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  isReplay,
  refreshTokenState,
  type PresentedRefreshToken,
  type RefreshTokenState,
  type SuccessorView,
} from '../src/oauth/tokens/refresh-token-lifecycle.js';
import type { GrantRecord, RefreshPolicy, RefreshTokenRecord } from '../src/primitives/records.js';

/**
 * The refresh-token state table as data: each row is a row of the spec's table (error-contract.md,
 * "States and transitions"), of the lifecycle table (docs/architecture.md, "Grants and refresh-token
 * families", and the comment of refresh-token-lifecycle.ts), or one of the precedence rules, and is
 * checked against `refreshTokenState` and `isReplay`, the functions that are that table. Pure: no store.
 */

const DAY = 86_400;
const NOW = 1_800_000_000;
/** The token presented, and tokens of its family issued after it. */
const PRESENTED = 'token-presented';
const NEWER = 'token-newer';
const NEWEST = 'token-newest';

const POLICY: RefreshPolicy = {
  rotation: true,
  rotationLimit: 1,
  maxRotations: null,
  refreshTokenTtl: 14 * DAY,
  refreshTokenAbsoluteTtl: 90 * DAY,
  replayWindow: 0,
};

/** A family of one rotation's age whose head is the presented token, unused, live for days to come. */
const TOKEN: RefreshTokenRecord = {
  id: PRESENTED,
  grantId: 'grant',
  useCount: 0,
  issuedAt: NOW - DAY,
  expiresAt: NOW + 13 * DAY,
};
const GRANT: GrantRecord = {
  id: 'grant',
  clientId: 'app',
  subject: 'alice',
  scope: ['contacts:read'],
  createdAt: NOW - 10 * DAY,
  expiresAt: NOW + 80 * DAY,
  rotationCount: 1,
  headTokenId: PRESENTED,
  previousTokenId: 'token-before',
  revokedAt: null,
  revokedReason: null,
  rotatedAt: NOW - DAY,
};

interface Row {
  /** The state column, in the table's words. */
  readonly state: string;
  /** The trigger and its condition. */
  readonly when: string;
  readonly token?: Partial<RefreshTokenRecord>;
  readonly grant?: Partial<GrantRecord>;
  readonly policy?: Partial<RefreshPolicy>;
  /** The head, when the exchange found it to be the presented token's derived successor. */
  readonly successor?: SuccessorView | null;
  /** Seconds after NOW at which the token is presented. */
  readonly at?: number;
  readonly expected: RefreshTokenState;
  /** Presenting it is reuse (RFC 9700 §4.14.2): the exchange revokes the whole family. */
  readonly replay: boolean;
}

/** The old token once a refresh with rotation has used it and issued NEWER as the head. */
const ROTATED_AWAY = {
  token: { useCount: 1 },
  grant: { rotationCount: 2, headTokenId: NEWER, previousTokenId: PRESENTED },
};
const REVOKED = { revokedAt: NOW - 60, revokedReason: 'revoked_by_client' } as const;
/** Rotated 10 s ago into NEWER, which is unused and derived from it; the client's window is 30 s. */
const IN_WINDOW = {
  token: { useCount: 1 },
  grant: { rotationCount: 2, headTokenId: NEWER, previousTokenId: PRESENTED, rotatedAt: NOW - 10 },
  successor: { useCount: 0, expiresAt: NOW + DAY } as SuccessorView | null | undefined,
  policy: { replayWindow: 30 },
} as const;

const TABLES: readonly { readonly table: string; readonly rows: readonly Row[] }[] = [
  {
    table: "the spec's state table (error-contract.md, States and transitions)",
    rows: [
      {
        state: 'active refresh token',
        when: 'refresh succeeds with rotation in use (rotation enabled)',
        expected: 'active',
        replay: false,
      },
      {
        state: 'the old token of that refresh',
        when: 'presented again (rotation enabled: the old token is invalid)',
        ...ROTATED_AWAY,
        expected: 'past_rotation_limit',
        replay: true,
      },
      {
        state: 'expired refresh token',
        when: 'refresh attempt, any condition',
        at: 13 * DAY,
        expected: 'expired',
        replay: false,
      },
      {
        state: 'revoked refresh token',
        when: 'refresh attempt, any condition',
        grant: REVOKED,
        expected: 'revoked',
        replay: false,
      },
      {
        state: 'past-limit refresh token',
        when: 'refresh attempt, any condition',
        token: { useCount: 1 },
        expected: 'past_rotation_limit',
        replay: true,
      },
    ],
  },
  {
    table: 'the lifecycle table (docs/architecture.md, refresh-token-lifecycle.ts)',
    rows: [
      {
        state: 'active',
        when: 'refresh, rotation on, uses < limit (0 of 1)',
        expected: 'active',
        replay: false,
      },
      {
        state: 'active',
        when: 'refresh, rotation on, uses < limit (2 of 3)',
        token: { useCount: 2 },
        policy: { rotationLimit: 3 },
        expected: 'active',
        replay: false,
      },
      {
        state: 'active (the previous token, its response lost)',
        when: 'refresh, rotation on, uses < limit (1 of 2): not superseded while it has uses left',
        token: { useCount: 1 },
        grant: { rotationCount: 2, headTokenId: NEWER, previousTokenId: PRESENTED },
        policy: { rotationLimit: 2 },
        expected: 'active',
        replay: false,
      },
      {
        state: 'active',
        when: 'refresh, rotation off (the same token again and again, its use count unmoved)',
        grant: { rotationCount: 0, previousTokenId: null },
        policy: { rotation: false },
        expected: 'active',
        replay: false,
      },
      {
        state: 'active',
        when: 'refresh, a second before its idle expiry',
        at: 13 * DAY - 1,
        expected: 'active',
        replay: false,
      },
      {
        state: 'expired (idle TTL passed)',
        when: 'refresh at its idle expiry',
        at: 13 * DAY,
        expected: 'expired',
        replay: false,
      },
      {
        state: "expired (the family's absolute TTL passed)",
        when: 'refresh while the token itself is within its idle TTL',
        token: { expiresAt: NOW + 14 * DAY },
        grant: { expiresAt: NOW + DAY },
        at: DAY,
        expected: 'expired',
        replay: false,
      },
      {
        state: 'expired (rotation off)',
        when: 'refresh past the idle TTL',
        grant: { rotationCount: 0, previousTokenId: null },
        policy: { rotation: false },
        at: 20 * DAY,
        expected: 'expired',
        replay: false,
      },
      {
        state: 'revoked (by RFC 7009, by an admin, or by reuse detection)',
        when: 'refresh of the head of a revoked grant',
        grant: REVOKED,
        expected: 'revoked',
        replay: false,
      },
      {
        state: 'revoked (superseded: neither the head nor the previous token)',
        when: 'refresh (a replay)',
        grant: { rotationCount: 3, headTokenId: NEWEST, previousTokenId: NEWER },
        policy: { rotationLimit: 5 },
        token: { useCount: 1 },
        expected: 'revoked',
        replay: true,
      },
      {
        state: 'past rotation limit',
        when: 'refresh, uses > limit',
        token: { useCount: 4 },
        policy: { rotationLimit: 3 },
        expected: 'past_rotation_limit',
        replay: true,
      },
      {
        state: 'used up (uses = limit)',
        when: 'refresh (a replay)',
        token: { useCount: 3 },
        policy: { rotationLimit: 3 },
        expected: 'past_rotation_limit',
        replay: true,
      },
      {
        state: 'past rotation limit (the family reached max_rotations)',
        when: 'refresh of its last token, which still had uses: the family ended, no second party shown',
        token: { useCount: 1 },
        grant: { rotationCount: 5, headTokenId: null, previousTokenId: PRESENTED },
        policy: { rotationLimit: 2, maxRotations: 5 },
        expected: 'past_rotation_limit',
        replay: false,
      },
      {
        state: 'active (one rotation short of max_rotations)',
        when: 'refresh, rotation on, uses < limit',
        grant: { rotationCount: 4 },
        policy: { maxRotations: 5 },
        expected: 'active',
        replay: false,
      },
    ],
  },
  {
    table: 'the precedence: past rotation limit, then revoked, then expired',
    rows: [
      {
        state: 'used up, its family revoked by its own replay',
        when: 'refresh again: past limit beats revoked',
        ...ROTATED_AWAY,
        grant: { ...ROTATED_AWAY.grant, revokedAt: NOW - 60, revokedReason: 'reuse_detected' },
        expected: 'past_rotation_limit',
        replay: true,
      },
      {
        state: 'used up and expired',
        when: 'refresh after its idle expiry: past limit beats expired',
        token: { useCount: 1 },
        at: 400 * DAY,
        expected: 'past_rotation_limit',
        replay: true,
      },
      {
        state: 'family at max_rotations and revoked',
        when: 'refresh: past limit beats revoked',
        token: { useCount: 1 },
        grant: { rotationCount: 5, headTokenId: null, previousTokenId: PRESENTED, ...REVOKED },
        policy: { rotationLimit: 2, maxRotations: 5 },
        expected: 'past_rotation_limit',
        replay: false,
      },
      {
        state: 'revoked and expired',
        when: 'refresh after the absolute expiry: revoked beats expired',
        grant: REVOKED,
        at: 400 * DAY,
        expected: 'revoked',
        replay: false,
      },
      {
        state: 'superseded and expired',
        when: 'refresh after its idle expiry: revoked beats expired',
        grant: { rotationCount: 3, headTokenId: NEWEST, previousTokenId: NEWER },
        policy: { rotationLimit: 5 },
        at: 20 * DAY,
        expected: 'revoked',
        replay: true,
      },
    ],
  },
  {
    table: 'the replay window (replay_window 30 s; docs/architecture.md, "Concurrent refresh")',
    rows: [
      {
        state: 'rotated 10 s ago, successor unused',
        when: 'the same client presents the rotated token again',
        ...IN_WINDOW,
        expected: 'in_replay_window',
        replay: false,
      },
      {
        state: 'rotated 31 s ago, successor unused',
        when: 'the rotated token is presented after the window',
        ...IN_WINDOW,
        grant: { ...IN_WINDOW.grant, rotatedAt: NOW - 31 },
        expected: 'past_rotation_limit',
        replay: true,
      },
      {
        state: 'rotated 10 s ago, window off (replay_window 0)',
        when: 'the rotated token is presented again',
        ...IN_WINDOW,
        policy: { replayWindow: 0 },
        expected: 'past_rotation_limit',
        replay: true,
      },
      {
        state: 'rotated 10 s ago, its successor exchanged since',
        when: 'the token two generations old is presented',
        ...IN_WINDOW,
        grant: { ...IN_WINDOW.grant, rotationCount: 3, headTokenId: NEWEST, previousTokenId: NEWER },
        successor: undefined,
        expected: 'past_rotation_limit',
        replay: true,
      },
      {
        state: 'rotated 10 s ago, successor used once (rotation_limit 2)',
        when: 'the rotated token is presented again',
        ...IN_WINDOW,
        successor: { useCount: 1, expiresAt: NOW + DAY },
        policy: { replayWindow: 30, rotationLimit: 2 },
        token: { useCount: 2 },
        expected: 'past_rotation_limit',
        replay: true,
      },
      {
        state: 'rotation_limit 2, rotated once 10 s ago, successor unused',
        when: 'the token is presented again: the successor is re-sent, no second use is taken',
        ...IN_WINDOW,
        policy: { replayWindow: 30, rotationLimit: 2 },
        expected: 'in_replay_window',
        replay: false,
      },
      {
        state: 'rotation_limit 2, rotated once 31 s ago',
        when: 'the token is presented after the window: its second use rotates again',
        ...IN_WINDOW,
        grant: { ...IN_WINDOW.grant, rotatedAt: NOW - 31 },
        policy: { replayWindow: 30, rotationLimit: 2 },
        expected: 'active',
        replay: false,
      },
      {
        state: 'rotated 10 s ago, family revoked',
        when: 'the rotated token is presented again: past its limit beats the window',
        ...IN_WINDOW,
        grant: { ...IN_WINDOW.grant, ...REVOKED },
        expected: 'past_rotation_limit',
        replay: true,
      },
      {
        state: 'the rotation that reached max_rotations 10 s ago (it issued no refresh token)',
        when: 'the rotated token is presented again: answered again with an access token only',
        ...IN_WINDOW,
        grant: { ...IN_WINDOW.grant, headTokenId: null },
        successor: null,
        policy: { replayWindow: 30, maxRotations: 2 },
        expected: 'in_replay_window',
        replay: false,
      },
      {
        state: 'rotated 10 s ago while the window was off (a random successor)',
        when: 'the rotated token is presented again',
        ...IN_WINDOW,
        successor: undefined,
        expected: 'past_rotation_limit',
        replay: true,
      },
      {
        state: 'rotated 10 s ago, the family past its absolute expiry',
        when: 'the rotated token is presented again',
        ...IN_WINDOW,
        grant: { ...IN_WINDOW.grant, expiresAt: NOW - 1 },
        expected: 'past_rotation_limit',
        replay: true,
      },
      {
        state: 'rotation off (no successor)',
        when: 'the token is presented again within 30 s of its last use',
        grant: { rotatedAt: NOW - 10 },
        policy: { rotation: false, replayWindow: 30 },
        successor: undefined,
        expected: 'active',
        replay: false,
      },
    ],
  },
];

function presented(row: Row): { found: PresentedRefreshToken; policy: RefreshPolicy; now: number } {
  return {
    found: { token: { ...TOKEN, ...row.token }, grant: { ...GRANT, ...row.grant }, successor: row.successor },
    policy: { ...POLICY, ...row.policy },
    now: NOW + (row.at ?? 0),
  };
}

/**
 * What a refusal leaves behind: a replay revokes the family, and time passes. A refused token must
 * still answer the same ("unchanged (still unusable)"; "identical on every retry").
 */
function retriedLater({ found, policy, now }: ReturnType<typeof presented>, replay: boolean): RefreshTokenState {
  const grant =
    replay && found.grant.revokedAt === null
      ? { ...found.grant, revokedAt: now, revokedReason: 'reuse_detected' as const }
      : found.grant;
  return refreshTokenState({ token: found.token, grant, successor: found.successor }, policy, now + 365 * DAY);
}

const OUTCOMES: Partial<Record<RefreshTokenState, string>> = {
  active: 'active, exchangeable',
  in_replay_window: 'in the replay window, answered with the same successor',
};

const refusal = (row: Row): boolean => row.expected !== 'active' && row.expected !== 'in_replay_window';

function title(row: Row): string {
  const outcome = OUTCOMES[row.expected] ?? `${row.expected.replaceAll('_', ' ')}, refused`;
  const reuse = row.replay ? ': a replay, the whole family is revoked' : ', not a replay';
  const retry = refusal(row) ? '; unchanged on every retry, now and later' : '';
  return `${row.state} | ${row.when} → ${outcome}${reuse}${retry}`;
}

for (const { table, rows } of TABLES)
  describe(table, () => {
    for (const row of rows)
      it(title(row), () => {
        const given = presented(row);
        assert.equal(refreshTokenState(given.found, given.policy, given.now), row.expected, 'the state');
        assert.equal(isReplay(given.found, given.policy, given.now), row.replay, 'whether it is a replay');
        if (refusal(row)) assert.equal(retriedLater(given, row.replay), row.expected, 'on retry');
      });
  });
