// Request and response schemas of the files routes (published in the OpenAPI document).
import { Type, type Static, type TInteger, type TString } from '@fastify/type-provider-typebox';

/**
 * `type: [T, 'null']` rather than anyOf: fast-json-stringify writes it directly, where anyOf made it check
 * every value of every row against the schemas at run time (most of the list's cost).
 */
const Nullable = <T extends TString | TInteger>(schema: T) => {
  const { description } = schema as { description?: string };
  return Type.Unsafe<Static<T> | null>({
    type: [schema.type, 'null'],
    ...(description ? { description } : {}),
  });
};

export const RestorationFailureSchema = Type.Object(
  {
    job_id: Type.String(),
    outcome: Type.Union([Type.Literal('failed'), Type.Literal('partial')], {
      description: 'failed: no file came out; partial: the restored file keeps some pages as they were',
    }),
    reason: Type.String({ description: 'Why: the job’s error, or the first failed page’s reason' }),
    failed_pages: Type.Integer(),
    total_pages: Type.Integer(),
    credits_refunded: Type.Integer({ description: 'Credits given back for this job' }),
  },
  { title: 'RestorationFailure' },
);
/**
 * Why a restoration delivered fewer pages than it was paid for, and the credits it gave back: `failed` when no
 * file came out (every page refunded), `partial` when the file keeps some pages as they were.
 */
export type RestorationFailure = Static<typeof RestorationFailureSchema>;

export const FileDtoSchema = Type.Object(
  {
    id: Type.String(),
    filename: Type.String(),
    name: Type.String({ description: 'Same as filename' }),
    file_type: Type.String({ description: 'Lowercased extension of the detected format' }),
    size_bytes: Type.Integer(),
    status: Type.String({ description: 'uploaded, processing, processed or error' }),
    type: Type.Union([Type.Literal('original'), Type.Literal('restored')]),
    original_filename: Nullable(Type.String()),
    page_count: Nullable(Type.Integer()),
    credit_cost: Nullable(Type.Integer({ description: 'Credits to restore it (pages); originals only' })),
    days_remaining: Nullable(
      Type.Integer({ description: 'Whole days left before deletion; 0 on the last day' }),
    ),
    preview_available: Type.Boolean(),
    created_at: Type.String(),
    updated_at: Type.String(),
    original_file_id: Nullable(Type.String()),
    job_id: Nullable(Type.String()),
    has_restored: Type.Optional(
      Type.Boolean({ description: 'Originals, in the list: a restored version of it exists' }),
    ),
    restoration_failure: Type.Optional(RestorationFailureSchema),
  },
  { title: 'FileDto' },
);

export const UploadResponseSchema = Type.Object(
  {
    file_id: Type.String(),
    job_id: Type.String({ description: 'Id of the upload processing record (preview rendering)' }),
    file: FileDtoSchema,
  },
  { title: 'UploadResponse' },
);

export const BatchUploadResponseSchema = Type.Object(
  {
    batch_job_id: Type.String({ description: 'Shared job_id of every file accepted in this batch' }),
    files: Type.Array(FileDtoSchema),
    rejected: Type.Array(Type.Object({ filename: Type.String(), detail: Type.String() })),
  },
  { title: 'BatchUploadResponse' },
);

export const FileListSchema = Type.Object(
  {
    files: Type.Array(FileDtoSchema),
    total: Type.Optional(
      Type.Integer({ description: 'With limit: how many files match the query (every page together)' }),
    ),
  },
  { title: 'FileList' },
);

export const LIST_SORTS = ['created', 'name', 'size', 'days_left'] as const;
export const LIST_STATUSES = ['uploaded', 'processing', 'processed', 'error'] as const;
const literals = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));

/** Every parameter is optional: without any, the whole list comes back newest first (spec §7). */
export const ListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, description: 'Page size; adds total' })),
  offset: Type.Optional(Type.Integer({ minimum: 0, description: 'Files to skip (with limit)' })),
  q: Type.Optional(Type.String({ maxLength: 200, description: 'Part of the name, any case' })),
  type: Type.Optional(literals(['original', 'restored'] as const)),
  status: Type.Optional(literals(LIST_STATUSES)),
  format: Type.Optional(literals(['pdf', 'image'] as const)),
  sort: Type.Optional(literals(LIST_SORTS)),
  order: Type.Optional(literals(['asc', 'desc'] as const)),
});
export type ListQueryType = Static<typeof ListQuery>;

export const FileIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
export const DownloadParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64 }),
  filename: Type.String({ description: 'Any name; only the id selects the file' }),
});
export const DownloadQuery = Type.Object({
  preview: Type.Optional(Type.Boolean({ description: 'true: the page-1 preview image instead of the file' })),
});

export const ZipBody = Type.Object({
  file_ids: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 500 }),
});
export type ZipBodyType = Static<typeof ZipBody>;

export const DeleteResponseSchema = Type.Object(
  { id: Type.String(), deleted: Type.Literal(true) },
  { title: 'FileDeleted' },
);

export const BinarySchema = Type.String({ format: 'binary' });

/** A file as the API lists it and as realtime events carry it. */
export type FileDto = Static<typeof FileDtoSchema>;
