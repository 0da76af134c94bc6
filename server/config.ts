import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { MESES_CONSERVACION } from '../shared/rules/privacidad';
import type { Entorno } from '../shared/schemas/cuenta';

const flag = z
  .enum(['0', '1', 'true', 'false', ''])
  .optional()
  .transform((v) => v === '1' || v === 'true');

const ConfigSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    HOST: z.string().min(1).default('127.0.0.1'),
    SITE_URL: z.url({ protocol: /^https?$/ }).optional(),
    DATA_DIR: z.string().min(1).default('./data'),
    CLIENT_DIR: z.string().min(1).default('./dist/client'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'debe empezar por postgres:// o postgresql://')
      .optional(),
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'debe empezar por smtp:// o smtps://')
      .optional(),
    MAIL_FROM: z.string().min(3).optional(),
    SEAL_P12: z.string().min(1).optional(),
    SEAL_P12_PASSWORD: z.string().optional(),
    SEDE_CONTROL_URL: z.url({ protocol: /^https?$/ }).default('https://sede.transportes.gob.es/'),
    WEBHOOK_ALLOW_INSECURE: flag,
    // eFTI (Reglamento (UE) 2020/1056): the two parts of every dataset's UIL besides the dataset's own id.
    EFTI_GATE_ID: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/, 'debe ser el identificador de la pasarela eFTI nacional (letras, cifras, «.», «_» o «-»)')
      .default('ES'),
    EFTI_PLATFORM_ID: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/, 'debe ser el identificador de esta plataforma eFTI (letras, cifras, «.», «_» o «-»)')
      .optional(),
    // The shared secrets the gate signs its requests with (docs/efti.md, «Autenticación de la pasarela»):
    // one for the production data, another for a gate that may only read the test environment's.
    EFTI_GATE_SECRET: z.string().min(32, 'debe tener al menos 32 caracteres (p. ej. openssl rand -hex 32)').optional(),
    EFTI_TEST_GATE_SECRET: z.string().min(32, 'debe tener al menos 32 caracteres (p. ej. openssl rand -hex 32)').optional(),
    TRUST_PROXY: z
      .string()
      .regex(/^(\d{1,2}|true|false)$/, 'debe ser el número de proxies propios delante del servidor (0, 1, 2…)')
      .optional()
      .transform((v) => (v === undefined || v === 'false' ? 0 : v === 'true' ? 1 : Number(v))),
    FAKE_NOW: z.iso.datetime({ offset: true }).optional(),
    API_RATE_LIMIT: z.coerce.number().int().min(1).max(1_000_000).default(120),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    NODE_ENV: z.string().optional(),
    BLOB_URL: z
      .string()
      .regex(/^(s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/[\w.\-/]*)?|file:\/\/\/.+)$/, 'debe ser s3://bucket/prefijo (bucket en minúsculas) o file:///ruta/absoluta')
      .optional(),
    BLOB_S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
    AWS_ENDPOINT_URL_S3: z.string().optional(),
    AWS_ENDPOINT_URL: z.string().optional(),
    AWS_REGION: z.string().optional(),
    AWS_ACCESS_KEY_ID: z.string().optional(),
    AWS_SECRET_ACCESS_KEY: z.string().optional(),
    AWS_SESSION_TOKEN: z.string().optional(),
    BLOB_S3_PATH_STYLE: flag,
    RETENCION_MESES: z
      .string()
      .regex(/^\d{1,4}$/, 'debe ser un número entero de meses, 12 o más (la DeCA se conserva un año)')
      .transform(Number)
      .refine((n) => n >= MESES_CONSERVACION, 'debe ser 12 o más: la DeCA emitida se conserva un año')
      .optional(),
    BLOB_RETENCION_DIAS: z
      .string()
      .regex(/^[1-9]\d{0,4}$/, 'debe ser un número entero de días, de 1 a 36500')
      .transform(Number)
      .refine((n) => n <= 36_500, 'debe ser un número entero de días, de 1 a 36500')
      .optional(),
  })
  .refine((c) => !(c.EFTI_GATE_SECRET && c.EFTI_GATE_SECRET === c.EFTI_TEST_GATE_SECRET), {
    message: 'debe ser distinto de EFTI_GATE_SECRET: una pasarela de pruebas nunca firma como la real',
    path: ['EFTI_TEST_GATE_SECRET'],
  })
  .refine((c) => !(c.SEAL_P12_PASSWORD !== undefined && !c.SEAL_P12), { message: 'SEAL_P12_PASSWORD sin SEAL_P12', path: ['SEAL_P12'] })
  .refine((c) => !(c.FAKE_NOW && c.NODE_ENV === 'production'), {
    message: 'FAKE_NOW no se admite con NODE_ENV=production',
    path: ['FAKE_NOW'],
  })
  .superRefine((c, ctx) => {
    // The S3 settings are read only with BLOB_URL=s3://… (AWS_* may be set for other programs).
    const s3 = c.BLOB_URL?.startsWith('s3://') ?? false;
    const falta = (variable: string, message: string) => ctx.addIssue({ code: 'custom', path: [variable], message });
    if (!s3) {
      if (c.BLOB_RETENCION_DIAS !== undefined) falta('BLOB_RETENCION_DIAS', 'solo se aplica con BLOB_URL=s3://… (bloqueo de objetos del bucket)');
      return;
    }
    if (!c.AWS_ACCESS_KEY_ID) falta('AWS_ACCESS_KEY_ID', 'falta: BLOB_URL=s3://… necesita AWS_ACCESS_KEY_ID y AWS_SECRET_ACCESS_KEY');
    if (!c.AWS_SECRET_ACCESS_KEY) falta('AWS_SECRET_ACCESS_KEY', 'falta: BLOB_URL=s3://… necesita AWS_ACCESS_KEY_ID y AWS_SECRET_ACCESS_KEY');
    if (c.AWS_REGION !== undefined && !/^[a-z0-9-]{2,40}$/.test(c.AWS_REGION)) falta('AWS_REGION', 'debe ser una región como eu-south-2 o us-east-1');
    for (const v of ['AWS_ENDPOINT_URL_S3', 'AWS_ENDPOINT_URL'] as const) {
      if (c[v] !== undefined && !c.BLOB_S3_ENDPOINT && !/^https?:\/\/[^/\s]+(\/\S*)?$/.test(c[v])) falta(v, 'debe empezar por http:// o https://');
    }
  });

/** BLOB_URL=s3://bucket/prefix: a bucket of an S3-compatible service. */
export interface ConfigS3 {
  readonly tipo: 's3';
  readonly bucket: string;
  /** Folder of the keys inside the bucket: '' or ending in '/'. */
  readonly prefijo: string;
  /** BLOB_S3_ENDPOINT, AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL; by default AWS's endpoint of the region. */
  readonly endpoint: string;
  readonly region: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken: string | null;
  /** `endpoint/bucket/key` instead of `bucket.endpoint/key` (local servers, MinIO). */
  readonly pathStyle: boolean;
  /** BLOB_RETENCION_DIAS: each object locked (COMPLIANCE) for this many days; null: no lock asked. */
  readonly retencionDias: number | null;
}

/** Where the issued PDFs are kept (server/blobs): a folder (by default DATA_DIR/blobs) or an S3 bucket. */
export type ConfigBlobs = { readonly tipo: 'disco'; readonly dir: string } | ConfigS3;

/**
 * Who this service is on the eFTI network: the first two parts of a
 * dataset's UIL (the reference's `edelivery.xsd`, type `UIL`), and the
 * secrets the gate signs its requests with, by environment (null: no gate
 * may query that environment's data).
 */
export interface ConfigEfti {
  readonly gateId: string;
  readonly platformId: string;
  readonly secretos: Readonly<Record<Entorno, string | null>>;
}

/** Every setting of the README's configuration table, parsed once. */
export interface Config {
  readonly port: number;
  readonly host: string;
  /** Public site root without a trailing slash. */
  readonly siteUrl: string;
  readonly dataDir: string;
  /** The built app (`npm run build`) this server serves. */
  readonly clientDir: string;
  readonly databaseUrl: string | null;
  readonly smtpUrl: string | null;
  /** Sender of the service's mail; defaults to no-responder@<site host>. */
  readonly mailFrom: string;
  /** PKCS#12 file of the service's seal certificate and its password; null: a self-signed seal kept in the database. */
  readonly sealP12: { path: string; password: string } | null;
  /** The Ministry's electronic office where a company sends the PDF/A after a roadside check. */
  readonly sedeControlUrl: string;
  readonly webhookAllowInsecure: boolean;
  /** EFTI_GATE_ID and EFTI_PLATFORM_ID (default: the site's host name): the gate and platform parts of every eFTI dataset's UIL. */
  readonly efti: ConfigEfti;
  /** Proxies of ours in front (0: none): the client is the N-th address from the right of X-Forwarded-For. */
  readonly trustProxy: number;
  readonly fakeNow: string | null;
  readonly logLevel: string;
  /** Requests a minute per API key (spec: 120; raise only for load tests or special contracts). */
  readonly apiRateLimit: number;
  /** BLOB_URL: where the PDF of every issued version is kept. */
  readonly blobs: ConfigBlobs;
  /** RETENCION_MESES: a month's DeCAs are let go this many months (plus one of grace) after it ends. */
  readonly retencionMeses: number;
  readonly production: boolean;
}

/** Thrown with one line per bad variable, so the operator sees them all at once. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parse the environment (README: Configuración); refuse bad values with a clear message. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const clean = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const r = ConfigSchema.safeParse(clean);
  if (!r.success) {
    const lines = r.error.issues.map((i) => `  ${i.path.join('.') || 'config'}: ${i.message}`);
    throw new ConfigError(`Configuración no válida:\n${lines.join('\n')}`);
  }
  const c = r.data;
  const siteUrl = (c.SITE_URL ?? `http://localhost:${c.PORT}`).replace(/\/+$/, '');
  const dataDir = path.resolve(c.DATA_DIR);
  return Object.freeze({
    port: c.PORT,
    host: c.HOST,
    siteUrl,
    dataDir,
    clientDir: path.resolve(c.CLIENT_DIR),
    databaseUrl: c.DATABASE_URL ?? null,
    smtpUrl: c.SMTP_URL ?? null,
    mailFrom: c.MAIL_FROM ?? `DeCA <no-responder@${new URL(siteUrl).hostname}>`,
    sealP12: c.SEAL_P12 ? { path: path.resolve(c.SEAL_P12), password: c.SEAL_P12_PASSWORD ?? '' } : null,
    sedeControlUrl: c.SEDE_CONTROL_URL,
    webhookAllowInsecure: c.WEBHOOK_ALLOW_INSECURE,
    efti: Object.freeze({
      gateId: c.EFTI_GATE_ID,
      platformId: c.EFTI_PLATFORM_ID ?? new URL(siteUrl).hostname,
      secretos: Object.freeze({ produccion: c.EFTI_GATE_SECRET ?? null, pruebas: c.EFTI_TEST_GATE_SECRET ?? null }),
    }),
    trustProxy: c.TRUST_PROXY,
    fakeNow: c.FAKE_NOW ?? null,
    logLevel: c.LOG_LEVEL,
    apiRateLimit: c.API_RATE_LIMIT,
    blobs: configBlobs(c, dataDir),
    retencionMeses: c.RETENCION_MESES ?? MESES_CONSERVACION,
    production: c.NODE_ENV === 'production',
  });
}

function configBlobs(c: z.output<typeof ConfigSchema>, dataDir: string): ConfigBlobs {
  const url = c.BLOB_URL;
  if (!url) return { tipo: 'disco', dir: path.join(dataDir, 'blobs') };
  if (url.startsWith('file://')) return { tipo: 'disco', dir: path.resolve(fileURLToPath(url)) };
  const [bucket = '', ...resto] = url.slice('s3://'.length).split('/');
  const prefijo = resto.filter(Boolean).join('/');
  const region = c.AWS_REGION ?? 'us-east-1';
  return {
    tipo: 's3',
    bucket,
    prefijo: prefijo ? `${prefijo}/` : '',
    endpoint: c.BLOB_S3_ENDPOINT ?? c.AWS_ENDPOINT_URL_S3 ?? c.AWS_ENDPOINT_URL ?? `https://s3.${region}.amazonaws.com`,
    region,
    accessKeyId: c.AWS_ACCESS_KEY_ID ?? '',
    secretAccessKey: c.AWS_SECRET_ACCESS_KEY ?? '',
    sessionToken: c.AWS_SESSION_TOKEN ?? null,
    pathStyle: c.BLOB_S3_PATH_STYLE,
    retencionDias: c.BLOB_RETENCION_DIAS ?? null,
  };
}
