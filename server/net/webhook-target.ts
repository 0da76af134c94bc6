import dns from 'node:dns/promises';
import net from 'node:net';
import { motivoDireccionProhibida } from './ip-policy';

/** A webhook target the policy refuses; `message` is Spanish and says what to do. */
export class DestinoNoPermitido extends Error {
  override name = 'DestinoNoPermitido';
}

/** Name → every address it resolves to (the system resolver: /etc/hosts, then DNS). */
export type Resolver = (hostname: string) => Promise<{ address: string; family: 4 | 6 }[]>;

/** `dns.lookup` with every address, in the resolver's order. */
export const systemResolver: Resolver = async (hostname) => {
  const all = await dns.lookup(hostname, { all: true, verbatim: true });
  return all.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/** What a webhook may target. With `allowInsecure` (WEBHOOK_ALLOW_INSECURE=1) http:// and private addresses are allowed. */
export interface TargetPolicy {
  allowInsecure: boolean;
  /** Defaults to the system resolver; tests inject one. */
  resolve?: Resolver;
}

/** The host of a URL without IPv6 brackets. */
export function bareHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/**
 * Parse and check a webhook URL's shape: https:// (http:// too when insecure
 * targets are allowed), a host, no credentials. Addresses are checked later,
 * once resolved ({@link resolveTarget}).
 */
export function parseWebhookUrl(raw: string, policy: Pick<TargetPolicy, 'allowInsecure'>): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new DestinoNoPermitido('La url no es válida: escríbala completa, p. ej. https://ejemplo.es/deca.');
  }
  const schemes = policy.allowInsecure ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) {
    throw new DestinoNoPermitido('La url debe empezar por https://: los eventos llevan datos de la DeCA y se envían cifrados.');
  }
  if (!url.hostname) throw new DestinoNoPermitido('La url no tiene nombre de servidor.');
  if (url.username || url.password) {
    throw new DestinoNoPermitido('La url no puede llevar usuario ni contraseña: compruebe la firma X-Deca-Firma en su receptor.');
  }
  return url;
}

/** Refuse one address unless insecure targets are allowed. */
export function checkAddress(host: string, address: string, policy: Pick<TargetPolicy, 'allowInsecure'>): void {
  if (policy.allowInsecure) return;
  const motivo = motivoDireccionProhibida(address);
  if (motivo) {
    const via = host === address ? '' : ` (${host} apunta a ${address})`;
    throw new DestinoNoPermitido(`Destino no permitido: ${address} es ${motivo}${via}. Use una dirección pública.`);
  }
}

/**
 * Every address the URL's host stands for, each checked: an IP literal as
 * is, a name through the resolver. If any address is refused the whole
 * target is (a name must not mix public and private answers).
 */
export async function resolveTarget(url: URL, policy: TargetPolicy): Promise<{ address: string; family: 4 | 6 }[]> {
  const host = bareHost(url);
  const literal = net.isIP(host);
  if (literal) {
    checkAddress(host, host, policy);
    return [{ address: host, family: literal === 6 ? 6 : 4 }];
  }
  let found: { address: string; family: 4 | 6 }[];
  try {
    found = await (policy.resolve ?? systemResolver)(host);
  } catch (err) {
    const code = (err as { code?: string }).code;
    throw new DestinoNoPermitido(code === 'ENOTFOUND' || code === 'ENODATA' ? `No se encuentra el nombre ${host} (DNS).` : `No se pudo resolver ${host} (${code ?? 'DNS'}).`);
  }
  if (found.length === 0) throw new DestinoNoPermitido(`No se encuentra el nombre ${host} (DNS).`);
  for (const a of found) checkAddress(host, a.address, policy);
  return found;
}

/** Creation-time check of a webhook URL: its shape and every address it resolves to. Returns the normalised URL. */
export async function checkWebhookUrl(raw: string, policy: TargetPolicy): Promise<string> {
  const url = parseWebhookUrl(raw, policy);
  await resolveTarget(url, policy);
  return url.toString();
}
