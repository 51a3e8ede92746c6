// The append-only credits ledger: every change of a balance is one ledger row with a unique reference,
// written in the same transaction as the balance. Replaying a reference changes nothing.
import { randomUUID } from 'node:crypto';
import type { Executor, Trx } from '../db/transaction.js';
import { nowIso } from '../db/values.js';
import { NotFoundError } from '../errors.js';
import { InsufficientCreditsError } from './credits.errors.js';
import { CreditsRepository, type LedgerRow } from './credits.repository.js';

export interface CreditChange {
  userId: string;
  /** Positive grants, negative spends. */
  delta: number;
  /** Short machine word: signup, purchase, restoration, refund, ... */
  reason: string;
  /** Unique per event, e.g. `signup:<userId>`, `checkout:<sessionId>`, `restore:<jobId>`, `refund:<jobId>:<page>`. */
  reference: string;
}

export interface CreditResult {
  balance: number;
  /** False when the reference was already in the ledger (a replay). */
  applied: boolean;
}

export class CreditsService {
  constructor(private readonly repo = new CreditsRepository()) {}

  async apply(trx: Trx, change: CreditChange): Promise<CreditResult> {
    if (!Number.isSafeInteger(change.delta))
      throw new Error(`credit delta must be an integer: ${change.delta}`);
    if (change.reference.trim() === '') throw new Error('credit reference must not be empty');

    // Locking the balance first serialises every change of this user's credits, so the replay check
    // below cannot race with a concurrent transaction carrying the same reference.
    const current = await this.repo.lockBalance(trx, change.userId);
    if (current === undefined) throw new NotFoundError('User not found');
    const existing = await this.repo.findByReference(trx, change.reference);
    if (existing) return { balance: current, applied: false };

    const now = nowIso();
    const balance = await this.repo.addToBalance(trx, change.userId, change.delta, now);
    if (balance === undefined) {
      const available = (await this.repo.lockBalance(trx, change.userId)) ?? 0;
      throw new InsufficientCreditsError(-change.delta, available);
    }
    await this.repo.insert(trx, {
      id: randomUUID(),
      user_id: change.userId,
      delta: change.delta,
      reason: change.reason,
      reference: change.reference,
      balance_after: balance,
      created_at: now,
    });
    return { balance, applied: true };
  }

  async balance(db: Executor, userId: string): Promise<number> {
    const balance = await this.repo.balance(db, userId);
    if (balance === undefined) throw new NotFoundError('User not found');
    return balance;
  }

  async history(trx: Executor, userId: string, limit = 100): Promise<LedgerRow[]> {
    return this.repo.listForUser(trx, userId, limit);
  }

  async ledgerTotal(trx: Executor, userId: string): Promise<number> {
    return this.repo.sumForUser(trx, userId);
  }
}
