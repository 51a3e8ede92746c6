// Typed HTTP errors and the one error handler that renders every failure as {"detail": "..."}.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly statusCode: number,
    readonly detail: string,
  ) {
    super(detail);
  }
}

export class BadRequestError extends HttpError {
  constructor(detail = 'Bad request') {
    super(400, detail);
  }
}
export class UnauthorizedError extends HttpError {
  constructor(detail = 'Not authenticated') {
    super(401, detail);
  }
}
export class PaymentRequiredError extends HttpError {
  constructor(detail = 'Not enough credits') {
    super(402, detail);
  }
}
export class ForbiddenError extends HttpError {
  constructor(detail = 'Access denied') {
    super(403, detail);
  }
}
export class NotFoundError extends HttpError {
  constructor(detail = 'Not found') {
    super(404, detail);
  }
}
export class ConflictError extends HttpError {
  constructor(detail = 'Conflict') {
    super(409, detail);
  }
}
export class PayloadTooLargeError extends HttpError {
  constructor(detail = 'Payload too large') {
    super(413, detail);
  }
}
export class UnsupportedMediaTypeError extends HttpError {
  constructor(detail = 'Unsupported media type') {
    super(415, detail);
  }
}
export class UnprocessableEntityError extends HttpError {
  constructor(detail = 'Validation error') {
    super(422, detail);
  }
}
export class TooManyRequestsError extends HttpError {
  constructor(detail = 'Too many requests') {
    super(429, detail);
  }
}
export class ServiceUnavailableError extends HttpError {
  constructor(detail = 'Service is currently under maintenance. Please try again later.') {
    super(503, detail);
  }
}

export interface ErrorBody {
  detail: string;
}

function validationDetail(error: FastifyError): string {
  const first = error.validation?.[0];
  if (!first) return error.message;
  const where = error.validationContext ?? 'request';
  const field = first.instancePath ? first.instancePath.replace(/^\//, '').replace(/\//g, '.') : '';
  const missing = first.params as { missingProperty?: unknown } | undefined;
  if (first.keyword === 'required' && typeof missing?.missingProperty === 'string') {
    return `${where}.${missing.missingProperty} is required`;
  }
  return `${field ? `${where}.${field}` : where} ${first.message ?? 'is invalid'}`;
}

/** Installs the error handler and the /api 404 handler. Other paths' 404s are left to the web plugin. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof HttpError) {
      return reply.status(error.statusCode).send({ detail: error.detail } satisfies ErrorBody);
    }
    if (error.validation) {
      return reply.status(422).send({ detail: validationDetail(error) } satisfies ErrorBody);
    }
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      return reply.status(status).send({ detail: error.message } satisfies ErrorBody);
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(status >= 500 && status < 600 ? status : 500).send({
      detail: 'Internal server error',
    } satisfies ErrorBody);
  });
}
