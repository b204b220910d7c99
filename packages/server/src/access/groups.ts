import type { Actor, AuditTrail } from '../audit/audit.js';
import { newId } from '../primitives/ids.js';
import { OperatorInputError } from '../primitives/operator-input-error.js';
import type { GroupListing, GroupRecord } from '../store/group-repository.js';
import type { Repository } from '../store/repository.js';
import { checkedName } from './names.js';

/**
 * The administrative changes of groups, shared by `gatehouse groups` and the admin API. Each is one
 * transaction that records its audit event with the actor; a refused change writes nothing. A
 * group's members are users, named by username here and by subject in the store.
 */

/** The group of this name, or a not-found refusal. */
export async function existingGroup(store: Repository, name: string): Promise<GroupRecord> {
  const group = await store.findGroupByName(name);
  if (group === undefined) throw new OperatorInputError(`there is no group '${name}'`, 'not_found');
  return group;
}

/** Makes a group, under `parent` when given (its members are then the parent's members too). */
export async function createGroup(
  trail: AuditTrail,
  typedName: string,
  parent: string | undefined,
  now: number,
  actor: Actor,
): Promise<GroupRecord> {
  const name = checkedName('group', typedName);
  return trail.transaction(async (tx, audit) => {
    const parentId = parent === undefined ? null : (await existingGroup(tx, parent)).id;
    const group: GroupRecord = { id: newId(), name, parentId, createdAt: now };
    if (!(await tx.insertGroupIfAbsent(group)))
      throw new OperatorInputError(`group '${name}' already exists`, 'conflict');
    await audit({ event: 'group_created', at: now, reason: `group=${name}`, actor: actor.id });
    return group;
  });
}

/** Removes a group with its memberships and role assignments; one with subgroups is refused. */
export async function removeGroup(trail: AuditTrail, name: string, now: number, actor: Actor): Promise<void> {
  await trail.transaction(async (tx, audit) => {
    const group = await existingGroup(tx, name);
    if ((await tx.countSubgroups(group.id)) > 0)
      throw new OperatorInputError(`group '${name}' has subgroups: remove or move them first`, 'conflict');
    await tx.removeGroup(group.id);
    await audit({ event: 'group_removed', at: now, reason: `group=${name}`, actor: actor.id });
  });
}

/** The subject of the user of this username, or a not-found refusal. */
async function subjectOf(store: Repository, username: string): Promise<string> {
  const user = await store.findUser(username);
  if (user === undefined) throw new OperatorInputError(`there is no user '${username}'`, 'not_found');
  return user.subject;
}

/** Adds a user to a group; adding a member again changes nothing and records nothing. */
export async function addGroupMember(
  trail: AuditTrail,
  name: string,
  username: string,
  now: number,
  actor: Actor,
): Promise<boolean> {
  return trail.transaction(async (tx, audit) => {
    const group = await existingGroup(tx, name);
    const subject = await subjectOf(tx, username);
    if (!(await tx.addGroupMember(group.id, subject, now))) return false;
    await audit({ event: 'group_member_added', at: now, subject, reason: `group=${name}`, actor: actor.id });
    return true;
  });
}

/** Removes a user from a group: its next access token no longer carries what the group gave. */
export async function removeGroupMember(
  trail: AuditTrail,
  name: string,
  username: string,
  now: number,
  actor: Actor,
): Promise<void> {
  await trail.transaction(async (tx, audit) => {
    const group = await existingGroup(tx, name);
    const subject = await subjectOf(tx, username);
    if (!(await tx.removeGroupMember(group.id, subject)))
      throw new OperatorInputError(`user '${username}' is not a member of group '${name}'`, 'not_found');
    await audit({ event: 'group_member_removed', at: now, subject, reason: `group=${name}`, actor: actor.id });
  });
}

/** A group as the CLI and the admin API show it. */
export interface GroupView {
  readonly name: string;
  readonly parent: string | null;
  readonly created_at: string;
}

/** Every group, by name, with its parent's name. */
export async function listGroups(store: Repository): Promise<GroupView[]> {
  const groups = await store.listGroups();
  const names = new Map(groups.map((g) => [g.id, g.name]));
  return groups.map((g) => describeGroup(g, g.parentId === null ? null : (names.get(g.parentId) ?? null)));
}

/** A page of the groups by name after `after`, searched by name (any case) when `search` is given. */
export async function listGroupsPage(
  store: Repository,
  after: string | undefined,
  limit: number,
  search: string | undefined,
): Promise<GroupListing[]> {
  return store.listGroupsPage(after, limit, search);
}

/** The group of this name with its parent's name, or a not-found refusal. */
export async function showGroup(store: Repository, name: string): Promise<GroupView> {
  const group = await existingGroup(store, name);
  const parent = group.parentId === null ? undefined : await store.findGroupById(group.parentId);
  return describeGroup(group, parent?.name ?? null);
}

export function describeGroup(group: GroupRecord, parent: string | null): GroupView {
  return { name: group.name, parent, created_at: new Date(group.createdAt * 1000).toISOString() };
}

/** The usernames of a group's direct members. */
export async function listGroupMembers(store: Repository, name: string): Promise<string[]> {
  const group = await existingGroup(store, name);
  const usernames: string[] = [];
  for (const subject of await store.listGroupMembers(group.id)) {
    const user = await store.findUserBySubject(subject);
    if (user !== undefined) usernames.push(user.username);
  }
  return usernames;
}
