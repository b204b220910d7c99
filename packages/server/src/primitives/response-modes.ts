/**
 * The `response_mode` values of the authorization endpoint: how the authorization response travels
 * back to the client. `query` is the default of the code flow (OAuth 2.0 Multiple Response Type
 * Encoding Practices §2.1, §5); `form_post` is an auto-submitted HTML form (OAuth 2.0 Form Post
 * Response Mode §2). Low enough that the request check (authorize/), the page that answers
 * (html/) and the metadata (`response_modes_supported`, oauth/endpoints/discovery.ts) share it.
 *
 * @see https://openid.net/specs/oauth-v2-multiple-response-types-1_0.html#ResponseModes
 * @see https://openid.net/specs/oauth-v2-form-post-response-mode-1_0.html#FormPostResponseMode
 */
export const RESPONSE_MODES = ['query', 'form_post'] as const;

export type ResponseMode = (typeof RESPONSE_MODES)[number];

/** The mode when the request names none: the code flow's default. */
export const DEFAULT_RESPONSE_MODE: ResponseMode = 'query';

const MODES: ReadonlySet<string> = new Set(RESPONSE_MODES);

export function isResponseMode(value: string): value is ResponseMode {
  return MODES.has(value);
}
