import path from 'node:path';
import { z } from 'zod';

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
    TRUST_PROXY: z
      .string()
      .regex(/^(\d{1,2}|true|false)$/, 'debe ser el número de proxies propios delante del servidor (0, 1, 2…)')
      .optional()
      .transform((v) => (v === undefined || v === 'false' ? 0 : v === 'true' ? 1 : Number(v))),
    FAKE_NOW: z.iso.datetime({ offset: true }).optional(),
    API_RATE_LIMIT: z.coerce.number().int().min(1).max(1_000_000).default(120),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    NODE_ENV: z.string().optional(),
  })
  .refine((c) => !(c.SEAL_P12_PASSWORD !== undefined && !c.SEAL_P12), { message: 'SEAL_P12_PASSWORD sin SEAL_P12', path: ['SEAL_P12'] })
  .refine((c) => !(c.FAKE_NOW && c.NODE_ENV === 'production'), {
    message: 'FAKE_NOW no se admite con NODE_ENV=production',
    path: ['FAKE_NOW'],
  });

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
  /** Proxies of ours in front (0: none): the client is the N-th address from the right of X-Forwarded-For. */
  readonly trustProxy: number;
  readonly fakeNow: string | null;
  readonly logLevel: string;
  /** Requests a minute per API key (spec: 120; raise only for load tests or special contracts). */
  readonly apiRateLimit: number;
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
  return Object.freeze({
    port: c.PORT,
    host: c.HOST,
    siteUrl,
    dataDir: path.resolve(c.DATA_DIR),
    clientDir: path.resolve(c.CLIENT_DIR),
    databaseUrl: c.DATABASE_URL ?? null,
    smtpUrl: c.SMTP_URL ?? null,
    mailFrom: c.MAIL_FROM ?? `DeCA <no-responder@${new URL(siteUrl).hostname}>`,
    sealP12: c.SEAL_P12 ? { path: path.resolve(c.SEAL_P12), password: c.SEAL_P12_PASSWORD ?? '' } : null,
    sedeControlUrl: c.SEDE_CONTROL_URL,
    webhookAllowInsecure: c.WEBHOOK_ALLOW_INSECURE,
    trustProxy: c.TRUST_PROXY,
    fakeNow: c.FAKE_NOW ?? null,
    logLevel: c.LOG_LEVEL,
    apiRateLimit: c.API_RATE_LIMIT,
    production: c.NODE_ENV === 'production',
  });
}
