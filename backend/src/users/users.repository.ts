import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Executor } from '../db/transaction.js';
import type { UsersTable } from '../db/schema.js';

export type UserRow = Selectable<UsersTable>;

export class UsersRepository {
  async findById(db: Executor, id: string): Promise<UserRow | undefined> {
    return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async findByGoogleSub(db: Executor, sub: string): Promise<UserRow | undefined> {
    return db.selectFrom('users').selectAll().where('google_sub', '=', sub).executeTakeFirst();
  }

  async findByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
    return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
  }

  async insert(db: Executor, row: Insertable<UsersTable>): Promise<UserRow> {
    return db.insertInto('users').values(row).returningAll().executeTakeFirstOrThrow();
  }

  async update(db: Executor, id: string, changes: Updateable<UsersTable>): Promise<UserRow> {
    return db.updateTable('users').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  }

  /** Sets signup_granted once; true only for the caller that flipped it. */
  async markSignupGranted(db: Executor, id: string, now: string): Promise<boolean> {
    const result = await db
      .updateTable('users')
      .set({ signup_granted: 1, updated_at: now })
      .where('id', '=', id)
      .where('signup_granted', '=', 0)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }
}
