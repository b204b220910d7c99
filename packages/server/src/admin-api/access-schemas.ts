/**
 * The schemas of the admin API's groups and roles (access/): request bodies validated by the
 * contract's validator, and the representations answered.
 */
type Json = Record<string, unknown>;

const string = (description: string, extra: Json = {}): Json => ({ type: 'string', description, ...extra });
const NAME = string('1 to 64 letters, digits and . _ : @ -, starting with a letter or digit.', { minLength: 1 });
const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const time = (description: string): Json => ({ type: 'string', format: 'date-time', description });

export const ACCESS_SCHEMAS: Readonly<Record<string, Json>> = {
  GroupCreate: {
    type: 'object',
    additionalProperties: false,
    required: ['name'],
    properties: {
      name: NAME,
      parent: string("The group this one belongs to: its members are the parent's members too."),
    },
  },
  Group: {
    type: 'object',
    required: ['name', 'parent', 'created_at'],
    properties: {
      name: string('The group name, as access tokens carry it in `groups` (RFC 9068 §2.2.3.1).'),
      parent: string('The parent group, or null.', { nullable: true }),
      created_at: time('When it was made.'),
    },
  },
  GroupList: {
    type: 'object',
    required: ['items', 'next_cursor'],
    properties: {
      items: { type: 'array', items: ref('Group') },
      next_cursor: string('Pass as `cursor` for the next page; null on the last page.', { nullable: true }),
    },
  },
  GroupMembers: {
    type: 'object',
    required: ['group', 'members'],
    properties: {
      group: string('The group.'),
      members: { type: 'array', description: 'The usernames of its direct members.', items: { type: 'string' } },
    },
  },
  RoleCreate: {
    type: 'object',
    additionalProperties: false,
    required: ['name'],
    properties: {
      name: NAME,
      api: string(
        "The API the role is of: /v2 (the REST API) or a resource server's client id; left out: server-wide.",
      ),
      description: string('What the role allows, for operators.'),
    },
  },
  Role: {
    type: 'object',
    required: ['name', 'api', 'description', 'built_in', 'created_at'],
    properties: {
      name: string('The role name, as access tokens carry it in `roles` (RFC 9068 §2.2.3.1).'),
      api: string("The API's audience, or null for a server-wide role.", { nullable: true }),
      description: string('What it allows.', { nullable: true }),
      built_in: { type: 'boolean', description: "One of the admin API's roles: never removed." },
      created_at: time('When it was made.'),
    },
  },
  RoleList: {
    type: 'object',
    required: ['items', 'next_cursor'],
    properties: {
      items: { type: 'array', items: ref('Role') },
      next_cursor: string('Pass as `cursor` for the next page; null on the last page.', { nullable: true }),
    },
  },
  RoleHolder: {
    type: 'object',
    additionalProperties: false,
    description: 'Exactly one of user, group and client (a client: server-wide roles only).',
    minProperties: 1,
    maxProperties: 1,
    properties: {
      user: string('A username.', { minLength: 1 }),
      group: string('A group name.', { minLength: 1 }),
      client: string('A client id.', { minLength: 1 }),
    },
  },
  RoleHolders: {
    type: 'object',
    required: ['role', 'api', 'holders'],
    properties: {
      role: string('The role.'),
      api: string('Its API, or null.', { nullable: true }),
      holders: {
        type: 'array',
        description: 'Who holds it directly: user:USERNAME, group:NAME, client:ID.',
        items: { type: 'string' },
      },
    },
  },
};
