// The one settings object of a backend process, parsed once from the environment at start (architecture page,
// "Operator interface"); the job system's and the retention sweep's settings are typed parts of it. The entry
// points (main, worker, sweep, migrate) call loadSettings() and pass the result down; nothing else in
// backend/src reads process.env.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MAX_UPLOAD_MB_DEFAULT, RESTORED_RETENTION_DAYS_DEFAULT } from '@folio/shared';

export type FolioEnv = 'development' | 'production' | 'test';

export interface S3Settings {
  endpointUrl: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
}

export interface Settings {
  env: FolioEnv;
  isProduction: boolean;
  /** Absolute path of the data directory (SQLite file, local storage, generated secrets). */
  dataDir: string;
  host: string;
  port: number;
  /** Empty = embedded SQLite file `sqlitePath`; otherwise a postgres:// URL. */
  databaseUrl: string;
  sqlitePath: string;
  redisUrl: string;
  /** `bucket` is empty when S3 is not configured (local disk storage is used then). */
  s3: S3Settings;
  googleClientId: string;
  googleJwksUrl: string;
  googleIssuers: readonly string[];
  devLogin: boolean;
  stripeSecretKey: string;
  stripeWebhookSecret: string;
  stripeApiBase: string;
  publicBaseUrl: string;
  signupCredits: number;
  maxUploadMb: number;
  originalRetentionDays: number;
  restoredRetentionDays: number;
  maxPdfPages: number;
  /** Time limit of one upload check or preview render in its reader child; past it the file is refused as too complex. */
  fileCheckTimeoutSeconds: number;
  /** Resident memory of one upload check or preview render (its reader child is killed past it). */
  fileCheckMemoryMb: number;
  /** HS256 secret for the session tokens the backend issues. */
  tokenSecret: string;
  tokenTtlSeconds: number;
  appName: string;
  appDescription: string;
  enableDevtools: boolean;
  enableLogging: boolean;
  logLevel: string;
  /** Built web app served at `/` when it exists. */
  webDistDir: string;
  /** Every /api/v1 route except GET /api/v1/health answers 503 while on. */
  maintenanceMode: boolean;
  /** On SIGTERM: how long open requests and the page in progress may take before the process exits anyway. */
  shutdownGraceMs: number;
  /** Port of a worker's Prometheus metrics (GET /metrics); 0 = none. API nodes serve /metrics on `port`. */
  metricsPort: number;
  /** API and worker processes migrate the database at start (embedded default); off when a migrate step runs. */
  migrateAtStart: boolean;
  /** The API process runs the retention sweep (embedded default); off when `sweep` processes do it. */
  retentionSweepInApi: boolean;
  /** A refreshed session keeps its first sign-in time; past this age refresh answers 401. */
  sessionMaxAgeSeconds: number;
  /** Requests per minute: sign-in per client address; the others per signed-in user. */
  rateLimits: RateLimits;
  /** Most bytes of files one user may keep stored. */
  storageQuotaMb: number;
  /** A request whose headers and body have not fully arrived by then is answered 408 and closed. */
  requestTimeoutSeconds: number;
  keepAliveTimeoutSeconds: number;
  maxRequestsPerSocket: number;
  /** Largest JSON (or form) body; uploads have their own limit (maxUploadMb). */
  jsonBodyLimitKb: number;
  /** The one other origin allowed to call the API from a browser (CORS); empty = same origin only. */
  corsOrigin: string;
  /** Take the client address from X-Forwarded-For (set when a reverse proxy is in front). */
  trustProxy: boolean;
  /** The restoration job system (JOB_*). */
  jobs: JobSettings;
  /** The retention sweep (RETENTION_SWEEP_INTERVAL_SECONDS, RETENTION_ORPHAN_MIN_AGE_SECONDS). */
  retention: RetentionSettings;
}

export type QueueKind = 'database' | 'bullmq';

export interface JobSettings {
  /** `bullmq` when REDIS_URL is set (scale-out), else the durable job table (embedded default). */
  queue: QueueKind;
  /** Concurrent jobs per worker process; 0 in an API process = no embedded worker (scale-out API node). */
  concurrency: number;
  /** A claimed job whose lease is not renewed for this long is taken over by another worker. */
  leaseMs: number;
  /** How often an idle database-queue worker looks for work it was not told about. */
  pollMs: number;
  /** Runs of one job (first run included) before it ends failed with every page refunded. */
  maxAttempts: number;
  /** Time limit for one page inside the engine. */
  pageTimeoutMs: number;
  /** Redis key prefix of the BullMQ queue (and of the retention sweep's lock). */
  queuePrefix: string;
}

export interface RetentionSettings {
  /** Time between two sweeps. */
  sweepIntervalMs: number;
  /** Stored objects without a row are removed only once older than this (an upload may be between steps). */
  orphanMinAgeMs: number;
}

export interface RateLimits {
  signInPerMinute: number;
  uploadPerMinute: number;
  restorePerMinute: number;
  zipPerMinute: number;
  checkoutPerMinute: number;
}

export type Env = Readonly<Record<string, string | undefined>>;

export class SettingsError extends Error {
  override name = 'SettingsError';
}

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
const DEFAULT_GOOGLE_JWKS_URL = 'https://www.googleapis.com/oauth2/v3/certs';
const DEFAULT_GOOGLE_ISSUERS = 'accounts.google.com,https://accounts.google.com';
const TOKEN_SECRET_FILE = 'token-secret';
const MIN_SECRET_LENGTH = 32;
const WEAK_SECRETS = new Set(['changeme', 'change-me', 'changethis', 'secret', 'folio', 'development']);

function str(env: Env, name: string, fallback = ''): string {
  const value = env[name];
  return value === undefined ? fallback : value.trim();
}

function int(env: Env, name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = str(env, name);
  if (raw === '') return fallback;
  if (!/^-?\d+$/.test(raw)) throw new SettingsError(`${name} must be an integer, got "${raw}"`);
  const value = Number(raw);
  if (value >= min && value <= max) return value;
  if (max === Number.MAX_SAFE_INTEGER) {
    throw new SettingsError(`${name} must be an integer of at least ${min}, got "${raw}"`);
  }
  throw new SettingsError(`${name} must be between ${min} and ${max}`);
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = str(env, name).toLowerCase();
  if (raw === '') return fallback;
  if (['true', '1', 'yes', 'on'].includes(raw)) return true;
  if (['false', '0', 'no', 'off'].includes(raw)) return false;
  throw new SettingsError(`${name} must be true or false, got "${raw}"`);
}

function parseEnvName(raw: string): FolioEnv {
  if (raw === '') return 'development';
  if (raw === 'development' || raw === 'production' || raw === 'test') return raw;
  throw new SettingsError(`FOLIO_ENV must be development, production or test, got "${raw}"`);
}

/** "https://app.example.com" from a URL, or '' when unset. */
function parseOrigin(raw: string): string {
  if (raw === '') return '';
  try {
    const url = new URL(raw);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.origin;
  } catch {
    // reported below
  }
  throw new SettingsError(
    `CORS_ORIGIN must be an http(s) origin such as https://app.example.com, got "${raw}"`,
  );
}

function parseJobSettings(env: Env, redisUrl: string): JobSettings {
  const requested = str(env, 'JOB_QUEUE');
  if (requested !== '' && requested !== 'database' && requested !== 'bullmq') {
    throw new SettingsError(`JOB_QUEUE must be database or bullmq, got "${requested}"`);
  }
  const queue: QueueKind = requested === '' ? (redisUrl === '' ? 'database' : 'bullmq') : requested;
  if (queue === 'bullmq' && redisUrl === '') throw new SettingsError('JOB_QUEUE=bullmq needs REDIS_URL');
  return {
    queue,
    concurrency: int(env, 'JOB_CONCURRENCY', 1, 0),
    leaseMs: int(env, 'JOB_LEASE_MS', 30_000, 500),
    pollMs: int(env, 'JOB_POLL_MS', 1_000, 10),
    maxAttempts: int(env, 'JOB_MAX_ATTEMPTS', 3, 1),
    pageTimeoutMs: int(env, 'JOB_PAGE_TIMEOUT_MS', 120_000, 1_000),
    queuePrefix: str(env, 'JOB_QUEUE_PREFIX') || 'folio',
  };
}

function parseRetentionSettings(env: Env): RetentionSettings {
  return {
    sweepIntervalMs: int(env, 'RETENTION_SWEEP_INTERVAL_SECONDS', 900, 1) * 1000,
    orphanMinAgeMs: int(env, 'RETENTION_ORPHAN_MIN_AGE_SECONDS', 3600, 60) * 1000,
  };
}

/** Development: a random secret kept in the data dir so tokens survive restarts. Production: required. */
function resolveTokenSecret(env: Env, isProduction: boolean, dataDir: string): string {
  const given = str(env, 'TOKEN_SECRET');
  if (isProduction) {
    if (given === '') throw new SettingsError('TOKEN_SECRET is required in production');
    if (given.length < MIN_SECRET_LENGTH || WEAK_SECRETS.has(given.toLowerCase())) {
      throw new SettingsError(
        `TOKEN_SECRET must be a random string of at least ${MIN_SECRET_LENGTH} characters`,
      );
    }
    return given;
  }
  if (given !== '') return given;
  const file = path.join(dataDir, TOKEN_SECRET_FILE);
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored.length >= MIN_SECRET_LENGTH) return stored;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, secret + '\n', { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}

export function loadSettings(env: Env = process.env): Readonly<Settings> {
  const folioEnv = parseEnvName(str(env, 'FOLIO_ENV'));
  const isProduction = folioEnv === 'production';
  // FOLIO_DATA_DIR is taken relative to the working directory; its default lives in the repository root
  // whatever directory a script runs from (`npm run -w` changes into the workspace).
  const root = str(env, 'FOLIO_ROOT') || REPO_ROOT;
  const givenDataDir = str(env, 'FOLIO_DATA_DIR');
  const dataDir = givenDataDir === '' ? path.join(root, 'data') : path.resolve(givenDataDir);
  const host = str(env, 'HOST', '127.0.0.1') || '127.0.0.1';
  const port = int(env, 'PORT', 8000, 0, 65535);
  const googleClientId = str(env, 'GOOGLE_CLIENT_ID');
  const devLogin = bool(env, 'DEV_LOGIN', googleClientId === '' && !isProduction);
  if (devLogin && isProduction) {
    throw new SettingsError('DEV_LOGIN cannot be enabled in production: it lets anyone sign in as anyone');
  }
  const googleIssuers = str(env, 'GOOGLE_ISSUERS', DEFAULT_GOOGLE_ISSUERS)
    .split(',')
    .map((issuer) => issuer.trim())
    .filter((issuer) => issuer !== '');
  if (googleIssuers.length === 0) throw new SettingsError('GOOGLE_ISSUERS must list at least one issuer');
  const databaseUrl = str(env, 'DATABASE_URL');
  if (databaseUrl !== '' && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new SettingsError('DATABASE_URL must be a postgres:// URL (leave it empty for the SQLite file)');
  }
  const redisUrl = str(env, 'REDIS_URL');
  const publicBaseUrl = (str(env, 'PUBLIC_BASE_URL') || `http://${host}:${port}`).replace(/\/+$/, '');

  const settings: Settings = {
    env: folioEnv,
    isProduction,
    dataDir,
    host,
    port,
    databaseUrl,
    sqlitePath: path.join(dataDir, 'folio.sqlite'),
    redisUrl,
    s3: Object.freeze({
      endpointUrl: str(env, 'S3_ENDPOINT_URL'),
      bucket: str(env, 'S3_BUCKET'),
      accessKeyId: str(env, 'S3_ACCESS_KEY_ID'),
      secretAccessKey: str(env, 'S3_SECRET_ACCESS_KEY'),
      region: str(env, 'S3_REGION', 'us-east-1') || 'us-east-1',
    }),
    googleClientId,
    googleJwksUrl: str(env, 'GOOGLE_JWKS_URL', DEFAULT_GOOGLE_JWKS_URL) || DEFAULT_GOOGLE_JWKS_URL,
    googleIssuers: Object.freeze(googleIssuers),
    devLogin,
    stripeSecretKey: str(env, 'STRIPE_SECRET_KEY'),
    stripeWebhookSecret: str(env, 'STRIPE_WEBHOOK_SECRET'),
    stripeApiBase: str(env, 'STRIPE_API_BASE'),
    publicBaseUrl,
    signupCredits: int(env, 'SIGNUP_CREDITS', 10, 0),
    maxUploadMb: int(env, 'MAX_UPLOAD_MB', MAX_UPLOAD_MB_DEFAULT, 1, 1024),
    originalRetentionDays: int(env, 'ORIGINAL_RETENTION_DAYS', 7, 1),
    restoredRetentionDays: int(env, 'RESTORED_RETENTION_DAYS', RESTORED_RETENTION_DAYS_DEFAULT, 1),
    maxPdfPages: int(env, 'MAX_PDF_PAGES', 100, 1),
    fileCheckTimeoutSeconds: int(env, 'FILE_CHECK_TIMEOUT_SECONDS', 60, 1, 3600),
    fileCheckMemoryMb: int(env, 'FILE_CHECK_MEMORY_MB', 1536, 256, 65536),
    tokenSecret: resolveTokenSecret(env, isProduction, dataDir),
    tokenTtlSeconds: int(env, 'TOKEN_TTL_SECONDS', 12 * 3600, 120),
    appName: str(env, 'APP_NAME', 'Folio AI') || 'Folio AI',
    appDescription:
      str(env, 'APP_DESCRIPTION', 'AI-Powered Document Restoration') || 'AI-Powered Document Restoration',
    enableDevtools: bool(env, 'ENABLE_DEVTOOLS', false),
    enableLogging: bool(env, 'ENABLE_LOGGING', false),
    logLevel: str(env, 'LOG_LEVEL', folioEnv === 'test' ? 'silent' : 'info') || 'info',
    webDistDir: path.resolve(root, str(env, 'WEB_DIST_DIR') || 'web/dist'),
    maintenanceMode: bool(env, 'MAINTENANCE_MODE', false),
    sessionMaxAgeSeconds: int(env, 'SESSION_MAX_AGE_SECONDS', 30 * 24 * 3600, 120),
    rateLimits: Object.freeze({
      signInPerMinute: int(env, 'RATE_LIMIT_SIGNIN_PER_MINUTE', 30, 1),
      uploadPerMinute: int(env, 'RATE_LIMIT_UPLOAD_PER_MINUTE', 60, 1),
      restorePerMinute: int(env, 'RATE_LIMIT_RESTORE_PER_MINUTE', 60, 1),
      zipPerMinute: int(env, 'RATE_LIMIT_ZIP_PER_MINUTE', 20, 1),
      checkoutPerMinute: int(env, 'RATE_LIMIT_CHECKOUT_PER_MINUTE', 10, 1),
    }),
    storageQuotaMb: int(env, 'STORAGE_QUOTA_MB', 2048, 1),
    requestTimeoutSeconds: int(env, 'REQUEST_TIMEOUT_SECONDS', 120, 1, 3600),
    keepAliveTimeoutSeconds: int(env, 'KEEP_ALIVE_TIMEOUT_SECONDS', 10, 1, 3600),
    maxRequestsPerSocket: int(env, 'MAX_REQUESTS_PER_SOCKET', 1000, 1),
    jsonBodyLimitKb: int(env, 'JSON_BODY_LIMIT_KB', 256, 1, 10 * 1024),
    corsOrigin: parseOrigin(str(env, 'CORS_ORIGIN')),
    trustProxy: bool(env, 'TRUST_PROXY', false),
    shutdownGraceMs: int(env, 'SHUTDOWN_GRACE_SECONDS', 20, 0, 3600) * 1000,
    metricsPort: int(env, 'METRICS_PORT', 9464, 0, 65535),
    migrateAtStart: bool(env, 'MIGRATE_AT_START', true),
    retentionSweepInApi: bool(env, 'RETENTION_SWEEP_IN_API', true),
    jobs: Object.freeze(parseJobSettings(env, redisUrl)),
    retention: Object.freeze(parseRetentionSettings(env)),
  };
  return Object.freeze(settings);
}
