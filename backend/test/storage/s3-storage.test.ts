import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll } from 'vitest';
import { S3Storage } from '../../src/storage/s3-storage.js';
import { storageContract } from './storage-contract.js';

// s3rver: a local S3-compatible server on loopback that keeps objects in a directory. It speaks the S3 REST
// protocol (path-style, SigV4 accepted but not verified), including multipart uploads and ListObjectsV2.
let server: S3rver;
let dir: string;
let storage: S3Storage;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'folio-s3rver-'));
  server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir });
  const { port } = await server.run();
  const options = {
    endpoint: `http://127.0.0.1:${port}`,
    bucket: 'folio-test',
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
  };
  const admin = new S3Client({
    endpoint: options.endpoint,
    region: options.region,
    forcePathStyle: true,
    credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
  });
  await admin.send(new CreateBucketCommand({ Bucket: options.bucket }));
  admin.destroy();
  storage = new S3Storage({ ...options, keyPrefix: 'run-1/' });
});

afterAll(async () => {
  storage.destroy();
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

storageContract('S3Storage (s3rver)', () => storage);
