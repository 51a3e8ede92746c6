// Table types of the whole database. Each domain declares its tables next to its code and adds them here.
import type { Generated } from 'kysely';
import type { BillingTables } from '../billing/billing.tables.js';
import type { FilesTables } from '../files/files.tables.js';
import type { JobTables } from '../jobs/jobs.tables.js';

/** Booleans are stored as INTEGER 0/1 on both SQLite and PostgreSQL (see db/values.ts). */
export type DbBool = number;

export interface UsersTable {
  id: string;
  google_sub: string | null;
  email: string;
  name: string;
  given_name: string | null;
  family_name: string | null;
  credits_remaining: number;
  purchase_tier: Generated<string>;
  signup_granted: Generated<DbBool>;
  created_at: string;
  updated_at: string;
}

export interface CreditLedgerTable {
  id: string;
  user_id: string;
  delta: number;
  reason: string;
  reference: string;
  balance_after: number;
  created_at: string;
}

export interface UsersCreditsTables {
  users: UsersTable;
  credit_ledger: CreditLedgerTable;
}

/** The whole database: each domain intersects its tables here (`& FilesTables & JobsTables ...`). */
export type Database = UsersCreditsTables & FilesTables & JobTables & BillingTables;
