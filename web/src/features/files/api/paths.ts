// The file and restoration endpoints in openapi-typescript's shape. The generated schema (src/api/schema.d.ts)
// does not describe them until the backend commits its OpenAPI document; then `FilesPaths` becomes `paths`.
import type { FileDto } from '@folio/shared';

interface Params {
  query?: Record<string, unknown>;
  header?: never;
  path?: Record<string, string>;
  cookie?: never;
}
type Answer<T> = { 200: { headers: Record<string, unknown>; content: { 'application/json': T } } };
type Op<P extends Params, Body, T> = [Body] extends [never]
  ? { parameters: P; requestBody?: never; responses: Answer<T> }
  : { parameters: P; requestBody: { content: Body }; responses: Answer<T> };
type NoParams = { query?: never; header?: never; path?: never; cookie?: never };
type PathParams<P> = { query?: never; header?: never; path: P; cookie?: never };

export interface RestoreAnswer {
  data: { job_id: string };
  credits_remaining: number;
}

export interface FilesPaths {
  '/files/all': { get: Op<NoParams, never, { files: FileDto[] }> };
  '/files/download/id/{id}/{filename}': {
    get: Op<
      {
        query?: { preview?: boolean };
        header?: never;
        path: { id: string; filename: string };
        cookie?: never;
      },
      never,
      string
    >;
  };
  '/files/download': {
    post: Op<NoParams, { 'application/json': { file_ids: string[] } }, string>;
  };
  '/files/file/{id}': { delete: Op<PathParams<{ id: string }>, never, unknown> };
  '/restoration/restore': {
    post: Op<NoParams, { 'multipart/form-data': { file_id: string; filename: string } }, RestoreAnswer>;
  };
}
