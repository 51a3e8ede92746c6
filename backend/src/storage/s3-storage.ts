import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  NotFound,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { Readable } from 'node:stream';
import type { ObjectStorage, StoredObject } from './storage.js';
import { assertValidKey, assertValidPrefix, StorageNotFoundError } from './storage.js';

export interface S3StorageOptions {
  endpoint: string | undefined;
  bucket: string;
  region: string;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  /** Prepended to every key, so one bucket can hold several deployments or test runs. */
  keyPrefix?: string;
}

/** Any S3-compatible object store (the scale-out mode). Path-style addressing works with self-hosted servers. */
export class S3Storage implements ObjectStorage {
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly keyPrefix: string;

  constructor(options: S3StorageOptions) {
    this.client = new S3Client({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint, forcePathStyle: true } : {}),
      ...(options.accessKeyId && options.secretAccessKey
        ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } }
        : {}),
    });
    this.bucket = options.bucket;
    this.keyPrefix = options.keyPrefix ?? '';
  }

  private objectKey(key: string): string {
    assertValidKey(key);
    return this.keyPrefix + key;
  }

  async put(key: string, body: Readable | Buffer): Promise<void> {
    // lib-storage streams bodies of unknown length as a multipart upload; S3 makes the object visible only when complete.
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: this.objectKey(key), Body: body },
    });
    await upload.done();
  }

  async get(key: string): Promise<Readable> {
    try {
      const answer = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }),
      );
      if (!(answer.Body instanceof Readable)) throw new Error('S3 returned no readable body');
      return answer.Body;
    } catch (error) {
      if (error instanceof NoSuchKey || isNotFound(error)) throw new StorageNotFoundError(key);
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      return true;
    } catch (error) {
      if (error instanceof NotFound || isNotFound(error)) return false;
      throw error;
    }
  }

  async *list(prefix: string): AsyncIterable<StoredObject> {
    assertValidPrefix(prefix);
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: this.keyPrefix + prefix,
          ContinuationToken: token,
        }),
      );
      for (const item of page.Contents ?? []) {
        if (!item.Key) continue;
        yield {
          key: item.Key.slice(this.keyPrefix.length),
          size: item.Size ?? 0,
          lastModified: item.LastModified ?? new Date(0),
        };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  destroy(): void {
    this.client.destroy();
  }
}

function isNotFound(error: unknown): boolean {
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  return status === 404;
}
