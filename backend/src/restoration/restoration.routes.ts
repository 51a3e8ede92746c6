// POST /restoration/restore (fields file_id, filename as multipart, urlencoded form or JSON) and the job status.
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { ErrorSchema } from '../auth/auth.schemas.js';
import { BadRequestError, UnprocessableEntityError } from '../errors.js';
import { MALFORMED_MULTIPART, hasBoundary, multipartFailure } from '../files/upload-reader.js';
import { JobStatusSchema, RestoreRequestSchema, RestoreStartedSchema } from './restoration.schemas.js';
import type { RestorationService } from './restoration.service.js';

const MAX_FIELD_BYTES = 1024;
const MAX_FORM_BYTES = 16 * 1024;

async function readFields(request: FastifyRequest): Promise<Record<string, string>> {
  if (!request.isMultipart()) {
    const body: unknown = request.body;
    if (body === null || typeof body !== 'object') return {};
    return Object.fromEntries(
      Object.entries(body as Record<string, unknown>).filter((entry): entry is [string, string] => {
        return typeof entry[1] === 'string';
      }),
    );
  }
  if (!hasBoundary(request)) throw new BadRequestError(`${MALFORMED_MULTIPART}: no boundary`);
  const fields: Record<string, string> = {};
  try {
    for await (const part of request.parts({
      limits: { fieldSize: MAX_FIELD_BYTES, files: 0, fields: 10 },
    })) {
      if (part.type === 'field' && typeof part.value === 'string') fields[part.fieldname] = part.value;
    }
  } catch (error) {
    multipartFailure(error);
  }
  return fields;
}

export const restorationRoutes: FastifyPluginAsyncTypebox<{ service: RestorationService }> = async (
  app,
  { service },
) => {
  if (!app.hasRequestDecorator('isMultipart')) await app.register(multipart);
  // An HTML form's default encoding.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: MAX_FORM_BYTES },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body.toString())));
    },
  );

  app.post(
    '/restoration/restore',
    {
      schema: {
        operationId: 'restoreFile',
        tags: ['restoration'],
        summary:
          'Start restoring a file: costs one credit per page, charged now; progress arrives on the socket',
        description: 'multipart/form-data, a urlencoded form or JSON with the fields of RestoreRequest',
        consumes: ['multipart/form-data', 'application/x-www-form-urlencoded', 'application/json'],
        body: RestoreRequestSchema,
        response: {
          200: RestoreStartedSchema,
          400: ErrorSchema,
          402: ErrorSchema,
          404: ErrorSchema,
          409: ErrorSchema,
          422: ErrorSchema,
        },
      },
      // The body schema documents the route (OpenAPI, the web's generated client). A multipart body is read
      // as a stream after validation, so the handler checks the fields of all three encodings itself.
      validatorCompiler: () => () => true,
    },
    async (request) => {
      const fields = await readFields(request);
      const fileId = fields.file_id?.trim();
      if (!fileId) throw new UnprocessableEntityError('file_id is required');
      const started = await service.start(request.user.id, fileId);
      return { data: { job_id: started.jobId }, credits_remaining: started.creditsRemaining };
    },
  );

  app.get(
    '/restoration/jobs/:jobId',
    {
      schema: {
        operationId: 'getRestorationJob',
        tags: ['restoration'],
        summary: 'State of one of the signed-in user’s restoration jobs',
        params: Type.Object({ jobId: Type.String() }),
        response: { 200: JobStatusSchema, 404: ErrorSchema },
      },
    },
    (request) => service.status(request.user.id, request.params.jobId),
  );
};
