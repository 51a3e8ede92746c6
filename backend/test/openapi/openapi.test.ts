import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateOpenApiDocument } from '../../src/openapi/generate.js';

const COMMITTED = path.resolve(import.meta.dirname, '../../openapi.json');

describe('OpenAPI document', () => {
  it('matches the committed backend/openapi.json (run `npm run openapi -w @folio/backend`)', async () => {
    const generated = await generateOpenApiDocument();
    expect(readFileSync(COMMITTED, 'utf8')).toBe(generated);
  });

  it('gives every operation a unique operationId and marks the public ones', async () => {
    const document = JSON.parse(await generateOpenApiDocument()) as {
      servers: { url: string }[];
      paths: Record<
        string,
        Record<string, { operationId?: string; security?: unknown[]; responses?: Record<string, unknown> }>
      >;
    };
    expect(document.servers).toEqual([{ url: '/api/v1' }]);
    const operations = Object.values(document.paths).flatMap((item) => Object.values(item));
    const ids = operations.map((operation) => operation.operationId);
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(document.paths['/health']?.get?.security).toEqual([]);
    expect(document.paths['/auth/dev-login']?.post?.security).toEqual([]);
    expect(document.paths['/users/me']?.get?.security).toBeUndefined();
    expect(Object.keys(document.paths)).not.toContain('/config.js');
    for (const operation of operations) {
      if (operation.security === undefined) expect(Object.keys(operation.responses ?? {})).toContain('401');
    }
  });

  it('declares the restore route body in all three encodings it reads', async () => {
    const document = JSON.parse(await generateOpenApiDocument()) as {
      paths: Record<string, { post?: { requestBody?: { content: Record<string, { schema: unknown }> } } }>;
    };
    const content = document.paths['/restoration/restore']?.post?.requestBody?.content ?? {};
    expect(Object.keys(content).sort()).toEqual([
      'application/json',
      'application/x-www-form-urlencoded',
      'multipart/form-data',
    ]);
    for (const media of Object.values(content)) {
      expect(media.schema).toMatchObject({ required: ['file_id'], title: 'RestoreRequest' });
    }
  });
});
