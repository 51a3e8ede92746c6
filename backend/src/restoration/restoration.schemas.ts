import { Type } from '@fastify/type-provider-typebox';

export const RestoreStartedSchema = Type.Object(
  {
    data: Type.Object({ job_id: Type.String() }),
    credits_remaining: Type.Integer(),
  },
  { title: 'RestoreStarted' },
);

export const RestoreRequestSchema = Type.Object(
  {
    file_id: Type.String({ description: 'Id of an original file of the signed-in user' }),
    filename: Type.Optional(Type.String({ description: 'Display name, informational' })),
  },
  { title: 'RestoreRequest' },
);

export const JobStatusSchema = Type.Object(
  {
    job_id: Type.String(),
    status: Type.Union([
      Type.Literal('queued'),
      Type.Literal('running'),
      Type.Literal('completed'),
      Type.Literal('failed'),
    ]),
    original_file_id: Type.String(),
    restored_file_id: Type.Union([Type.String(), Type.Null()]),
    total_pages: Type.Integer(),
    current_page: Type.Integer(),
    successful_pages: Type.Integer(),
    failed_pages: Type.Integer(),
    error: Type.Union([Type.String(), Type.Null()]),
    credits_refunded: Type.Integer({
      description: 'Credits given back so far (failed pages, or all when failed)',
    }),
    page_failures: Type.Array(Type.Object({ page: Type.Integer(), reason: Type.String() }), {
      description: 'Why each failed page was not restored',
    }),
    created_at: Type.String(),
    finished_at: Type.Union([Type.String(), Type.Null()]),
  },
  { title: 'JobStatus' },
);
