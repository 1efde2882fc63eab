import { deleteDB, openDB } from 'idb';
import { afterEach, describe, expect, it } from 'vitest';
import { closeDb, db, DB_NAME, DB_VERSION } from '@/lib/storage/database';
import { stillStore } from '@/lib/storage/still-store';
import { storyboardStore } from '@/lib/storage/storyboard-store';
import { taskStore } from '@/lib/storage/task-store';

afterEach(async () => {
  await closeDb();
  await deleteDB(DB_NAME);
});

/** A database as version 2 of the extension left it (its stores as that version made them), with a task and a storyboard. */
async function versionTwoWithRecords(): Promise<void> {
  const old = await openDB(DB_NAME, 2, {
    upgrade(database) {
      const tasks = database.createObjectStore('tasks', { keyPath: 'localId' });
      tasks.createIndex('byStatus', 'status');
      tasks.createIndex('byCreatedAt', 'createdAt');
      tasks.createIndex('byTaskId', 'taskId', { unique: true });
      for (const name of ['groups', 'assets']) database.createObjectStore(name, { keyPath: name === 'groups' ? 'id' : 'localId' });
      database.createObjectStore('queue', { keyPath: 'key', autoIncrement: true });
      database.createObjectStore('settings');
      database.createObjectStore('storyboards', { keyPath: 'id' }).createIndex('byUpdatedAt', 'updatedAt');
      database.createObjectStore('batches', { keyPath: 'id' }).createIndex('byCreatedAt', 'createdAt');
    },
  });
  await old.put('tasks', { localId: 'kept-task', taskId: 'cgt-1', model: 'm', body: { model: 'm' }, status: 'completed', progress: 100, idempotencyKey: 'k', notified: true, createdAt: 1 });
  await old.put('storyboards', { id: 'board', name: 'Kept', shots: [], createdAt: 1, updatedAt: 1 });
  old.close();
}

describe('the database upgrade', () => {
  it('from version 2 keeps every task and storyboard and adds the stills store', async () => {
    await versionTwoWithRecords();
    expect(DB_VERSION).toBe(3);
    expect((await db()).objectStoreNames.contains('stills')).toBe(true);
    expect(await taskStore.get('kept-task')).toMatchObject({ taskId: 'cgt-1', status: 'completed' });
    expect(await storyboardStore.get('board')).toMatchObject({ name: 'Kept' });
    await stillStore.put({ taskId: 'cgt-1', head: 'data:image/jpeg;base64,AA', takenAt: 2 });
    await closeDb();
    expect(await stillStore.get('cgt-1')).toMatchObject({ head: 'data:image/jpeg;base64,AA' });
  });
});
