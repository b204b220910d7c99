import { ProblemError, mergePatch, type BodyValidator } from '@gatehouse/contract';
import type { StoredRecord } from '../store/record-repository.js';
import { newRecordId } from '../primitives/ids.js';
import type { Repository } from '../store/repository.js';
import { validBodyOrThrow } from '../json-api/body-problems.js';
import { reachesRecord, type RecordAccess } from './ownership.js';

/**
 * The REST collections' operations, HTTP-free. Every body is validated before anything is written,
 * and every write is conditional on the version read, so a refused or stale request changes nothing.
 * Each takes the caller's `RecordAccess` (ownership.ts): a record it does not reach is not found.
 */
export interface Collection {
  readonly name: string;
  readonly validate: BodyValidator;
}

/** The record as the API shows it: its id, then its fields. */
export function representation(record: StoredRecord): Record<string, unknown> {
  return { id: record.id, ...record.body };
}

export function etagOf(record: Pick<StoredRecord, 'version'>): string {
  return `"${record.version}"`;
}

/** The record a POST of the (validated) `value` creates, not yet stored, owned by whom the access creates as. */
export function newRecord(
  collection: Collection,
  access: RecordAccess,
  value: Record<string, unknown>,
  now: number,
): StoredRecord {
  const id = newRecordId();
  return {
    collection: collection.name,
    id,
    owner: access.createsAs,
    body: value,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * The record, if the access reaches it. Another owner's record is answered exactly as an id that does
 * not exist (the same problem, the same detail), so that a caller learns nothing of others' ids.
 */
export async function readRecord(
  store: Repository,
  collection: Collection,
  access: RecordAccess,
  id: string,
): Promise<StoredRecord> {
  const record = await store.findRecord(collection.name, id);
  if (!record || !reachesRecord(access, record.owner))
    throw new ProblemError('not_found', `There is no ${collection.name} record '${id}'.`);
  return record;
}

/** A page of the records the access reaches, after the id `after`, in creation order. */
export function listRecords(
  store: Repository,
  collection: Collection,
  access: RecordAccess,
  after: string | undefined,
  limit: number,
): Promise<StoredRecord[]> {
  const owner = access.reaches === 'every_record' ? undefined : access.reaches;
  return store.listRecords(collection.name, after, limit, owner);
}

/**
 * PUT: a full replacement, validated exactly as a POST body, except that the record's own id may be
 * sent (a record as GET returned it can be PUT back); another id is a 422. The id is the one of
 * the URL, so nothing is read before the body is validated.
 */
export async function replaceRecord(
  store: Repository,
  collection: Collection,
  access: RecordAccess,
  id: string,
  body: unknown,
  ifMatch: string | undefined,
  now: number,
): Promise<StoredRecord> {
  const value = validBodyOrThrow(collection.validate(body, { id }));
  const current = await currentVersion(store, collection, access, id, ifMatch);
  return write(store, current, value, now);
}

/** PATCH: an RFC 7396 merge patch; the merged record is validated, so null on a required field is "missing". */
export async function patchRecord(
  store: Repository,
  collection: Collection,
  access: RecordAccess,
  id: string,
  patch: unknown,
  ifMatch: string | undefined,
  now: number,
): Promise<StoredRecord> {
  const current = await currentVersion(store, collection, access, id, ifMatch);
  const value = validBodyOrThrow(collection.validate(mergePatch(current.body, patch), { id }));
  return write(store, current, value, now);
}

export async function deleteRecord(
  store: Repository,
  collection: Collection,
  access: RecordAccess,
  id: string,
  ifMatch: string | undefined,
): Promise<void> {
  const current = await currentVersion(store, collection, access, id, ifMatch);
  if (!(await store.deleteRecord(collection.name, id, current.version))) throw changedMeanwhile();
}

async function write(
  store: Repository,
  current: StoredRecord,
  body: Record<string, unknown>,
  now: number,
): Promise<StoredRecord> {
  if (!(await store.updateRecord(current.collection, current.id, body, current.version, now))) throw changedMeanwhile();
  return { ...current, body, version: current.version + 1, updatedAt: now };
}

/**
 * The record, after checking `If-Match` against its ETag (RFC 9110 §13.1.1). Ownership comes first:
 * another owner's record is 404 before its version is compared, so a 412 never tells it exists.
 * The write that follows is conditional on this version, and a record's owner never changes.
 */
async function currentVersion(
  store: Repository,
  collection: Collection,
  access: RecordAccess,
  id: string,
  ifMatch: string | undefined,
): Promise<StoredRecord> {
  const record = await readRecord(store, collection, access, id);
  if (ifMatch !== undefined) {
    const tags = ifMatch.split(',').map((t) => t.trim());
    if (!tags.includes('*') && !tags.includes(etagOf(record))) {
      throw new ProblemError('precondition_failed', `If-Match does not name the current version ${etagOf(record)}.`);
    }
  }
  return record;
}

function changedMeanwhile(): ProblemError {
  return new ProblemError('precondition_failed', 'The record changed while this request was processed; read it again.');
}
