import type { Kysely } from 'kysely';
import { containsAnyCase } from './contains.js';
import type { Database } from './schema.js';

/** A group of users (0028); `parentId` names the group it belongs to, whose members its members are too. */
export interface GroupRecord {
  readonly id: string;
  readonly name: string;
  readonly parentId: string | null;
  readonly createdAt: number;
}

/** A group of a list, with its parent's name. */
export interface GroupListing {
  readonly group: GroupRecord;
  readonly parentName: string | null;
}

/** The queries of groups and their members. Members are users, named by subject. */
export interface GroupRepository {
  /** Inserts the group unless its name is taken; false when it is. */
  insertGroupIfAbsent(group: GroupRecord): Promise<boolean>;
  findGroupByName(name: string): Promise<GroupRecord | undefined>;
  findGroupById(id: string): Promise<GroupRecord | undefined>;
  listGroups(): Promise<GroupRecord[]>;
  /**
   * A page of the groups in name order after `after`, those whose name contains `search` (any case)
   * when given, each with its parent's name.
   */
  listGroupsPage(after: string | undefined, limit: number, search?: string): Promise<GroupListing[]>;
  /** How many groups have this one as parent. */
  countSubgroups(id: string): Promise<number>;
  /** Removes the group, its memberships and the roles assigned to it; false when there was none. */
  removeGroup(id: string): Promise<boolean>;
  /** Adds the member unless it is one; false when it was. */
  addGroupMember(groupId: string, subject: string, now: number): Promise<boolean>;
  /** False when the user was no member. */
  removeGroupMember(groupId: string, subject: string): Promise<boolean>;
  /** The subjects of the group's direct members, in order. */
  listGroupMembers(groupId: string): Promise<string[]>;
}

const groupFromRow = (row: Database['access_groups']): GroupRecord => ({
  id: row.id,
  name: row.name,
  parentId: row.parent_id,
  createdAt: Number(row.created_at),
});

export function createGroupRepository(db: Kysely<Database>): GroupRepository {
  return {
    async insertGroupIfAbsent(group) {
      const result = await db
        .insertInto('access_groups')
        .values({ id: group.id, name: group.name, parent_id: group.parentId, created_at: group.createdAt })
        .onConflict((oc) => oc.column('name').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    async findGroupByName(name) {
      const row = await db.selectFrom('access_groups').selectAll().where('name', '=', name).executeTakeFirst();
      return row && groupFromRow(row);
    },
    async findGroupById(id) {
      const row = await db.selectFrom('access_groups').selectAll().where('id', '=', id).executeTakeFirst();
      return row && groupFromRow(row);
    },
    async listGroups() {
      return (await db.selectFrom('access_groups').selectAll().orderBy('name').execute()).map(groupFromRow);
    },
    async listGroupsPage(after, limit, search) {
      const rows = await db
        .selectFrom('access_groups as g')
        .leftJoin('access_groups as p', 'p.id', 'g.parent_id')
        .selectAll('g')
        .select('p.name as parent_name')
        .$if(after !== undefined, (q) => q.where('g.name', '>', after as string))
        .$if(search !== undefined, (q) => q.where(containsAnyCase(search as string, 'g.name')))
        .orderBy('g.name')
        .limit(limit)
        .execute();
      return rows.map((row) => ({ group: groupFromRow(row), parentName: row.parent_name }));
    },
    async countSubgroups(id) {
      const row = await db
        .selectFrom('access_groups')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('parent_id', '=', id)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async removeGroup(id) {
      await db
        .deleteFrom('role_assignments')
        .where('principal_kind', '=', 'group')
        .where('principal_id', '=', id)
        .execute();
      await db.deleteFrom('group_members').where('group_id', '=', id).execute();
      const result = await db.deleteFrom('access_groups').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async addGroupMember(groupId, subject, now) {
      const result = await db
        .insertInto('group_members')
        .values({ group_id: groupId, subject, added_at: now })
        .onConflict((oc) => oc.columns(['group_id', 'subject']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    async removeGroupMember(groupId, subject) {
      const result = await db
        .deleteFrom('group_members')
        .where('group_id', '=', groupId)
        .where('subject', '=', subject)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async listGroupMembers(groupId) {
      const rows = await db
        .selectFrom('group_members')
        .select('subject')
        .where('group_id', '=', groupId)
        .orderBy('added_at')
        .orderBy('subject')
        .execute();
      return rows.map((r) => r.subject);
    },
  };
}
