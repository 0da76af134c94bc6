import net from 'node:net';

/**
 * Which IP addresses a webhook may be delivered to: public ones only, never
 * loopback, private, link-local, CGNAT, multicast or cloud metadata.
 * A webhook URL is chosen by the customer, so without this check it is a
 * server-side request forgery: the service would POST, from inside its own
 * network, to loopback, the private LAN or the cloud metadata endpoint.
 *
 * IPv4: everything public is allowed; the special-purpose ranges of
 * RFC 6890 / the IANA registry are refused. IPv6: only global unicast
 * (2000::/3) is allowed, minus documentation, Teredo/ORCHID and 6to4 or
 * NAT64 addresses whose embedded IPv4 address is itself refused.
 */

interface Rango4 {
  base: number;
  bits: number;
  motivo: string;
}

function ipv4ToInt(ip: string): number | null {
  const parts = ip.split('.');
  if (parts.length !== 4) return null;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p)) return null;
    const v = Number(p);
    if (v > 255) return null;
    n = n * 256 + v;
  }
  return n;
}

function rango4(cidr: string, motivo: string): Rango4 {
  const [ip, bits] = cidr.split('/') as [string, string];
  return { base: ipv4ToInt(ip)!, bits: Number(bits), motivo };
}

const PRIVADA = 'una dirección privada';
const RESERVADA = 'una dirección reservada';

/** Most specific first: the first match names the reason. */
const RANGOS4: Rango4[] = [
  rango4('169.254.169.254/32', 'el servicio de metadatos de la nube'),
  rango4('0.0.0.0/8', 'una dirección no especificada'),
  rango4('10.0.0.0/8', PRIVADA),
  rango4('100.64.0.0/10', 'una dirección de NAT de operador (CGNAT)'),
  rango4('127.0.0.0/8', 'una dirección de loopback'),
  rango4('169.254.0.0/16', 'una dirección de enlace local'),
  rango4('172.16.0.0/12', PRIVADA),
  rango4('192.0.0.0/24', RESERVADA),
  rango4('192.0.2.0/24', 'una dirección de documentación'),
  rango4('192.88.99.0/24', RESERVADA),
  rango4('192.168.0.0/16', PRIVADA),
  rango4('198.18.0.0/15', RESERVADA),
  rango4('198.51.100.0/24', 'una dirección de documentación'),
  rango4('203.0.113.0/24', 'una dirección de documentación'),
  rango4('224.0.0.0/4', 'una dirección multicast'),
  rango4('240.0.0.0/4', RESERVADA),
];

function motivoIpv4(n: number): string | null {
  for (const r of RANGOS4) {
    const size = 2 ** (32 - r.bits);
    if (Math.floor(n / size) === Math.floor(r.base / size)) return r.motivo;
  }
  return null;
}

/** Eight 16-bit groups of an IPv6 address (zone id dropped, dotted IPv4 tail accepted), or null. */
function ipv6Groups(ip: string): number[] | null {
  let s = ip.replace(/^\[|\]$/g, '');
  const pct = s.indexOf('%');
  if (pct >= 0) s = s.slice(0, pct);
  const lastColon = s.lastIndexOf(':');
  if (s.slice(lastColon + 1).includes('.')) {
    // ::ffff:1.2.3.4 → ::ffff:102:304
    const v4 = ipv4ToInt(s.slice(lastColon + 1));
    if (v4 === null) return null;
    s = `${s.slice(0, lastColon + 1)}${Math.floor(v4 / 65536).toString(16)}:${(v4 % 65536).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const parse = (h: string): number[] | null => {
    if (h === '') return [];
    const out: number[] = [];
    for (const g of h.split(':')) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null;
      out.push(parseInt(g, 16));
    }
    return out;
  };
  const head = parse(halves[0] ?? '');
  const rest = halves.length === 2 ? parse(halves[1] ?? '') : [];
  if (!head || !rest) return null;
  let groups: number[];
  if (halves.length === 2) {
    const fill = 8 - head.length - rest.length;
    if (fill < 1) return null;
    groups = [...head, ...new Array<number>(fill).fill(0), ...rest];
  } else groups = head;
  return groups.length === 8 ? groups : null;
}

function embedded4(hi: number, lo: number): string {
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

function motivoIpv6(g: number[]): string | null {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = g as [number, number, number, number, number, number, number, number];
  const zeros5 = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (zeros5 && g5 === 0 && g6 === 0 && g7 === 0) return 'una dirección no especificada';
  if (zeros5 && g5 === 0 && g6 === 0 && g7 === 1) return 'una dirección de loopback';
  if (zeros5 && g5 === 0xffff) return 'una dirección IPv4 mapeada en IPv6';
  if (zeros5 && g5 === 0) return 'una dirección IPv4 compatible (obsoleta)';
  // NAT64 well-known prefix 64:ff9b::/96: judge the IPv4 address inside.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) {
    return motivoIpv4(ipv4ToInt(embedded4(g6, g7))!) ? 'una dirección NAT64 de una dirección IPv4 no permitida' : null;
  }
  if ((g0 & 0xfe00) === 0xfc00) return 'una dirección local única (ULA, fc00::/7)';
  if ((g0 & 0xffc0) === 0xfe80) return 'una dirección de enlace local (fe80::/10)';
  if ((g0 & 0xffc0) === 0xfec0) return 'una dirección de sitio local (obsoleta)';
  if ((g0 & 0xff00) === 0xff00) return 'una dirección multicast';
  if ((g0 & 0xe000) !== 0x2000) return 'una dirección IPv6 que no es unicast global';
  if (g0 === 0x2001 && g1 === 0x0db8) return 'una dirección de documentación';
  if (g0 === 0x2001 && g1 < 0x0200) return RESERVADA; // 2001::/23: Teredo, ORCHID, benchmarking…
  if (g0 === 0x2002) {
    // 6to4 carries an IPv4 address in bits 16–48.
    return motivoIpv4(ipv4ToInt(embedded4(g1, g2))!) ? 'una dirección 6to4 de una dirección IPv4 no permitida' : null;
  }
  return null;
}

/**
 * Why `ip` may not receive webhooks (a Spanish phrase: «una dirección
 * privada»), or null when it is a public unicast address. Anything that is
 * not a valid IP literal is refused too.
 */
export function motivoDireccionProhibida(ip: string): string | null {
  const bare = ip.replace(/^\[|\]$/g, '');
  const kind = net.isIP(bare.split('%')[0] ?? '');
  if (kind === 4) return motivoIpv4(ipv4ToInt(bare)!);
  if (kind === 6) {
    const g = ipv6Groups(bare);
    return g ? motivoIpv6(g) : 'una dirección IPv6 no válida';
  }
  return 'una dirección IP no válida';
}

/** True when `ip` is a public unicast address a webhook may be sent to. */
export function isDireccionPublica(ip: string): boolean {
  return motivoDireccionProhibida(ip) === null;
}
