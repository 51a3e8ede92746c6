// The one settings object of a Folio process, parsed once from the environment (architecture page,
// "Operator interface"). Everything else receives it; nothing else reads process.env.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

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
  if (value < min || value > max) throw new SettingsError(`${name} must be between ${min} and ${max}`);
  return value;
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
  const publicBaseUrl = (str(env, 'PUBLIC_BASE_URL') || `http://${host}:${port}`).replace(/\/+$/, '');

  const settings: Settings = {
    env: folioEnv,
    isProduction,
    dataDir,
    host,
    port,
    databaseUrl,
    sqlitePath: path.join(dataDir, 'folio.sqlite'),
    redisUrl: str(env, 'REDIS_URL'),
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
    maxUploadMb: int(env, 'MAX_UPLOAD_MB', 10, 1, 1024),
    originalRetentionDays: int(env, 'ORIGINAL_RETENTION_DAYS', 7, 1),
    restoredRetentionDays: int(env, 'RESTORED_RETENTION_DAYS', 30, 1),
    maxPdfPages: int(env, 'MAX_PDF_PAGES', 100, 1),
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
    shutdownGraceMs: int(env, 'SHUTDOWN_GRACE_SECONDS', 20, 0, 3600) * 1000,
    metricsPort: int(env, 'METRICS_PORT', 9464, 0, 65535),
    migrateAtStart: bool(env, 'MIGRATE_AT_START', true),
    retentionSweepInApi: bool(env, 'RETENTION_SWEEP_IN_API', true),
  };
  return Object.freeze(settings);
}
