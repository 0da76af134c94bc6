/**
 * An IP address cut to its network, as the public download log keeps it
 * after DIAS_IP_COMPLETA days (shared/rules/privacidad.ts): IPv4 to its /24
 * (`203.0.113.77` → `203.0.113.0`), IPv6 to its /48 (`2001:db8:85a3:8d3:…` →
 * `2001:db8:85a3::`), an IPv4-mapped IPv6 address as its IPv4 (`::ffff:…`).
 * What the log held that is no address at all (`desconocida`, a proxy's
 * garbage) becomes `desconocida`. Cutting a cut address changes nothing.
 */
export function truncarIp(ip: string): string {
  const s = ip.trim();
  const v4 = ipv4(s);
  if (v4) return `${v4[0]}.${v4[1]}.${v4[2]}.0`;
  const grupos = ipv6(s.replace(/%.*$/, ''));
  if (!grupos) return 'desconocida';
  // ::ffff:a.b.c.d — an IPv4 client seen through a dual-stack socket.
  if (grupos.slice(0, 5).every((g) => g === 0) && grupos[5] === 0xffff) return `${grupos[6]! >> 8}.${grupos[6]! & 255}.${grupos[7]! >> 8}.0`;
  const [a, b, c] = grupos.map((g) => g.toString(16));
  return c === '0' ? (b === '0' ? (a === '0' ? '::' : `${a}::`) : `${a}:${b}::`) : `${a}:${b}:${c}::`;
}

/** The four octets of a dotted IPv4 address, or null. */
function ipv4(s: string): number[] | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(s);
  if (!m) return null;
  const o = m.slice(1).map(Number);
  return o.every((n) => n <= 255) ? o : null;
}

/** The eight 16-bit groups of an IPv6 address (`::` and a trailing dotted IPv4 allowed), or null. */
function ipv6(s: string): number[] | null {
  if (!/^[0-9a-fA-F:.]{2,45}$/.test(s) || !s.includes(':')) return null;
  const partes = s.split('::');
  if (partes.length > 2) return null;
  const grupos = (t: string): number[] | null => {
    if (t === '') return [];
    const out: number[] = [];
    const trozos = t.split(':');
    for (const [i, g] of trozos.entries()) {
      if (i === trozos.length - 1 && g.includes('.')) {
        const v4 = ipv4(g);
        if (!v4) return null;
        out.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
      } else if (/^[0-9a-fA-F]{1,4}$/.test(g)) out.push(Number.parseInt(g, 16));
      else return null;
    }
    return out;
  };
  const izq = grupos(partes[0]!);
  const der = partes.length === 2 ? grupos(partes[1]!) : [];
  if (!izq || !der) return null;
  if (partes.length === 1) return izq.length === 8 ? izq : null;
  const faltan = 8 - izq.length - der.length;
  return faltan >= 1 ? [...izq, ...new Array<number>(faltan).fill(0), ...der] : null;
}
