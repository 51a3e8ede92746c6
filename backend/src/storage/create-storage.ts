// Chooses the storage from settings: S3 when S3_BUCKET is set (scale-out), else the data directory.
import path from 'node:path';
import type { Settings } from '../settings.js';
import { LocalStorage } from './local-storage.js';
import { S3Storage } from './s3-storage.js';
import type { ObjectStorage } from './storage.js';

export function createStorage(settings: Pick<Settings, 'dataDir' | 's3'>): ObjectStorage {
  const { s3 } = settings;
  if (s3.bucket === '') return new LocalStorage(path.join(settings.dataDir, 'files'));
  return new S3Storage({
    endpoint: s3.endpointUrl || undefined,
    bucket: s3.bucket,
    region: s3.region,
    accessKeyId: s3.accessKeyId || undefined,
    secretAccessKey: s3.secretAccessKey || undefined,
  });
}
