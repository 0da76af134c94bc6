/**
 * Dates and times as the service shows them: stored as UTC instants, shown in
 * Europe/Madrid (spec: timestamps `YYYY-MM-DD HH:MM:SS`; webhook `creado_at`
 * ISO 8601 with offset). Pure: uses only Intl, available in Node and browsers.
 */

export const ZONA = 'Europe/Madrid';

const formatter = new Intl.DateTimeFormat('en-CA', {
  timeZone: ZONA,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

interface Partes {
  y: number;
  m: number;
  d: number;
  h: number;
  min: number;
  s: number;
}

function partesConFormatter(instant: Date): Partes {
  const p: Record<string, string> = {};
  for (const part of formatter.formatToParts(instant)) p[part.type] = part.value;
  return {
    y: Number(p.year),
    m: Number(p.month),
    d: Number(p.day),
    h: Number(p.hour),
    min: Number(p.minute),
    s: Number(p.second),
  };
}

const HORA_MS = 3_600_000;
/** Madrid's offset (ms) by UTC hour: the zone only changes offset on the hour, and Intl is slow on a hot path. */
const offsetsPorHora = new Map<number, number>();

function offsetMs(ms: number): number {
  const hora = Math.floor(ms / HORA_MS);
  let off = offsetsPorHora.get(hora);
  if (off === undefined) {
    const inicio = hora * HORA_MS;
    const p = partesConFormatter(new Date(inicio));
    off = Date.UTC(p.y, p.m - 1, p.d, p.h, p.min, p.s) - inicio;
    if (offsetsPorHora.size >= 4096) offsetsPorHora.clear();
    offsetsPorHora.set(hora, off);
  }
  return off;
}

function partesMadrid(instant: Date): Partes {
  const local = new Date(Math.floor(instant.getTime() / 1000) * 1000 + offsetMs(instant.getTime()));
  return {
    y: local.getUTCFullYear(),
    m: local.getUTCMonth() + 1,
    d: local.getUTCDate(),
    h: local.getUTCHours(),
    min: local.getUTCMinutes(),
    s: local.getUTCSeconds(),
  };
}

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

/** Offset of Madrid from UTC at `instant`, in minutes (60 in winter, 120 in summer). */
export function offsetMadridMin(instant: Date): number {
  return Math.round(offsetMs(instant.getTime()) / 60_000);
}

/** `2026-11-21 10:33:30`: the timestamp format of the API, in Madrid time. */
export function formatMadrid(instant: Date): string {
  const p = partesMadrid(instant);
  return `${p.y}-${pad(p.m)}-${pad(p.d)} ${pad(p.h)}:${pad(p.min)}:${pad(p.s)}`;
}

/** The calendar day in Madrid, `YYYY-MM-DD`. */
export function fechaMadrid(instant: Date): string {
  return formatMadrid(instant).slice(0, 10);
}

/** The calendar month in Madrid, `YYYY-MM` (quota periods are Madrid months). */
export function mesMadrid(instant: Date): string {
  return formatMadrid(instant).slice(0, 7);
}

/** ISO 8601 with the Madrid offset, e.g. `2026-11-21T10:33:30+01:00`. */
export function isoMadrid(instant: Date): string {
  const off = offsetMadridMin(instant);
  const sign = off >= 0 ? '+' : '-';
  const abs = Math.abs(off);
  return `${formatMadrid(instant).replace(' ', 'T')}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/**
 * The UTC instant of a Madrid wall time. The wall time is read as UTC and
 * shifted by Madrid's offset at that instant; two passes settle it even on the
 * days the clocks change.
 */
export function instanteMadrid(fecha: string, h = 0, min = 0, s = 0): Date {
  const [y, m, d] = fecha.split('-').map(Number) as [number, number, number];
  const comoUtc = Date.UTC(y, m - 1, d, h, min, s);
  let t = comoUtc - offsetMadridMin(new Date(comoUtc)) * 60_000;
  t = comoUtc - offsetMadridMin(new Date(t)) * 60_000;
  return new Date(t);
}

/** The UTC instant of 00:00 Madrid time on `fecha` (`YYYY-MM-DD`). */
export function inicioDiaMadrid(fecha: string): Date {
  return instanteMadrid(fecha);
}

/** `YYYY-MM` → the first day of the next month, `YYYY-MM-DD`. */
export function primerDiaMesSiguiente(mes: string): string {
  const [y, m] = mes.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01-01` : `${y}-${pad(m + 1)}-01`;
}

const FECHA_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written `YYYY-MM-DD` (no 2026-02-30). */
export function isFechaValida(s: string): boolean {
  const m = FECHA_RE.exec(s);
  if (!m) return false;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1) return false;
  const dias = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  return d <= dias;
}

/** Whole days from `a` to `b` (`YYYY-MM-DD`), negative when `b` is earlier. */
export function diasEntre(a: string, b: string): number {
  const ta = Date.parse(`${a}T00:00:00Z`);
  const tb = Date.parse(`${b}T00:00:00Z`);
  return Math.round((tb - ta) / 86_400_000);
}

/** The calendar day `dias` after `fecha` (`YYYY-MM-DD`; negative goes back). */
export function sumarDias(fecha: string, dias: number): string {
  const t = new Date(Date.parse(`${fecha}T12:00:00Z`) + dias * 86_400_000);
  return t.toISOString().slice(0, 10);
}

/**
 * A date or timestamp as people read them in Spain: `2026-11-24` →
 * `24/11/2026`, `2026-11-24 21:57:03` → `24/11/2026 21:57`. Anything else is
 * returned as it came (never a wrong date).
 */
export function fechaEs(s: string | null | undefined): string {
  if (!s) return '';
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2}))?/.exec(s);
  if (!m) return s;
  const [, a, mes, d, h, min] = m;
  return h === undefined ? `${d}/${mes}/${a}` : `${d}/${mes}/${a} ${h}:${min}`;
}

/** An instant as Madrid's wall time the Spanish way: `24/11/2026 21:57`. */
export function fechaHoraEs(instant: Date): string {
  return fechaEs(formatMadrid(instant));
}
