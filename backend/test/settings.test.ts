import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSettings } from '../src/settings.js';

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'folio-settings-'));
});
afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

const PROD_SECRET = 'p'.repeat(20) + 'roduction-secret-0123456789';

describe('loadSettings', () => {
  it('has the documented defaults', () => {
    const settings = loadSettings({ FOLIO_DATA_DIR: dataDir });
    expect(settings).toMatchObject({
      env: 'development',
      host: '127.0.0.1',
      port: 8000,
      databaseUrl: '',
      sqlitePath: path.join(dataDir, 'folio.sqlite'),
      googleClientId: '',
      googleJwksUrl: 'https://www.googleapis.com/oauth2/v3/certs',
      googleIssuers: ['accounts.google.com', 'https://accounts.google.com'],
      devLogin: true,
      publicBaseUrl: 'http://127.0.0.1:8000',
      signupCredits: 10,
      maxUploadMb: 10,
      originalRetentionDays: 7,
      restoredRetentionDays: 30,
      maxPdfPages: 100,
      fileCheckTimeoutSeconds: 60,
      fileCheckMemoryMb: 1536,
      tokenTtlSeconds: 43200,
      appName: 'Folio AI',
      appDescription: 'AI-Powered Document Restoration',
    });
    expect(Object.isFrozen(settings)).toBe(true);
  });

  it('reads every variable of the operator interface', () => {
    const settings = loadSettings({
      FOLIO_DATA_DIR: dataDir,
      HOST: '0.0.0.0',
      PORT: '9001',
      DATABASE_URL: 'postgres://u@db:5432/folio',
      REDIS_URL: 'redis://r:6379',
      S3_ENDPOINT_URL: 'http://s3:9000',
      S3_BUCKET: 'folio',
      S3_ACCESS_KEY_ID: 'ak',
      S3_SECRET_ACCESS_KEY: 'sk',
      S3_REGION: 'eu-west-1',
      GOOGLE_CLIENT_ID: 'cid',
      GOOGLE_JWKS_URL: 'http://127.0.0.1:1/certs',
      GOOGLE_ISSUERS: 'https://accounts.google.com',
      STRIPE_SECRET_KEY: 'sk_test_x',
      STRIPE_WEBHOOK_SECRET: 'whsec_x',
      STRIPE_API_BASE: 'http://127.0.0.1:2',
      PUBLIC_BASE_URL: 'https://folio.example/',
      SIGNUP_CREDITS: '3',
      MAX_UPLOAD_MB: '20',
      ORIGINAL_RETENTION_DAYS: '2',
      RESTORED_RETENTION_DAYS: '15',
      MAX_PDF_PAGES: '50',
      FILE_CHECK_TIMEOUT_SECONDS: '30',
      FILE_CHECK_MEMORY_MB: '900',
    });
    expect(settings).toMatchObject({
      host: '0.0.0.0',
      port: 9001,
      databaseUrl: 'postgres://u@db:5432/folio',
      redisUrl: 'redis://r:6379',
      s3: {
        endpointUrl: 'http://s3:9000',
        bucket: 'folio',
        accessKeyId: 'ak',
        secretAccessKey: 'sk',
        region: 'eu-west-1',
      },
      googleClientId: 'cid',
      googleJwksUrl: 'http://127.0.0.1:1/certs',
      googleIssuers: ['https://accounts.google.com'],
      devLogin: false,
      stripeSecretKey: 'sk_test_x',
      stripeWebhookSecret: 'whsec_x',
      stripeApiBase: 'http://127.0.0.1:2',
      publicBaseUrl: 'https://folio.example',
      signupCredits: 3,
      maxUploadMb: 20,
      originalRetentionDays: 2,
      restoredRetentionDays: 15,
      maxPdfPages: 50,
      fileCheckTimeoutSeconds: 30,
      fileCheckMemoryMb: 900,
    });
  });

  it('turns the development sign-in on only without a Google client id, unless told', () => {
    expect(loadSettings({ FOLIO_DATA_DIR: dataDir, GOOGLE_CLIENT_ID: 'cid' }).devLogin).toBe(false);
    expect(
      loadSettings({ FOLIO_DATA_DIR: dataDir, GOOGLE_CLIENT_ID: 'cid', DEV_LOGIN: 'true' }).devLogin,
    ).toBe(true);
    expect(loadSettings({ FOLIO_DATA_DIR: dataDir, DEV_LOGIN: 'false' }).devLogin).toBe(false);
    expect(
      loadSettings({ FOLIO_DATA_DIR: dataDir, FOLIO_ENV: 'production', TOKEN_SECRET: PROD_SECRET }).devLogin,
    ).toBe(false);
  });

  it('keeps a generated token secret in the data dir in development', () => {
    const first = loadSettings({ FOLIO_DATA_DIR: dataDir });
    const second = loadSettings({ FOLIO_DATA_DIR: dataDir });
    expect(first.tokenSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(second.tokenSecret).toBe(first.tokenSecret);
    const file = path.join(dataDir, 'token-secret');
    expect(readFileSync(file, 'utf8').trim()).toBe(first.tokenSecret);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('refuses to start in production without a strong TOKEN_SECRET or with the dev sign-in', () => {
    const prod = { FOLIO_DATA_DIR: dataDir, FOLIO_ENV: 'production' };
    expect(() => loadSettings(prod)).toThrow('TOKEN_SECRET is required in production');
    expect(() => loadSettings({ ...prod, TOKEN_SECRET: 'changeme' })).toThrow(/at least 32/);
    expect(() => loadSettings({ ...prod, TOKEN_SECRET: PROD_SECRET, DEV_LOGIN: 'true' })).toThrow(
      /DEV_LOGIN/,
    );
    expect(loadSettings({ ...prod, TOKEN_SECRET: PROD_SECRET }).tokenSecret).toBe(PROD_SECRET);
  });

  it('names the variable when a value is malformed', () => {
    expect(() => loadSettings({ FOLIO_DATA_DIR: dataDir, PORT: 'eighty' })).toThrow(
      /PORT must be an integer/,
    );
    expect(() => loadSettings({ FOLIO_DATA_DIR: dataDir, PORT: '70000' })).toThrow(/PORT must be between/);
    expect(() => loadSettings({ FOLIO_DATA_DIR: dataDir, DEV_LOGIN: 'maybe' })).toThrow(/DEV_LOGIN must be/);
    expect(() => loadSettings({ FOLIO_DATA_DIR: dataDir, FOLIO_ENV: 'staging' })).toThrow(/FOLIO_ENV/);
    expect(() => loadSettings({ FOLIO_DATA_DIR: dataDir, DATABASE_URL: 'mysql://x' })).toThrow(
      /DATABASE_URL/,
    );
    expect(() => loadSettings({ FOLIO_DATA_DIR: dataDir, SIGNUP_CREDITS: '-1' })).toThrow(/SIGNUP_CREDITS/);
    expect(() => loadSettings({ FOLIO_DATA_DIR: dataDir, CORS_ORIGIN: '*' })).toThrow(/CORS_ORIGIN/);
    expect(() => loadSettings({ FOLIO_DATA_DIR: dataDir, RATE_LIMIT_UPLOAD_PER_MINUTE: '0' })).toThrow(
      /RATE_LIMIT_UPLOAD_PER_MINUTE/,
    );
  });

  it('parses the job and retention settings as parts of the one object, with their defaults', () => {
    const defaults = loadSettings({ FOLIO_DATA_DIR: dataDir });
    expect(defaults.jobs).toEqual({
      queue: 'database',
      concurrency: 1,
      leaseMs: 30_000,
      pollMs: 1_000,
      maxAttempts: 3,
      pageTimeoutMs: 120_000,
      queuePrefix: 'folio',
    });
    expect(defaults.retention).toEqual({ sweepIntervalMs: 900_000, orphanMinAgeMs: 3_600_000 });
    expect(loadSettings({ FOLIO_DATA_DIR: dataDir, REDIS_URL: 'redis://127.0.0.1:6379' }).jobs.queue).toBe(
      'bullmq',
    );
    const given = loadSettings({
      FOLIO_DATA_DIR: dataDir,
      REDIS_URL: 'redis://127.0.0.1:6379',
      JOB_QUEUE: 'database',
      JOB_CONCURRENCY: '0',
      JOB_MAX_ATTEMPTS: '2',
      JOB_QUEUE_PREFIX: 'scale',
      RETENTION_SWEEP_INTERVAL_SECONDS: '5',
      RETENTION_ORPHAN_MIN_AGE_SECONDS: '60',
    });
    expect(given.jobs).toMatchObject({
      queue: 'database',
      concurrency: 0,
      maxAttempts: 2,
      queuePrefix: 'scale',
    });
    expect(given.retention).toEqual({ sweepIntervalMs: 5_000, orphanMinAgeMs: 60_000 });
    expect(() => loadSettings({ FOLIO_DATA_DIR: dataDir, JOB_QUEUE: 'bullmq' })).toThrow(/needs REDIS_URL/);
    expect(() => loadSettings({ FOLIO_DATA_DIR: dataDir, JOB_QUEUE: 'kafka' })).toThrow(/JOB_QUEUE/);
    expect(() => loadSettings({ FOLIO_DATA_DIR: dataDir, JOB_LEASE_MS: '100' })).toThrow(
      'JOB_LEASE_MS must be an integer of at least 500, got "100"',
    );
    expect(() => loadSettings({ FOLIO_DATA_DIR: dataDir, RETENTION_ORPHAN_MIN_AGE_SECONDS: '10' })).toThrow(
      /RETENTION_ORPHAN_MIN_AGE_SECONDS/,
    );
  });

  it('has security limits a real person never meets, each one a setting', () => {
    const defaults = loadSettings({ FOLIO_DATA_DIR: dataDir });
    expect(defaults).toMatchObject({
      sessionMaxAgeSeconds: 30 * 24 * 3600,
      rateLimits: {
        signInPerMinute: 30,
        uploadPerMinute: 60,
        restorePerMinute: 60,
        zipPerMinute: 20,
        checkoutPerMinute: 10,
      },
      storageQuotaMb: 2048,
      requestTimeoutSeconds: 120,
      keepAliveTimeoutSeconds: 10,
      maxRequestsPerSocket: 1000,
      jsonBodyLimitKb: 256,
      corsOrigin: '',
      trustProxy: false,
    });
    const given = loadSettings({
      FOLIO_DATA_DIR: dataDir,
      RATE_LIMIT_SIGNIN_PER_MINUTE: '5',
      STORAGE_QUOTA_MB: '100',
      CORS_ORIGIN: 'https://app.example.com/some/path',
      TRUST_PROXY: 'true',
    });
    expect(given.rateLimits.signInPerMinute).toBe(5);
    expect(given.storageQuotaMb).toBe(100);
    expect(given.corsOrigin).toBe('https://app.example.com');
    expect(given.trustProxy).toBe(true);
  });
});
