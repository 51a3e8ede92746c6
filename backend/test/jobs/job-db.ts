// Rows the queue tests need besides the jobs themselves.
import { randomUUID } from 'node:crypto';
import type { Db } from '../../src/db/database.js';

export async function insertUser(db: Db, credits: number, tier = 'standard'): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  await db
    .insertInto('users')
    .values({
      id,
      google_sub: null,
      email: `${id}@example.test`,
      name: 'Test User',
      given_name: null,
      family_name: null,
      credits_remaining: credits,
      purchase_tier: tier,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}
