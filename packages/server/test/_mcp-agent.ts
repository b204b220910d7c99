import { join } from 'node:path';
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Page } from 'playwright-core';
import { PASSWORD } from './_authorize.js';
import { ARTIFACTS, type CallbackServer } from './_browser.js';

/** How an agent of the MCP suites names itself, and what of the consent page each authorization keeps. */
export interface AgentOptions {
  /** Its `client_name` (RFC 7591 §2). */
  readonly clientName: string;
  /** The element of the consent page whose text is kept in `consentNotices`. */
  readonly consentNotice: string;
  /** The consent page's screenshot, a file name in the test artifacts. */
  readonly screenshot: string;
}

/**
 * What an agent keeps between runs, in memory, for the official MCP TypeScript SDK's OAuth client
 * (`OAuthClientProvider`); the browser part is the user's, alice signing in and allowing in `page`.
 */
export class AgentProvider implements OAuthClientProvider {
  information: OAuthClientInformationMixed | undefined;
  stored: OAuthTokens | undefined;
  #verifier = '';
  #discovery: OAuthDiscoveryState | undefined;
  readonly authorizationUrls: URL[] = [];
  /** What the consent page said (`options.consentNotice`), for each authorization. */
  readonly consentNotices: string[] = [];
  /**
   * Its client ID metadata document's URL (draft-ietf-oauth-client-id-metadata-document), sent as
   * `client_id` where the server supports it; empty: none, the SDK registers (RFC 7591) instead.
   */
  documentUrl = '';
  readonly callback: CallbackServer;
  readonly page: Page;
  readonly #options: AgentOptions;

  constructor(callback: CallbackServer, page: Page, options: AgentOptions) {
    this.callback = callback;
    this.page = page;
    this.#options = options;
  }

  get redirectUrl(): string {
    return this.callback.uri;
  }
  get clientMetadataUrl(): string {
    return this.documentUrl;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.#options.clientName,
      redirect_uris: [this.callback.uri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.information;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.information = information;
  }
  tokens() {
    return this.stored;
  }
  saveTokens(tokens: OAuthTokens) {
    this.stored = tokens;
  }
  saveCodeVerifier(verifier: string) {
    this.#verifier = verifier;
  }
  codeVerifier() {
    return this.#verifier;
  }
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.#discovery = state;
  }
  discoveryState() {
    return this.#discovery;
  }

  /** The user's part: sign in and allow, in the browser, until the client's loopback listener has the code. */
  async redirectToAuthorization(url: URL): Promise<void> {
    this.authorizationUrls.push(url);
    await this.page.goto(url.href);
    await this.page.getByLabel('Username').fill('alice');
    await this.page.getByLabel('Password').fill(PASSWORD);
    await this.page.getByRole('button', { name: 'Sign in' }).click();
    this.consentNotices.push((await this.page.locator(this.#options.consentNotice).textContent()) ?? '');
    await this.page.screenshot({ path: join(ARTIFACTS, this.#options.screenshot), fullPage: true });
    await this.page.getByRole('button', { name: 'Allow' }).click();
    await this.page.waitForURL((landed) => landed.href.startsWith(this.callback.uri));
  }
}
