/**
 * The admin API's invitations (accounts/invitation.ts), for its document (document.ts): the
 * operations and the schemas of their bodies and answers.
 */
import { MAX_INVITATION_TTL } from '../accounts/index.js';
import type { Operation } from './document.js';

type Json = Record<string, unknown>;

interface Writers {
  readonly operation: (op: Operation) => Json;
  readonly pathParameter: (name: string, description: string) => Json;
}

export function invitationPaths({ operation, pathParameter }: Writers): Record<string, Json> {
  return {
    '/invitations': {
      get: operation({
        id: 'listInvitations',
        summary: 'The open invitations (neither accepted, revoked nor expired), oldest first.',
        writes: false,
        success: ['200', 'InvitationList'],
      }),
      post: operation({
        id: 'createInvitation',
        summary:
          'Mails an invitation and audits invitation_sent. The person chooses a username and a password through the link and the address is verified; an address an account has gets "sign in and accept" instead. The answer is the same either way.',
        writes: true,
        success: ['201', 'Invitation'],
        body: 'InvitationCreate',
        problems: [404],
      }),
    },
    '/invitations/{invitation}': {
      parameters: [pathParameter('invitation', "The invitation's id.")],
      delete: operation({
        id: 'revokeInvitation',
        summary: 'Revokes an open invitation: its link stops working; audits invitation_revoked.',
        writes: true,
        success: ['204', null],
        problems: [404, 413, 415],
      }),
    },
  };
}

const string = (description: string, extra: Json = {}): Json => ({ type: 'string', description, ...extra });
const names = (description: string): Json => ({
  type: 'array',
  description,
  maxItems: 20,
  items: { type: 'string', minLength: 1, maxLength: 64 },
});

export const INVITATION_SCHEMAS: Readonly<Record<string, Json>> = {
  InvitationCreate: {
    type: 'object',
    additionalProperties: false,
    required: ['email'],
    properties: {
      email: string('Where the invitation goes.', { format: 'email', maxLength: 254 }),
      groups: names('Groups the person joins on acceptance.'),
      organization: string('An organization (id or slug) the person joins on acceptance.', { minLength: 1 }),
      org_roles: names("The person's roles in the organization."),
      ttl_seconds: {
        type: 'integer',
        minimum: 60,
        maximum: MAX_INVITATION_TTL,
        description: 'How long the link works, seconds; 604800 (7 days) when left out.',
      },
      locale: string("The mail's language when the address has no account that chose one (BCP 47).", {
        maxLength: 35,
      }),
    },
  },
  Invitation: {
    type: 'object',
    required: ['id', 'email', 'groups', 'organization', 'org_roles', 'created_at', 'expires_at'],
    properties: {
      id: string("The invitation's id: the SHA-256 digest of its link's secret, never the link."),
      email: string('Where it was sent.'),
      groups: { type: 'array', items: { type: 'string' }, description: 'Groups joined on acceptance.' },
      organization: string('The organization joined on acceptance, by id, or null.', { nullable: true }),
      org_roles: { type: 'array', items: { type: 'string' }, description: 'Roles in the organization.' },
      created_at: string('When it was sent.', { format: 'date-time' }),
      expires_at: string('When its link stops working.', { format: 'date-time' }),
    },
  },
  InvitationList: {
    type: 'object',
    required: ['items'],
    properties: { items: { type: 'array', items: { $ref: '#/components/schemas/Invitation' } } },
  },
};
