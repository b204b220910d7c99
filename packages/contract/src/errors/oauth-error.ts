import {
  OAUTH_ERRORS,
  OAUTH_REASONS,
  describeOAuthReason,
  statusOfOAuthReason,
  type FixedOAuthReason,
  type OAuthErrorBody,
  type OAuthErrorCode,
  type OAuthErrorReason,
  type ParameterizedReason,
} from './oauth.js';

/**
 * An OAuth error the server answers, made only from a catalog reason, so that every error on the
 * wire has its status, code, stable description and page.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.2 RFC 6749 §5.2
 */
export class OAuthError extends Error {
  readonly reason: OAuthErrorReason;
  readonly error: OAuthErrorCode;
  readonly status: number;
  readonly description: string;

  constructor(reason: FixedOAuthReason);
  constructor(reason: ParameterizedReason, parameter: string);
  constructor(reason: OAuthErrorReason, parameter?: string) {
    const description = describeOAuthReason(reason, parameter);
    super(description);
    this.name = 'OAuthError';
    this.reason = reason;
    this.error = OAUTH_REASONS[reason].error;
    this.status = statusOfOAuthReason(reason);
    this.description = description;
  }

  /** The slug of the page explaining this error. */
  get page(): string {
    return OAUTH_ERRORS[this.error].page;
  }

  /** The RFC 6749 §5.2 body; `error_uri` is the server's own page under `baseUrl`. */
  toBody(baseUrl: string): OAuthErrorBody {
    return { error: this.error, error_description: this.description, error_uri: `${baseUrl}/problems/${this.page}` };
  }
}
