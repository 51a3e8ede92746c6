// Named API types, each read from the client generated from the OpenAPI document (schema.d.ts): the app
// declares no API shape of its own.
import type { RealtimeEvent as SharedRealtimeEvent } from '@folio/shared';
import type { operations } from './schema.js';

type Json<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;

/** The 200 answer of an operation, by its operationId. */
export type Answer<Id extends keyof operations> = Json<operations[Id]['responses'][200]>;

export type RestoreStarted = Answer<'restoreFile'>;

/** GET /files/all's query parameters. */
export type FilesQuery = NonNullable<operations['listFiles']['parameters']['query']>;

/** A file as the API lists it (GET /files/all) and as realtime events carry it. */
export type FileDto = Answer<'listFiles'>['files'][number];

/** The realtime events of @folio/shared, carrying files of the generated shape. */
export type RealtimeEvent = SharedRealtimeEvent<FileDto>;
