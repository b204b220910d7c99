import type { Kysely, Selectable } from 'kysely';
import { containsAnyCase } from './contains.js';
import type { Database, OrganizationDomainsTable, OrganizationMembersTable, OrganizationsTable } from './schema.js';

/** An organization as stored; its policy is JSON the organizations folder reads. */
export interface OrganizationRow {
  readonly id: string;
  readonly slug: string;
  readonly name: string;
  readonly roles: readonly string[];
  readonly policy: string;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** A user's membership of an organization. */
export interface OrganizationMemberRow {
  readonly organizationId: string;
  readonly subject: string;
  readonly roles: readonly string[];
  /** `operator` (CLI, admin API) or `domain` (made at sign-in by a verified e-mail domain). */
  readonly source: string;
  readonly joinedAt: number;
}

/** An e-mail domain of an organization; it counts for sign-in only once `verifiedAt` is set. */
export interface OrganizationDomainRow {
  readonly domain: string;
  readonly organizationId: string;
  readonly verifiedAt: number | null;
  readonly createdAt: number;
}

/** The queries of organizations (0031). The rules (which roles, which domains) live in organizations/. */
export interface OrganizationRepository {
  /** Inserts the organization; false when its id or slug is taken. */
  insertOrganization(row: OrganizationRow): Promise<boolean>;
  updateOrganization(row: OrganizationRow): Promise<void>;
  /** By id or by slug. */
  findOrganization(idOrSlug: string): Promise<OrganizationRow | undefined>;
  listOrganizations(): Promise<OrganizationRow[]>;
  /** A page of the organizations in slug order after `after`, those whose slug or name contains `search` (any case). */
  listOrganizationsPage(after: string | undefined, limit: number, search?: string): Promise<OrganizationRow[]>;
  /** Removes the organization with its members and domains. */
  removeOrganization(id: string): Promise<boolean>;

  /** Adds the member, or replaces its roles when it is one already (keeping how and when it joined). */
  putOrganizationMember(row: OrganizationMemberRow): Promise<void>;
  /** Adds the member unless it is one already; true when this call added it. */
  insertOrganizationMember(row: OrganizationMemberRow): Promise<boolean>;
  removeOrganizationMember(organizationId: string, subject: string): Promise<boolean>;
  findOrganizationMember(organizationId: string, subject: string): Promise<OrganizationMemberRow | undefined>;
  listOrganizationMembers(organizationId: string): Promise<OrganizationMemberRow[]>;
  /** The organizations `subject` is a member of, by slug, with the membership. */
  listMembershipsOf(subject: string): Promise<{ organization: OrganizationRow; member: OrganizationMemberRow }[]>;

  /** Adds the domain; false when some organization has it already. */
  insertOrganizationDomain(row: OrganizationDomainRow): Promise<boolean>;
  verifyOrganizationDomain(domain: string, now: number): Promise<boolean>;
  removeOrganizationDomain(organizationId: string, domain: string): Promise<boolean>;
  listOrganizationDomains(organizationId: string): Promise<OrganizationDomainRow[]>;
  findOrganizationDomain(domain: string): Promise<OrganizationDomainRow | undefined>;

  /** The live grants of `subject` made for the organization (at /authorize), to revoke with the membership. */
  listOrganizationGrantIds(organizationId: string, subject: string): Promise<string[]>;
}

export function createOrganizationRepository(db: Kysely<Database>): OrganizationRepository {
  return {
    async insertOrganization(o) {
      const result = await db
        .insertInto('organizations')
        .values(organizationToRow(o))
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
    },
    async updateOrganization(o) {
      const { id: _id, created_at: _created, ...values } = organizationToRow(o);
      await db.updateTable('organizations').set(values).where('id', '=', o.id).execute();
    },
    async findOrganization(idOrSlug) {
      const r = await db
        .selectFrom('organizations')
        .selectAll()
        .where((eb) => eb.or([eb('id', '=', idOrSlug), eb('slug', '=', idOrSlug)]))
        .orderBy('id')
        .executeTakeFirst();
      return r && organizationFromRow(r);
    },
    async listOrganizations() {
      const rows = await db.selectFrom('organizations').selectAll().orderBy('slug').execute();
      return rows.map(organizationFromRow);
    },
    async listOrganizationsPage(after, limit, search) {
      const rows = await db
        .selectFrom('organizations')
        .selectAll()
        .$if(after !== undefined, (q) => q.where('slug', '>', after as string))
        .$if(search !== undefined, (q) => q.where(containsAnyCase(search as string, 'slug', 'name')))
        .orderBy('slug')
        .limit(limit)
        .execute();
      return rows.map(organizationFromRow);
    },
    async removeOrganization(id) {
      await db.deleteFrom('organization_members').where('organization_id', '=', id).execute();
      await db.deleteFrom('organization_domains').where('organization_id', '=', id).execute();
      const result = await db.deleteFrom('organizations').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async putOrganizationMember(m) {
      await db
        .insertInto('organization_members')
        .values(memberToRow(m))
        .onConflict((oc) => oc.columns(['organization_id', 'subject']).doUpdateSet({ roles: JSON.stringify(m.roles) }))
        .execute();
    },
    async insertOrganizationMember(m) {
      const result = await db
        .insertInto('organization_members')
        .values(memberToRow(m))
        .onConflict((oc) => oc.columns(['organization_id', 'subject']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
    },
    async removeOrganizationMember(organizationId, subject) {
      const result = await db
        .deleteFrom('organization_members')
        .where('organization_id', '=', organizationId)
        .where('subject', '=', subject)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async findOrganizationMember(organizationId, subject) {
      const r = await db
        .selectFrom('organization_members')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('subject', '=', subject)
        .executeTakeFirst();
      return r && memberFromRow(r);
    },
    async listOrganizationMembers(organizationId) {
      const rows = await db
        .selectFrom('organization_members')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .orderBy('joined_at')
        .orderBy('subject')
        .execute();
      return rows.map(memberFromRow);
    },
    async listMembershipsOf(subject) {
      const rows = await db
        .selectFrom('organization_members as m')
        .innerJoin('organizations as o', 'o.id', 'm.organization_id')
        .selectAll('o')
        .select(['m.roles as member_roles', 'm.source as member_source', 'm.joined_at as member_joined_at'])
        .where('m.subject', '=', subject)
        .orderBy('o.slug')
        .execute();
      return rows.map((r) => ({
        organization: organizationFromRow(r),
        member: {
          organizationId: r.id,
          subject,
          roles: JSON.parse(r.member_roles) as string[],
          source: r.member_source,
          joinedAt: Number(r.member_joined_at),
        },
      }));
    },

    async insertOrganizationDomain(d) {
      const result = await db
        .insertInto('organization_domains')
        .values({
          domain: d.domain,
          organization_id: d.organizationId,
          verified_at: d.verifiedAt,
          created_at: d.createdAt,
        })
        .onConflict((oc) => oc.column('domain').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
    },
    async verifyOrganizationDomain(domain, now) {
      const result = await db
        .updateTable('organization_domains')
        .set({ verified_at: now })
        .where('domain', '=', domain)
        .where('verified_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async removeOrganizationDomain(organizationId, domain) {
      const result = await db
        .deleteFrom('organization_domains')
        .where('organization_id', '=', organizationId)
        .where('domain', '=', domain)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async listOrganizationDomains(organizationId) {
      const rows = await db
        .selectFrom('organization_domains')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .orderBy('domain')
        .execute();
      return rows.map(domainFromRow);
    },
    async findOrganizationDomain(domain) {
      const r = await db.selectFrom('organization_domains').selectAll().where('domain', '=', domain).executeTakeFirst();
      return r && domainFromRow(r);
    },

    async listOrganizationGrantIds(organizationId, subject) {
      const rows = await db
        .selectFrom('grants')
        .select('id')
        .where('organization_id', '=', organizationId)
        .where('subject', '=', subject)
        .where('revoked_at', 'is', null)
        .orderBy('id')
        .execute();
      return rows.map((r) => r.id);
    },
  };
}

function organizationToRow(o: OrganizationRow): Selectable<OrganizationsTable> {
  return {
    id: o.id,
    slug: o.slug,
    name: o.name,
    roles: JSON.stringify(o.roles),
    policy: o.policy,
    created_at: o.createdAt,
    updated_at: o.updatedAt,
  };
}

function organizationFromRow(r: Selectable<OrganizationsTable>): OrganizationRow {
  return {
    id: r.id,
    slug: r.slug,
    name: r.name,
    roles: JSON.parse(r.roles) as string[],
    policy: r.policy,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

function memberToRow(m: OrganizationMemberRow): Selectable<OrganizationMembersTable> {
  return {
    organization_id: m.organizationId,
    subject: m.subject,
    roles: JSON.stringify(m.roles),
    source: m.source,
    joined_at: m.joinedAt,
  };
}

function memberFromRow(r: Selectable<OrganizationMembersTable>): OrganizationMemberRow {
  return {
    organizationId: r.organization_id,
    subject: r.subject,
    roles: JSON.parse(r.roles) as string[],
    source: r.source,
    joinedAt: Number(r.joined_at),
  };
}

function domainFromRow(r: Selectable<OrganizationDomainsTable>): OrganizationDomainRow {
  return {
    domain: r.domain,
    organizationId: r.organization_id,
    verifiedAt: r.verified_at === null ? null : Number(r.verified_at),
    createdAt: Number(r.created_at),
  };
}
