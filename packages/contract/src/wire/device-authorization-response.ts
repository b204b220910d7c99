/**
 * A device authorization response, as any authorization server may send it: `interval` is
 * optional (5 s when absent) and so is `verification_uri_complete`. Wire names are the RFC's.
 *
 * @see https://www.rfc-editor.org/rfc/rfc8628#section-3.2 RFC 8628 §3.2
 */
export interface DeviceAuthorizationResponse {
  readonly device_code: string;
  /** What the user types at `verification_uri`. */
  readonly user_code: string;
  readonly verification_uri: string;
  /** `verification_uri` with the user code in it (§3.3.1). */
  readonly verification_uri_complete?: string;
  /** Seconds the codes live. */
  readonly expires_in: number;
  /** Seconds between polls. */
  readonly interval?: number;
}
