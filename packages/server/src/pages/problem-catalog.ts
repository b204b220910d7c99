import {
  OAUTH_ERRORS,
  OAUTH_REASONS,
  PROBLEMS,
  statusOfOAuthReason,
  type OAuthErrorReason,
  type OAuthReasonEntry,
} from '@gatehouse/contract';

/** One reason the server gives for an OAuth error: its stable `error_description` and status. */
export interface ReasonLine {
  readonly reason: string;
  readonly status: number;
  readonly error_description: string;
}

/** What a page says: one catalog entry, OAuth error or REST problem. Its JSON form too. */
export interface ProblemPage {
  readonly slug: string;
  readonly title: string;
  readonly status: number;
  readonly kind: 'oauth' | 'problem';
  readonly code: string;
  readonly summary: string;
  readonly client_action: string;
  readonly transient: boolean;
  /** The OAuth error's reasons; absent for a problem. */
  readonly descriptions?: readonly ReasonLine[];
}

function reasonsOf(error: string): ReasonLine[] {
  return (Object.entries(OAUTH_REASONS) as [OAuthErrorReason, OAuthReasonEntry][])
    .filter(([, r]) => r.error === error)
    .map(([reason, r]) => ({ reason, status: statusOfOAuthReason(reason), error_description: r.description }));
}

/** Every page of the catalog, OAuth errors first, in the catalog's order. */
export function catalogPages(): readonly ProblemPage[] {
  const oauth = Object.values(OAUTH_ERRORS).map((e): ProblemPage => ({
    slug: e.page,
    title: e.title,
    status: e.status,
    kind: 'oauth',
    code: e.error,
    summary: e.summary,
    client_action: e.clientAction,
    transient: e.transient,
    descriptions: reasonsOf(e.error),
  }));
  const problems = Object.values(PROBLEMS).map((p): ProblemPage => ({
    slug: p.slug,
    title: p.title,
    status: p.status,
    kind: 'problem',
    code: p.code,
    summary: p.summary,
    client_action: p.clientAction,
    transient: p.transient,
  }));
  return [...oauth, ...problems];
}
