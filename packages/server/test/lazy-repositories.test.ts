import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lazyRepositories, type Repository } from '../src/store/repository.js';

// A stand-in repository: what lazyRepositories does with one does not depend on its queries.
const built: string[] = [];
const build = (executor: string) => {
  built.push(executor);
  return {
    findRefreshToken: () => `full findRefreshToken on ${executor}`,
    insertAuditEvent: () => `insertAuditEvent on ${executor}`,
    findUserBySubject: () => `findUserBySubject on ${executor}`,
  } as unknown as Repository;
};
const members = ['findRefreshToken', 'insertAuditEvent', 'findUserBySubject'];
const repositoryOn = lazyRepositories(build, members, ['findRefreshToken']);
const own = (executor: string) =>
  ({ findRefreshToken: () => `own findRefreshToken on ${executor}` }) as unknown as Partial<Repository>;
const call = (tx: Repository, member: string) => (tx as unknown as Record<string, () => string>)[member]?.();

describe('a transaction repository built on first use (store/repository.ts lazyRepositories)', () => {
  it('answers its own members without building the whole repository', () => {
    built.length = 0;
    const tx = repositoryOn('tx1', own('tx1'));
    assert.equal(call(tx, 'findRefreshToken'), 'own findRefreshToken on tx1');
    assert.deepEqual(built, []);
  });

  it('builds the repository once, on its executor, at the first use of another member', () => {
    built.length = 0;
    const tx = repositoryOn('tx2', own('tx2'));
    assert.equal(call(tx, 'insertAuditEvent'), 'insertAuditEvent on tx2');
    assert.equal(call(tx, 'findUserBySubject'), 'findUserBySubject on tx2');
    assert.equal(call(tx, 'findRefreshToken'), 'own findRefreshToken on tx2');
    assert.deepEqual(built, ['tx2']);
  });

  it('keeps each transaction on its own executor', () => {
    built.length = 0;
    const [a, b] = [repositoryOn('a', own('a')), repositoryOn('b', own('b'))];
    assert.equal(call(b, 'insertAuditEvent'), 'insertAuditEvent on b');
    assert.equal(call(a, 'insertAuditEvent'), 'insertAuditEvent on a');
    assert.deepEqual(built, ['b', 'a']);
    assert.ok('findUserBySubject' in a);
  });
});

describe("a group commit batch's repository: members shared by every batch (store/sqlite/index.ts)", () => {
  const insertRecord = () => 'prepared insertRecord';
  const builtOn: string[] = [];
  const onBatch = lazyRepositories(
    (connection: string) => {
      builtOn.push(connection);
      return {
        insertRecord: () => assert.fail('a prepared statement is never taken from the built repository'),
        findUser: () => `findUser on ${connection}`,
      } as unknown as Repository;
    },
    ['insertRecord', 'findUser'],
    [],
    { insertRecord } as unknown as Partial<Repository>,
  );

  it('serves the prepared statements without building the rest', () => {
    builtOn.length = 0;
    const batch = onBatch('a');
    assert.equal(call(batch, 'insertRecord'), 'prepared insertRecord');
    assert.deepEqual(builtOn, []);
  });

  it("builds every other query once per batch, on that batch's connection, also when taken off the object", () => {
    builtOn.length = 0;
    const [a, b] = [onBatch('a'), onBatch('b')];
    assert.equal(call(a, 'findUser'), 'findUser on a');
    const { findUser } = b as unknown as { findUser: () => string };
    assert.equal(findUser(), 'findUser on b');
    assert.equal(call(a, 'findUser'), 'findUser on a');
    assert.deepEqual(builtOn, ['a', 'b']);
  });
});
