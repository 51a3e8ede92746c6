// The dashboard's API calls (spec §7), all through the app's openapi-fetch client: Bearer token, timeout,
// 401/403 handling and error texts come from there. Uploads use upload-xhr.ts for progress events.
import { getApi, unwrap } from '../../../api/client.js';
import type { FileDto, RestoreStarted } from '../../../api/types.js';
import type { ListQuery } from '../logic/list-view.js';
import { fromDto, type FileItem } from '../logic/model.js';

const api = getApi;

export async function listFiles(): Promise<FileItem[]> {
  const answer = await unwrap(api().GET('/files/all'));
  return answer.files.map((dto: FileDto) => fromDto(dto));
}

export interface FilesPage {
  files: FileItem[];
  total: number;
}

/** One page of one section, searched, filtered and sorted by the server. */
export async function listFilesPage(query: ListQuery): Promise<FilesPage> {
  const answer = await unwrap(api().GET('/files/all', { params: { query } }));
  return {
    files: answer.files.map((dto: FileDto) => fromDto(dto)),
    total: answer.total ?? answer.files.length,
  };
}

interface RawResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/** Binary answers: errors go through unwrap (spec text order), the body is read as a Blob. */
async function blobOf(call: Promise<RawResult>): Promise<Blob> {
  const result = await call;
  await unwrap(Promise.resolve(result));
  return result.response.blob();
}

export function downloadFile(id: string, filename: string): Promise<Blob> {
  return blobOf(
    api().GET('/files/download/id/{id}/{filename}', {
      params: { path: { id, filename } },
      parseAs: 'stream',
    }),
  );
}

/** Card preview: a non-OK answer raises "Failed to load preview: {status}" (spec §7). */
export async function fetchPreview(id: string, filename: string): Promise<Blob> {
  const { response } = await api().GET('/files/download/id/{id}/{filename}', {
    params: { path: { id, filename }, query: { preview: true } },
    parseAs: 'stream',
  });
  if (!response.ok) throw new Error(`Failed to load preview: ${response.status}`);
  return response.blob();
}

export function downloadZip(fileIds: string[]): Promise<Blob> {
  return blobOf(api().POST('/files/download', { body: { file_ids: fileIds }, parseAs: 'stream' }));
}

export async function deleteFile(id: string): Promise<void> {
  await unwrap(api().DELETE('/files/file/{id}', { params: { path: { id } } }));
}

/** Sent as multipart/form-data, the encoding spec §7 names. */
export function startRestoration(fileId: string, filename: string): Promise<RestoreStarted> {
  return unwrap(
    api().POST('/restoration/restore', {
      body: { file_id: fileId, filename },
      bodySerializer: (body) => {
        const form = new FormData();
        form.set('file_id', body.file_id);
        if (body.filename !== undefined) form.set('filename', body.filename);
        return form;
      },
    }),
  );
}

/** Saves a blob under a file name through a temporary link. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
