import { parseArgs } from 'node:util';
import type { ServerConfig } from '../config.js';
import { CLI_ACTOR } from '../audit/audit.js';
import { createClient, deleteClient } from '../oauth/client-administration.js';
import { describeClient, type ClientRegistration } from '../oauth/clients.js';
import { parseDuration } from './durations.js';
import { withStore } from './open-context.js';
import { listOf, unknownCommand, UsageError, type CliIo } from './run.js';

/** `gatehouse clients add|list|remove`. */
export async function clientsCommand([sub, ...args]: string[], config: ServerConfig, io: CliIo): Promise<number> {
  switch (sub) {
    case 'add': {
      const registration = registrationFrom(args);
      const { client, secret } = await withStore(config, (_store, clock, audit) =>
        createClient(audit, registration, clock.now(), CLI_ACTOR),
      );
      io.out(
        JSON.stringify({ ...describeClient(client), ...(secret === null ? {} : { client_secret: secret }) }, null, 2),
      );
      return 0;
    }
    case 'list': {
      parseArgs({ args, options: {} });
      const clients = await withStore(config, (store) => store.listClients());
      io.out(JSON.stringify(clients.map(describeClient), null, 2));
      return 0;
    }
    case 'remove': {
      const { positionals } = parseArgs({ args, options: {}, allowPositionals: true });
      if (positionals.length !== 1) throw new UsageError('clients remove takes one client id');
      const id = positionals[0] as string;
      const removed = await withStore(config, (_store, clock, audit) =>
        deleteClient(audit, id, clock.now(), CLI_ACTOR),
      );
      io.out(JSON.stringify({ client_id: id, removed }));
      return removed ? 0 : 1;
    }
    default:
      throw unknownCommand('clients command', sub, ['add', 'list', 'remove']);
  }
}

function registrationFrom(args: string[]): ClientRegistration {
  const { values } = parseArgs({
    args,
    options: {
      id: { type: 'string' },
      name: { type: 'string' },
      public: { type: 'boolean' },
      'redirect-uri': { type: 'string', multiple: true },
      'grant-types': { type: 'string' },
      scope: { type: 'string' },
      'rotation-limit': { type: 'string' },
      'max-rotations': { type: 'string' },
      'no-rotation': { type: 'boolean' },
      'refresh-ttl': { type: 'string' },
      'absolute-ttl': { type: 'string' },
      'access-ttl': { type: 'string' },
      'replay-window': { type: 'string' },
      'resource-server': { type: 'boolean' },
      'post-logout-redirect-uri': { type: 'string', multiple: true },
      'id-token-alg': { type: 'string' },
      admin: { type: 'boolean' },
    },
  });
  if (!values.id || !values.name) throw new UsageError('clients add needs --id and --name');
  return {
    id: values.id,
    name: values.name,
    public: values.public ?? false,
    redirectUris: values['redirect-uri'] ?? [],
    grantTypes: listOf(values['grant-types']),
    scope: listOf(values.scope),
    rotation: values['no-rotation'] ? false : undefined,
    rotationLimit: integerOption('rotation-limit', values['rotation-limit']),
    maxRotations: integerOption('max-rotations', values['max-rotations']),
    refreshTokenTtl: durationOption(values['refresh-ttl']),
    refreshTokenAbsoluteTtl: durationOption(values['absolute-ttl']),
    accessTokenTtl: durationOption(values['access-ttl']),
    replayWindow: durationOption(values['replay-window']),
    resourceServer: values['resource-server'] ?? false,
    postLogoutRedirectUris: values['post-logout-redirect-uri'] ?? [],
    idTokenAlg: values['id-token-alg'],
    // Only here is a client made an admin client (oauth/clients.ts): it may hold the gatehouse:admin scopes.
    admin: values.admin ?? false,
  };
}

function integerOption(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number`);
  return Number(value);
}

function durationOption(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  try {
    return parseDuration(value);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
