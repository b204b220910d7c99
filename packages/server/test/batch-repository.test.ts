import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import type { Repository } from '../src/store/repository.js';
import type { Database } from '../src/store/schema.js';
import { batchRepository } from '../src/store/sqlite/batch-repository.js';

describe("a group commit batch's repository (store/sqlite/batch-repository.ts)", () => {
  const connectionA = { name: 'a' } as unknown as Kysely<Database>;
  const connectionB = { name: 'b' } as unknown as Kysely<Database>;
  const insertRecord = async () => undefined;

  function counted() {
    const built: unknown[] = [];
    const build = (connection: Kysely<Database>) => {
      built.push(connection);
      return {
        insertRecord: async () => assert.fail('a hot query is never taken from the built repository'),
        findUser: async () => connection,
        listClients: async () => [connection],
      } as unknown as Repository;
    };
    const onConnection = batchRepository({ insertRecord }, ['insertRecord', 'findUser', 'listClients'], build);
    return { built, onConnection };
  }

  it('serves the prepared statements without building the rest', async () => {
    const { built, onConnection } = counted();
    const tx = onConnection(connectionA);
    assert.equal((tx as unknown as Record<string, unknown>).insertRecord, insertRecord);
    await tx.insertRecord({} as never);
    assert.deepEqual(built, []);
  });

  it("builds every other query once per batch, on that batch's connection", async () => {
    const { built, onConnection } = counted();
    const a = onConnection(connectionA);
    const b = onConnection(connectionB);
    assert.equal(await a.findUser('x'), connectionA);
    assert.deepEqual(await a.listClients(), [connectionA]);
    // Taken off the object, as a destructuring caller would.
    const { findUser } = b as unknown as { findUser: (id: string) => Promise<unknown> };
    assert.equal(await findUser('x'), connectionB);
    assert.deepEqual(built, [connectionA, connectionB]);
  });
});
