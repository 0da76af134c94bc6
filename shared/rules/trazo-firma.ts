/**
 * A handwritten signature as a vector path: strokes of points normalised to
 * the pad (0–1 on each axis), so the same signature draws alike on any
 * screen, in a PDF or as an SVG, and weighs a few kilobytes instead of a
 * bitmap's hundreds. Pure: the phone's pad (client/views/entrega) and any
 * renderer share it, so what the consignee saw is what is kept.
 */

/** A point as a fraction of the pad's width and height. */
export type PuntoFirma = [number, number];
/** One stroke: the points the finger went through, in order. */
export type TrazoFirma = PuntoFirma[];

/** Decimals kept per coordinate: 1/10 000 of the pad is far below a finger's precision. */
const DECIMALES = 4;
/**
 * Points closer than this to the previous one (as a fraction of the pad's
 * longer side) add nothing but size: a finger held still sends dozens.
 */
export const DISTANCIA_MINIMA = 0.004;

const redondear = (n: number): number => {
  const f = 10 ** DECIMALES;
  return Math.round(Math.min(1, Math.max(0, n)) * f) / f;
};

/**
 * The points of one stroke in pad pixels, as fractions of the pad (clamped
 * to 0–1: a finger that slides off the edge stays on it), rounded, and
 * without the points that do not move the line. The last point is always
 * kept, so the stroke ends where the finger lifted.
 */
export function normalizarTrazo(puntos: readonly { x: number; y: number }[], ancho: number, alto: number): TrazoFirma {
  if (puntos.length === 0 || ancho <= 0 || alto <= 0) return [];
  const lado = Math.max(ancho, alto);
  const out: TrazoFirma = [];
  const ultimo = puntos.length - 1;
  puntos.forEach((p, i) => {
    const q: PuntoFirma = [redondear(p.x / ancho), redondear(p.y / alto)];
    const prev = out[out.length - 1];
    if (prev) {
      // Distance measured in the pad's proportions, not in squashed 0–1 units.
      const dx = ((q[0] - prev[0]) * ancho) / lado;
      const dy = ((q[1] - prev[1]) * alto) / lado;
      if (Math.hypot(dx, dy) < DISTANCIA_MINIMA) {
        if (i === ultimo && (q[0] !== prev[0] || q[1] !== prev[1])) out[out.length - 1] = q;
        return;
      }
    }
    out.push(q);
  });
  return out;
}

const num = (n: number): string => String(Math.round(n * 100) / 100);

/**
 * An SVG path (`d`) for the strokes drawn in a box of `ancho`×`alto`:
 * smoothed with quadratic curves through the midpoints of consecutive
 * points, each point acting as the control point of its curve, so the line
 * passes through no corner the finger's sampling made. A stroke of one point
 * (a dot, the tittle of an «i») becomes a tiny line, so it shows.
 */
export function rutaFirma(trazos: readonly TrazoFirma[], ancho: number, alto: number): string {
  const partes: string[] = [];
  for (const t of trazos) {
    if (t.length === 0) continue;
    const p = t.map(([x, y]) => [x * ancho, y * alto] as const);
    const [x0, y0] = p[0]!;
    if (p.length === 1) {
      partes.push(`M${num(x0)} ${num(y0)}l0.01 0`);
      continue;
    }
    if (p.length === 2) {
      partes.push(`M${num(x0)} ${num(y0)}L${num(p[1]![0])} ${num(p[1]![1])}`);
      continue;
    }
    let d = `M${num(x0)} ${num(y0)}`;
    // First straight to the midpoint of the first segment, then a curve per point to the next midpoint.
    d += `L${num((x0 + p[1]![0]) / 2)} ${num((y0 + p[1]![1]) / 2)}`;
    for (let i = 1; i < p.length - 1; i++) {
      const [cx, cy] = p[i]!;
      const [nx, ny] = p[i + 1]!;
      d += `Q${num(cx)} ${num(cy)} ${num((cx + nx) / 2)} ${num((cy + ny) / 2)}`;
    }
    const [lx, ly] = p[p.length - 1]!;
    d += `L${num(lx)} ${num(ly)}`;
    partes.push(d);
  }
  return partes.join('');
}

/** Whether the strokes are enough to be a signature rather than a stray touch (some length of line). */
export function hayFirma(trazos: readonly TrazoFirma[]): boolean {
  let largo = 0;
  for (const t of trazos) for (let i = 1; i < t.length; i++) largo += Math.hypot(t[i]![0] - t[i - 1]![0], t[i]![1] - t[i - 1]![1]);
  return largo >= 0.05;
}
