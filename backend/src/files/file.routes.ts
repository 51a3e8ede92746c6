// HTTP surface of the files domain (spec §7). Thin: read the request, call FileService, shape the answer.
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FileDto } from './file.schemas.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { ErrorSchema } from '../auth/auth.schemas.js';
import { BadRequestError, HttpError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../errors.js';
import {
  BatchUploadResponseSchema,
  BinarySchema,
  DeleteResponseSchema,
  DownloadParams,
  DownloadQuery,
  FileIdParams,
  FileListSchema,
  ListQuery,
  UploadResponseSchema,
  ZipBody,
} from './file.schemas.js';
import type { Download, FileService } from './file-service.js';
import { lingerAfterAnswer } from './lingering-close.js';
import {
  MALFORMED_MULTIPART,
  formatMegabytes,
  hasBoundary,
  multipartFailure,
  readPart,
} from './upload-reader.js';

export interface FilesRoutesOptions {
  service: FileService;
  maxUploadBytes: number;
  /** Most files one batch upload takes. */
  maxBatchFiles?: number;
}

const uploadErrors = {
  400: ErrorSchema,
  401: ErrorSchema,
  413: ErrorSchema,
  415: ErrorSchema,
  422: ErrorSchema,
};
/** Page size when a query filters without naming one. */
const MAX_PAGE = 200;
const readErrors = { 401: ErrorSchema, 404: ErrorSchema };
// Room for the multipart boundaries and part headers around one file.
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

/** A failure of our own while storing a batch file: not the client's, so not a 400. */
class StoreFailure extends Error {
  constructor(override readonly cause: unknown) {
    super('storing a batch file failed');
  }
}

function sendDownload(reply: FastifyReply, download: Download): FastifyReply {
  reply
    .type(download.contentType)
    .header('content-disposition', download.contentDisposition)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store');
  if (download.contentLength !== undefined) reply.header('content-length', download.contentLength);
  return reply.send(download.stream);
}

export const filesRoutes: FastifyPluginAsyncTypebox<FilesRoutesOptions> = async (app, options) => {
  const { service, maxUploadBytes } = options;
  const maxBatchFiles = options.maxBatchFiles ?? 50;
  const tooLarge = `File too large. Maximum size: ${formatMegabytes(maxUploadBytes)}`;
  const tooManyFiles = `Too many files: at most ${maxBatchFiles} in one upload. None of them were kept.`;

  await app.register(multipart, {
    limits: {
      fileSize: maxUploadBytes,
      files: maxBatchFiles,
      fields: 20,
      fieldSize: 64 * 1024,
      parts: maxBatchFiles + 20,
    },
    throwFileSizeLimit: false,
  });

  const notMultipart = 'Expected a multipart/form-data upload';
  app.addHook('preHandler', async (request) => {
    // Uploads only: a JSON or raw body there is a client mistake, not a server error.
    if (request.routeOptions.url?.endsWith('upload')) {
      if (!request.isMultipart()) throw new UnsupportedMediaTypeError(notMultipart);
      if (!hasBoundary(request)) throw new BadRequestError(`${MALFORMED_MULTIPART}: no boundary`);
    }
    await Promise.resolve();
  });

  /** Answers 413 and closes the connection so the unread rest of the body is not kept; see lingering-close. */
  function refuseTooLarge(request: FastifyRequest, reply: FastifyReply): never {
    reply.header('connection', 'close');
    lingerAfterAnswer(request.raw);
    throw new PayloadTooLargeError(tooLarge);
  }

  app.post(
    '/files/upload',
    {
      schema: {
        operationId: 'uploadFile',
        tags: ['files'],
        summary: 'Upload one file (multipart field "file"); the type is decided by its content',
        consumes: ['multipart/form-data'],
        response: { 200: UploadResponseSchema, ...uploadErrors },
      },
      // A declared body that cannot fit is refused before a byte of it is read.
      onRequest: async (request, reply) => {
        const declared = Number(request.headers['content-length'] ?? 0);
        if (declared > maxUploadBytes + MULTIPART_OVERHEAD_BYTES) refuseTooLarge(request, reply);
        await Promise.resolve();
      },
    },
    async (request, reply) => {
      const part = await request.file().catch(multipartFailure);
      if (!part || part.fieldname !== 'file')
        throw new BadRequestError('Expected the file in multipart field "file"');
      const read = await readPart(part, true).catch(multipartFailure);
      if (!read.ok) refuseTooLarge(request, reply);
      const jobId = randomUUID();
      const file = await service.createOriginal(request.user.id, part.filename, read.bytes, jobId);
      return { file_id: file.id, job_id: jobId, file };
    },
  );

  app.post(
    '/files/batch-upload',
    {
      schema: {
        operationId: 'batchUploadFiles',
        tags: ['files'],
        summary: 'Upload several files (repeated multipart field "files"); bad files are refused one by one',
        consumes: ['multipart/form-data'],
        response: { 200: BatchUploadResponseSchema, ...uploadErrors },
      },
    },
    async (request, reply) => {
      const batchJobId = randomUUID();
      const accepted: FileDto[] = [];
      const rejected: { filename: string; detail: string }[] = [];
      let seen = 0;
      try {
        for await (const part of request.files()) {
          seen++;
          const filename = part.filename || 'file';
          const read = await readPart(part, false);
          if (!read.ok) {
            rejected.push({ filename, detail: tooLarge });
            continue;
          }
          try {
            accepted.push(
              await service.createOriginal(request.user.id, part.filename, read.bytes, batchJobId),
            );
          } catch (error) {
            if (!(error instanceof HttpError)) throw new StoreFailure(error);
            rejected.push({ filename, detail: error.detail });
          }
        }
      } catch (error) {
        // A batch over the limit, or one whose body breaks off, is refused whole: nothing of it is kept.
        await Promise.all(accepted.map((file) => service.delete(request.user.id, file.id)));
        if ((error as { code?: unknown }).code === 'FST_FILES_LIMIT') {
          reply.header('connection', 'close');
          lingerAfterAnswer(request.raw);
          throw new PayloadTooLargeError(tooManyFiles);
        }
        if (error instanceof StoreFailure) throw error.cause;
        multipartFailure(error);
      }
      if (seen === 0) throw new BadRequestError('Expected files in multipart field "files"');
      return { batch_job_id: batchJobId, files: accepted, rejected };
    },
  );

  app.get(
    '/files/all',
    {
      schema: {
        operationId: 'listFiles',
        tags: ['files'],
        summary:
          "The signed-in user's files, newest first: all of them, or with limit one page (search, filter, sort)",
        querystring: ListQuery,
        response: { 200: FileListSchema, 401: ErrorSchema, 422: ErrorSchema },
      },
    },
    async (request, reply) => {
      const { limit, offset, ...filter } = request.query;
      const everything = limit === undefined && Object.values(filter).every((v) => v === undefined);
      if (everything && offset === undefined) {
        const json = await service.listJson(request.user.id, (body) => reply.serialize(body) as string);
        // Already the response schema's JSON, as bytes: Fastify sends a Buffer as it is.
        return reply.type('application/json; charset=utf-8').send(json as never);
      }
      return service.listPage(request.user.id, filter, { limit: limit ?? MAX_PAGE, offset: offset ?? 0 });
    },
  );

  app.get(
    '/files/download/id/:id/:filename',
    {
      schema: {
        operationId: 'downloadFile',
        tags: ['files'],
        summary: 'The file bytes, or with ?preview=true its page-1 preview image',
        params: DownloadParams,
        querystring: DownloadQuery,
        response: { 200: BinarySchema, ...readErrors },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const download = request.query.preview
        ? await service.preview(request.user.id, id)
        : await service.download(request.user.id, id);
      return sendDownload(reply, download);
    },
  );

  app.post(
    '/files/download',
    {
      schema: {
        operationId: 'downloadZip',
        tags: ['files'],
        summary: 'A zip of the selected files, streamed',
        body: ZipBody,
        response: { 200: BinarySchema, 400: ErrorSchema, ...readErrors, 422: ErrorSchema },
      },
    },
    async (request, reply) => sendDownload(reply, await service.zip(request.user.id, request.body.file_ids)),
  );

  app.delete(
    '/files/file/:id',
    {
      schema: {
        operationId: 'deleteFile',
        tags: ['files'],
        summary: 'Delete a file and its stored bytes',
        params: FileIdParams,
        response: { 200: DeleteResponseSchema, ...readErrors },
      },
    },
    async (request) => {
      await service.delete(request.user.id, request.params.id);
      return { id: request.params.id, deleted: true as const };
    },
  );
};
