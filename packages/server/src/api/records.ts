import { ProblemError, mergePatch, type BodyValidator } from '@gatehouse/contract';
import type { StoredRecord } from '../store/record-repository.js';
import { newRecordId } from '../primitives/ids.js';
import type { Repository } from '../store/repository.js';
import { validBodyOrThrow } from '../json-api/body-problems.js';

/**
 * The REST collections' operations, HTTP-free. Every body is validated before anything is written,
 * and every write is conditional on the version read, so a refused or stale request changes nothing.
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

/** The record a POST of the (validated) `value` creates, not yet stored. */
export function newRecord(collection: Collection, value: Record<string, unknown>, now: number): StoredRecord {
  return { collection: collection.name, id: newRecordId(), body: value, version: 1, createdAt: now, updatedAt: now };
}

export async function readRecord(store: Repository, collection: Collection, id: string): Promise<StoredRecord> {
  const record = await store.findRecord(collection.name, id);
  if (!record) throw new ProblemError('not_found', `There is no ${collection.name} record '${id}'.`);
  return record;
}

/**
 * PUT: a full replacement, validated exactly as a POST body, except that the record's own id may be
 * sent (a record as GET returned it can be PUT back); another id is a 422. The id is the one of
 * the URL, so nothing is read before the body is validated.
 */
export async function replaceRecord(
  store: Repository,
  collection: Collection,
  id: string,
  body: unknown,
  ifMatch: string | undefined,
  now: number,
): Promise<StoredRecord> {
  const value = validBodyOrThrow(collection.validate(body, { id }));
  const current = await currentVersion(store, collection, id, ifMatch);
  return write(store, current, value, now);
}

/** PATCH: an RFC 7396 merge patch; the merged record is validated, so null on a required field is "missing". */
export async function patchRecord(
  store: Repository,
  collection: Collection,
  id: string,
  patch: unknown,
  ifMatch: string | undefined,
  now: number,
): Promise<StoredRecord> {
  const current = await currentVersion(store, collection, id, ifMatch);
  const value = validBodyOrThrow(collection.validate(mergePatch(current.body, patch), { id }));
  return write(store, current, value, now);
}

export async function deleteRecord(
  store: Repository,
  collection: Collection,
  id: string,
  ifMatch: string | undefined,
): Promise<void> {
  const current = await currentVersion(store, collection, id, ifMatch);
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

/** The record, after checking `If-Match` against its ETag (RFC 9110 §13.1.1). */
async function currentVersion(
  store: Repository,
  collection: Collection,
  id: string,
  ifMatch: string | undefined,
): Promise<StoredRecord> {
  const record = await readRecord(store, collection, id);
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
