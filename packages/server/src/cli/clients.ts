import type { ServerConfig } from '../config.js';
import { CLI_ACTOR } from '../audit/audit.js';
import {
  createClient,
  deleteClient,
  existingClient,
  rotateClientSecret,
  updateClient,
} from '../oauth/clients/index.js';
import {
  changedPresentation,
  describeClient,
  describePresentation,
  operatorLogoFetcher,
  type ClientPresentation,
} from '../oauth/clients/index.js';
import type { Store } from '../store/store.js';
import type { ClientRecord } from '../primitives/records.js';
import { CLIENT_SETTING_OPTIONS, PRESENTATION_OPTIONS, presentationFrom, settingsFrom } from './client-options.js';
import { parseCommand, unknownCommand, type CommandDeclaration } from './declaration.js';
import { withStore } from './open-context.js';
import type { CliIo } from './run.js';

const ADD = {
  name: 'clients add',
  summary: 'register a client; a confidential one gets a secret, shown only this once',
  options: {
    id: { type: 'string', value: 'ID', required: true, help: 'the client id' },
    name: { type: 'string', value: 'NAME', required: true, help: 'its name, shown on the consent page' },
    public: { type: 'boolean', help: 'a public client: no secret, PKCE only' },
    ...CLIENT_SETTING_OPTIONS,
    ...PRESENTATION_OPTIONS,
    admin: {
      type: 'boolean',
      help:
        'an admin client, scope gatehouse:admin (and :read), for /admin/v1: client_credentials only (acts as the ' +
        'admin role), or with --public / --grant-types authorization_code for operators signing in (their admin roles)',
    },
  },
} as const satisfies CommandDeclaration;

const UPDATE = {
  name: 'clients update',
  summary: "change a client's settings: only those given, checked as clients add checks them",
  positionals: ['ID'],
  options: {
    name: { type: 'string', value: 'NAME', help: 'its name' },
    ...CLIENT_SETTING_OPTIONS,
    ...PRESENTATION_OPTIONS,
    rotation: { type: 'boolean', help: 'refreshing issues a new refresh token again' },
  },
  notes: ['--redirect-uri and --post-logout-redirect-uri replace the lists; its id, type and secret stay.'],
} as const satisfies CommandDeclaration;

const LIST = { name: 'clients list', summary: 'every client, without secrets', options: {} } as const;
const SHOW = { name: 'clients show', summary: 'one client', positionals: ['ID'], options: {} } as const;
const ROTATE_SECRET = {
  name: 'clients rotate-secret',
  summary: 'give a confidential client a new secret, shown only this once; the old one stops working',
  positionals: ['ID'],
  options: {},
} as const;
const REMOVE = {
  name: 'clients remove',
  summary: 'remove a client with its grants and tokens',
  positionals: ['ID'],
  options: {},
} as const;

export const CLIENT_COMMANDS: readonly CommandDeclaration[] = [ADD, UPDATE, LIST, SHOW, ROTATE_SECRET, REMOVE];

/**
 * `gatehouse clients add|update|list|show|rotate-secret|remove`, through oauth/clients/client-administration.ts,
 * as the admin API.
 */
export async function clientsCommand([sub, ...args]: string[], config: ServerConfig, io: CliIo): Promise<number> {
  const print = (value: unknown): void => io.out(JSON.stringify(value, null, 2));
  switch (sub) {
    case 'add': {
      const { values } = parseCommand(ADD, args);
      const registration = {
        ...settingsFrom(values),
        id: values.id as string,
        name: values.name as string,
        public: values.public ?? false,
        // Only here is a client made an admin client (oauth/clients/clients.ts): it may hold the admin scopes.
        admin: values.admin ?? false,
      };
      const changes = presentationFrom(values);
      const { client, secret, shown } = await withStore(config, async (store, clock, audit) => {
        const presentation = changes && (await changedPresentation(undefined, changes, operatorLogo));
        const made = await createClient(audit, registration, clock.now(), CLI_ACTOR);
        return { ...made, shown: await presented(store, made.client.id, presentation) };
      });
      print({ ...withSecret(client, secret), ...shown });
      return 0;
    }
    case 'update': {
      const { values, positionals } = parseCommand(UPDATE, args);
      const given = {
        ...settingsFrom(values),
        ...(values.name === undefined ? {} : { name: values.name }),
        ...(values.rotation ? { rotation: true } : {}),
      };
      const changes = presentationFrom(values);
      const { client, shown } = await withStore(config, async (store, clock, audit) => {
        const id = positionals[0] as string;
        const before = await store.findClientPresentation(id);
        const presentation = changes && (await changedPresentation(before, changes, operatorLogo));
        const updated = await updateClient(audit, id, (current) => ({ ...current, ...given }), clock.now(), CLI_ACTOR);
        return { client: updated, shown: await presented(store, id, presentation) };
      });
      print({ ...describeClient(client), ...shown });
      return 0;
    }
    case 'list': {
      parseCommand(LIST, args);
      print((await withStore(config, (store) => store.listClients())).map(describeClient));
      return 0;
    }
    case 'show': {
      const id = parseCommand(SHOW, args).positionals[0] as string;
      print(describeClient(await withStore(config, (store) => existingClient(store, id))));
      return 0;
    }
    case 'rotate-secret': {
      const id = parseCommand(ROTATE_SECRET, args).positionals[0] as string;
      const { client, secret } = await withStore(config, (_store, clock, audit) =>
        rotateClientSecret(audit, id, clock.now(), CLI_ACTOR),
      );
      print(withSecret(client, secret));
      return 0;
    }
    case 'remove': {
      const id = parseCommand(REMOVE, args).positionals[0] as string;
      const removed = await withStore(config, (_store, clock, audit) =>
        deleteClient(audit, id, clock.now(), CLI_ACTOR),
      );
      io.out(JSON.stringify({ client_id: id, removed }));
      return removed ? 0 : 1;
    }
    default:
      throw unknownCommand('clients command', sub, CLIENT_COMMANDS);
  }
}

/** An operator's --logo-uri, fetched when given (oauth/clients/client-presentation.ts). */
const operatorLogo = operatorLogoFetcher('--logo-uri');

/** Stores the presentation made of the options given, if any, and answers the client's presentation to print. */
async function presented(
  store: Store,
  clientId: string,
  presentation: ClientPresentation | undefined,
): Promise<Record<string, unknown>> {
  if (presentation !== undefined) await store.saveClientPresentation(clientId, presentation);
  return describePresentation(await store.findClientPresentation(clientId));
}

function withSecret(client: ClientRecord, secret: string | null): Record<string, unknown> {
  return { ...describeClient(client), ...(secret === null ? {} : { client_secret: secret }) };
}
