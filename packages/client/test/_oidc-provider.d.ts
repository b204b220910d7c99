/**
 * The part of oidc-provider 8 (which ships no types) that the interoperability test uses, typed by
 * hand: only these members, as its documentation describes them.
 */
declare module 'oidc-provider' {
  import type { Server } from 'node:http';

  interface ClientModel {
    readonly clientId: string;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Readonly<Record<string, unknown>>);
    listen(port: number, host: string): Server;
    on(event: 'grant.error', listener: (ctx: unknown, error: Error & { error_detail?: string }) => void): this;
    readonly Grant: new (fields: { accountId: string; clientId: string }) => {
      addOIDCScope(scope: string): void;
      save(): Promise<string>;
    };
    readonly Client: { find(id: string): Promise<ClientModel | undefined> };
    readonly RefreshToken: new (fields: {
      accountId: string;
      client: ClientModel | undefined;
      grantId: string;
      scope: string;
      gty: string;
    }) => { save(): Promise<string> };
  }
}
