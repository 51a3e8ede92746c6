// API errors and the text the user sees for them (spec §8 "Text order").
import { TEXT } from '../config/texts.js';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** Auth errors are flagged so the UI can ask for sign-in again. */
  get isAuthError(): boolean {
    return this.status === 401;
  }
}

const str = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

/** error.message, message, detail, then the client's own message, then the generic text. */
export function errorText(body: unknown, clientMessage?: string): string {
  return (
    str(field(field(body, 'error'), 'message')) ??
    str(field(body, 'message')) ??
    str(field(body, 'detail')) ??
    str(clientMessage) ??
    TEXT.unexpectedError
  );
}

/** Server text only (detail or message), for 401 and 403 where the spec names its own fallback. */
export function serverText(body: unknown): string | undefined {
  return str(field(body, 'detail')) ?? str(field(body, 'message'));
}
