// Every migration, in order. A static list (not a folder scan) so it works the same under tsx and vitest.
// Each domain appends its migration here with one line.
import type { Migration } from 'kysely';
import { usersCredits } from './001_users_credits.js';
import { files } from './002_files.js';
import { jobs } from './003_jobs.js';
import { billing } from './004_billing.js';
import { paymentReversals } from './005_payment_reversals.js';
import { previewAttempts } from './006_preview_attempts.js';
import { filesListIndexes } from './007_files_list_indexes.js';
import { jobFailures } from './008_job_failures.js';

export const migrations: Record<string, Migration> = {
  '001_users_credits': usersCredits,
  '002_files': files,
  '003_jobs': jobs,
  '004_billing': billing,
  '005_payment_reversals': paymentReversals,
  '006_preview_attempts': previewAttempts,
  '007_files_list_indexes': filesListIndexes,
  '008_job_failures': jobFailures,
};
