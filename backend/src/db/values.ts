// Portable values: times are UTC ISO-8601 strings (fixed width, so they sort as text), booleans are 0/1.
import type { DbBool } from './schema.js';

export function toDbBool(value: boolean): DbBool {
  return value ? 1 : 0;
}

export function fromDbBool(value: DbBool | boolean | null | undefined): boolean {
  return value === true || value === 1;
}

export function nowIso(): string {
  return new Date().toISOString();
}
