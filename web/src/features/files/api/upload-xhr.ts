// Uploads with real progress: fetch has no upload progress events, so this one call uses XMLHttpRequest with the
// same base URL, Bearer token and error texts as the API client.
import { API_TIMEOUT_MS } from '@folio/shared';
import { ApiError, errorText, serverText } from '../../../api/errors.js';
import type { Answer } from '../../../api/types.js';
import { getConfig } from '../../../config/runtime.js';
import { TEXT } from '../../../config/texts.js';
import { handleUnauthorized } from '../../../lib/auth/unauthorized.js';
import { STORAGE_KEYS, local } from '../../../lib/storage.js';

export type UploadAnswer = Answer<'uploadFile'>;
type BatchUploadAnswer = Answer<'batchUploadFiles'>;

/** A file the batch did not keep, with the reason to show. */
export interface RejectedFile {
  filename: string;
  error: string;
}

/** The batch answer with each rejection's reason read into `error`. */
export interface BatchUploadResult extends Omit<BatchUploadAnswer, 'rejected'> {
  rejected: RejectedFile[];
}

/** Files per batch-upload request the server accepts. */
export const MAX_BATCH_FILES = 50;

export type OnProgress = (percent: number) => void;

function send<T>(path: string, form: FormData, onProgress: OnProgress, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${getConfig().apiBaseUrl}${path}`);
    const token = local.get(STORAGE_KEYS.token);
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.timeout = API_TIMEOUT_MS;
    xhr.responseType = 'text';
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0)
        onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => {
      let body: unknown;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        body = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve(body as T);
        return;
      }
      if (xhr.status === 401) handleUnauthorized(serverText(body) ?? TEXT.sessionExpired);
      reject(
        new ApiError(errorText(body, `Request failed with status code ${xhr.status}`), xhr.status, body),
      );
    };
    xhr.onerror = () => reject(new ApiError(TEXT.networkError, 0));
    xhr.ontimeout = () => reject(new ApiError(`timeout of ${API_TIMEOUT_MS}ms exceeded`, 0));
    xhr.onabort = () => reject(new ApiError('Upload canceled', 0));
    signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(form);
  });
}

export function uploadFile(file: File, onProgress: OnProgress, signal?: AbortSignal): Promise<UploadAnswer> {
  const form = new FormData();
  form.append('file', file, file.name);
  return send<UploadAnswer>('/files/upload', form, onProgress, signal);
}

export async function uploadBatch(
  files: File[],
  onProgress: OnProgress,
  signal?: AbortSignal,
): Promise<BatchUploadResult> {
  const form = new FormData();
  for (const file of files) form.append('files', file, file.name);
  const answer = await send<Partial<BatchUploadAnswer>>('/files/batch-upload', form, onProgress, signal);
  return {
    batch_job_id: answer.batch_job_id ?? '',
    files: answer.files ?? [],
    rejected: (answer.rejected ?? []).map(normaliseRejected),
  };
}

// The server may name the reason `error`, `detail` or `reason`.
function normaliseRejected(item: unknown): RejectedFile {
  const r = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
  const text = [r.error, r.detail, r.reason, r.message].find((v): v is string => typeof v === 'string');
  return { filename: typeof r.filename === 'string' ? r.filename : '', error: text ?? 'Upload failed' };
}
