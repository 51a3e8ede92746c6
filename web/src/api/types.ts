// Named API types, each read from the client generated from the OpenAPI document (schema.d.ts): the app
// declares no API shape of its own.
import type { FailureOf, RealtimeEvent as SharedRealtimeEvent } from '@folio/shared';
import type { operations } from './schema.js';

type Json<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;

/** The 200 answer of an operation, by its operationId. */
export type Answer<Id extends keyof operations> = Json<operations[Id]['responses'][200]>;

export type RestoreStarted = Answer<'restoreFile'>;

/** The signed-in user, as every sign-in call answers it (Google, dev login, refresh). */
export type User = Answer<'googleLogin'>['user'];

/** GET /files/all's query parameters. */
export type FilesQuery = NonNullable<operations['listFiles']['parameters']['query']>;

/** A file as the API lists it (GET /files/all) and as realtime events carry it. */
export type FileDto = Answer<'listFiles'>['files'][number];

/** Why a restoration fell short, as a listed file and the realtime events carry it. */
export type RestorationFailure = FailureOf<FileDto>;

/** The realtime events of @folio/shared, carrying files of the generated shape. */
export type RealtimeEvent = SharedRealtimeEvent<FileDto>;
