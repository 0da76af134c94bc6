/**
 * Finding the sheet of paper in a photo and flattening it, on plain grey
 * pixels (one byte a pixel), with no image library: the server decodes and
 * resizes with sharp, a browser would with a canvas, and both run these same
 * steps. A phone photo of a delivery note shows the page lying on something
 * darker (a table, a seat, a dashboard), a little turned, seen from a little
 * below (its top narrower than its foot). The page is the largest bright
 * region: its outline gives four corners, and a homography maps them back to
 * a rectangle. Everything around the page (the table's grain, the page's
 * shadow, its edge) is gone before the text is read, where it would otherwise
 * be taken for letters or split the page's layout into columns.
 */

export interface Gris {
  data: Uint8Array;
  width: number;
  height: number;
}

export type Punto = [number, number];
/** Corners clockwise from the top left, as they lie in the picture. */
export type Cuadrilatero = [Punto, Punto, Punto, Punto];

/** A box blur of radius `r` (two passes of running sums, so its cost does not grow with r). */
export function desenfocar(g: Gris, r: number): Gris {
  const { width: w, height: h } = g;
  const tmp = new Float32Array(w * h);
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    let s = 0;
    const fila = y * w;
    for (let x = -r; x <= r; x++) s += g.data[fila + Math.min(w - 1, Math.max(0, x))]!;
    for (let x = 0; x < w; x++) {
      tmp[fila + x] = s / (2 * r + 1);
      s += g.data[fila + Math.min(w - 1, x + r + 1)]! - g.data[fila + Math.max(0, x - r)]!;
    }
  }
  for (let x = 0; x < w; x++) {
    let s = 0;
    for (let y = -r; y <= r; y++) s += tmp[Math.min(h - 1, Math.max(0, y)) * w + x]!;
    for (let y = 0; y < h; y++) {
      out[y * w + x] = Math.round(s / (2 * r + 1));
      s += tmp[Math.min(h - 1, y + r + 1) * w + x]! - tmp[Math.max(0, y - r) * w + x]!;
    }
  }
  return { data: out, width: w, height: h };
}

/** Otsu's threshold: the grey level that best splits the histogram into two classes. */
export function umbralOtsu(data: Uint8Array): number {
  const hist = new Float64Array(256);
  for (const v of data) hist[v]!++;
  const total = data.length;
  let sumaTotal = 0;
  for (let i = 0; i < 256; i++) sumaTotal += i * hist[i]!;
  let pesoFondo = 0;
  let sumaFondo = 0;
  let mejor = 0;
  let umbral = 127;
  for (let t = 0; t < 256; t++) {
    pesoFondo += hist[t]!;
    if (pesoFondo === 0) continue;
    const pesoFrente = total - pesoFondo;
    if (pesoFrente === 0) break;
    sumaFondo += t * hist[t]!;
    const m0 = sumaFondo / pesoFondo;
    const m1 = (sumaTotal - sumaFondo) / pesoFrente;
    const entre = pesoFondo * pesoFrente * (m0 - m1) ** 2;
    if (entre > mejor) {
      mejor = entre;
      umbral = t;
    }
  }
  return umbral;
}

/** The largest 4-connected region of `mascara` (1 = in), as a mask of its own, and its size in pixels. */
function mayorRegion(mascara: Uint8Array, w: number, h: number): { region: Uint8Array; tamano: number } {
  const etiqueta = new Int32Array(w * h);
  const pila = new Int32Array(w * h);
  let mejor = 0;
  let tamanoMejor = 0;
  let siguiente = 0;
  for (let inicio = 0; inicio < w * h; inicio++) {
    if (!mascara[inicio] || etiqueta[inicio]) continue;
    siguiente++;
    let tope = 0;
    let tamano = 0;
    pila[tope++] = inicio;
    etiqueta[inicio] = siguiente;
    while (tope) {
      const p = pila[--tope]!;
      tamano++;
      const x = p % w;
      const vecinos = [x > 0 ? p - 1 : -1, x < w - 1 ? p + 1 : -1, p - w, p + w];
      for (const q of vecinos) {
        if (q < 0 || q >= w * h || !mascara[q] || etiqueta[q]) continue;
        etiqueta[q] = siguiente;
        pila[tope++] = q;
      }
    }
    if (tamano > tamanoMejor) {
      tamanoMejor = tamano;
      mejor = siguiente;
    }
  }
  const region = new Uint8Array(w * h);
  for (let i = 0; i < w * h; i++) region[i] = etiqueta[i] === mejor ? 1 : 0;
  return { region, tamano: tamanoMejor };
}

/** Intersection of the lines through a–b and c–d, or null when they are (nearly) parallel. */
function cruce(a: Punto, b: Punto, c: Punto, d: Punto): Punto | null {
  const d1x = b[0] - a[0];
  const d1y = b[1] - a[1];
  const d2x = d[0] - c[0];
  const d2y = d[1] - c[1];
  const den = d1x * d2y - d1y * d2x;
  if (Math.abs(den) < 1e-9) return null;
  const t = ((c[0] - a[0]) * d2y - (c[1] - a[1]) * d2x) / den;
  return [a[0] + t * d1x, a[1] + t * d1y];
}

/** The line that best fits a set of points (total least squares): a point on it and its direction. */
function ajustarRecta(puntos: Punto[]): [Punto, Punto] | null {
  if (puntos.length < 5) return null;
  let mx = 0;
  let my = 0;
  for (const [x, y] of puntos) {
    mx += x;
    my += y;
  }
  mx /= puntos.length;
  my /= puntos.length;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  for (const [x, y] of puntos) {
    sxx += (x - mx) ** 2;
    syy += (y - my) ** 2;
    sxy += (x - mx) * (y - my);
  }
  const angulo = 0.5 * Math.atan2(2 * sxy, sxx - syy);
  return [
    [mx, my],
    [mx + Math.cos(angulo), my + Math.sin(angulo)],
  ];
}

const area = (q: Punto[]) => Math.abs(q.reduce((s, [x, y], i) => s + x * q[(i + 1) % q.length]![1] - q[(i + 1) % q.length]![0] * y, 0)) / 2;

function anguloEn(a: Punto, b: Punto, c: Punto): number {
  const v1 = [a[0] - b[0], a[1] - b[1]];
  const v2 = [c[0] - b[0], c[1] - b[1]];
  const cos = (v1[0]! * v2[0]! + v1[1]! * v2[1]!) / (Math.hypot(v1[0]!, v1[1]!) * Math.hypot(v2[0]!, v2[1]!));
  return (Math.acos(Math.max(-1, Math.min(1, cos))) * 180) / Math.PI;
}

/**
 * The page's four corners in a small grey picture (a few hundred pixels a
 * side), or null when no page stands out from what is around it (the photo
 * is all page, or the page is not brighter than the surface under it).
 * The picture is blurred so the text melts into its paper, split at Otsu's
 * threshold, and the largest bright region taken; its outline's extreme
 * points in the four diagonal directions are the rough corners, and the
 * straight lines fitted to the outline between them the sides, whose
 * crossings are the corners returned (a corner rounded by blur or cut by a
 * shadow does not pull them in).
 */
export function buscarPagina(g: Gris): Cuadrilatero | null {
  const { width: w, height: h } = g;
  const suave = desenfocar(g, Math.max(2, Math.round(Math.max(w, h) / 120)));
  const umbral = umbralOtsu(suave.data);
  const mascara = new Uint8Array(w * h);
  for (let i = 0; i < w * h; i++) mascara[i] = suave.data[i]! > umbral ? 1 : 0;
  let { region, tamano } = mayorRegion(mascara, w, h);
  // A shadow across the page (a hand, the cab's pillar) can leave part of the paper below Otsu's
  // threshold, which then splits lit paper from everything else. Paper in shadow is still brighter than
  // the surface: a second threshold between the surface (the frame's edge) and the lit paper takes it in.
  const marco = Math.max(2, Math.round(Math.min(w, h) * 0.03));
  let sumaFondo = 0;
  let nFondo = 0;
  let sumaPapel = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (region[i]) sumaPapel += suave.data[i]!;
      else if (x < marco || y < marco || x >= w - marco || y >= h - marco) {
        sumaFondo += suave.data[i]!;
        nFondo++;
      }
    }
  }
  if (nFondo > 0 && tamano > 0) {
    const fondo = sumaFondo / nFondo;
    const papel = sumaPapel / tamano;
    const bajo = fondo + 0.25 * (papel - fondo);
    if (bajo < umbral) {
      for (let i = 0; i < w * h; i++) mascara[i] = suave.data[i]! > bajo ? 1 : 0;
      const otra = mayorRegion(mascara, w, h);
      // Taken only while it stays a sheet on the surface, not the surface too.
      let enMarco = 0;
      for (let x = 0; x < w; x++) enMarco += otra.region[x]! + otra.region[(h - 1) * w + x]!;
      for (let y = 0; y < h; y++) enMarco += otra.region[y * w]! + otra.region[y * w + w - 1]!;
      // Only when it takes in a good part more paper: its edge lies a little further out on the blur's ramp
      // than Otsu's, which is where the sheet's edge is when there is no shadow.
      if (enMarco < 0.15 * 2 * (w + h) && otra.tamano < 0.97 * w * h && otra.tamano > 1.03 * tamano) ({ region, tamano } = otra);
    }
  }
  // A page that fills the frame has nothing around it to cut; one of under a fifth of it is not a page.
  if (tamano < 0.2 * w * h || tamano > 0.97 * w * h) return null;
  // The paper must stand out: brighter than what is around it by a margin, not a lighter patch of a grey scene.
  let dentro = 0;
  let fuera = 0;
  for (let i = 0; i < w * h; i++) {
    if (region[i]) dentro += suave.data[i]!;
    else fuera += suave.data[i]!;
  }
  if (dentro / tamano - fuera / (w * h - tamano) < 25) return null;
  // The outline: region pixels with a neighbour outside it (or on the picture's edge).
  const borde: Punto[] = [];
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (!region[i]) continue;
      if (x === 0 || y === 0 || x === w - 1 || y === h - 1 || !region[i - 1] || !region[i + 1] || !region[i - w] || !region[i + w]) borde.push([x, y]);
    }
  }
  // A page lies on the surface: the region may leave the frame along a little of its edge (a corner
  // cut off), not along a good part of it, which is what a lit half of a page in shadow would do.
  const enElMarco = borde.filter(([x, y]) => x === 0 || y === 0 || x === w - 1 || y === h - 1).length;
  if (enElMarco > 0.15 * 2 * (w + h)) return null;
  // Rough corners: the extremes of x+y and x−y.
  const extremo = (f: (p: Punto) => number) => borde.reduce((m, p) => (f(p) > f(m) ? p : m));
  const rough: Cuadrilatero = [extremo(([x, y]) => -x - y), extremo(([x, y]) => x - y), extremo(([x, y]) => x + y), extremo(([x, y]) => y - x)];
  // Each side: the outline's points near the segment between two rough corners, away from both corners.
  const lados: ([Punto, Punto] | null)[] = [];
  for (let k = 0; k < 4; k++) {
    const a = rough[k]!;
    const b = rough[(k + 1) % 4]!;
    const largo = Math.hypot(b[0] - a[0], b[1] - a[1]);
    if (largo < 10) return null;
    const nx = -(b[1] - a[1]) / largo;
    const ny = (b[0] - a[0]) / largo;
    const cerca = borde.filter(([x, y]) => {
      const t = ((x - a[0]) * (b[0] - a[0]) + (y - a[1]) * (b[1] - a[1])) / (largo * largo);
      const d = Math.abs((x - a[0]) * nx + (y - a[1]) * ny);
      return t > 0.1 && t < 0.9 && d < Math.max(3, largo * 0.03);
    });
    // Points on the picture's edge are where the page leaves the frame, not its side.
    lados.push(ajustarRecta(cerca.filter(([x, y]) => x > 0 && y > 0 && x < w - 1 && y < h - 1)));
  }
  const esquinas: Punto[] = [];
  for (let k = 0; k < 4; k++) {
    const antes = lados[(k + 3) % 4];
    const despues = lados[k];
    const p = antes && despues ? cruce(antes[0], antes[1], despues[0], despues[1]) : null;
    // A fitted corner far from the rough one means a side was not straight (a fold, a hand): keep the rough one.
    esquinas.push(p && Math.hypot(p[0] - rough[k]![0], p[1] - rough[k]![1]) < Math.max(w, h) * 0.05 ? p : rough[k]!);
  }
  const q = esquinas as Cuadrilatero;
  // A sheet seen at a slant still has corners near right angles and fills its outline.
  if (q.some((p, k) => Math.abs(anguloEn(q[(k + 3) % 4]!, p, q[(k + 1) % 4]!) - 90) > 25)) return null;
  if (tamano < 0.85 * area(q)) return null;
  return q;
}

/** The 3×3 homography (row-major, h33 = 1) taking the four points `de` to `a`. */
export function homografia(de: Cuadrilatero, a: Cuadrilatero): number[] {
  // Eight equations in eight unknowns, solved by Gaussian elimination with partial pivoting.
  const m: number[][] = [];
  for (let i = 0; i < 4; i++) {
    const [x, y] = de[i]!;
    const [u, v] = a[i]!;
    m.push([x, y, 1, 0, 0, 0, -u * x, -u * y, u]);
    m.push([0, 0, 0, x, y, 1, -v * x, -v * y, v]);
  }
  for (let c = 0; c < 8; c++) {
    let p = c;
    for (let r = c + 1; r < 8; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[p]![c]!)) p = r;
    [m[c], m[p]] = [m[p]!, m[c]!];
    const piv = m[c]![c]!;
    if (Math.abs(piv) < 1e-12) throw new Error('homografía degenerada');
    for (let r = 0; r < 8; r++) {
      if (r === c) continue;
      const f = m[r]![c]! / piv;
      for (let k = c; k < 9; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  return [...Array.from({ length: 8 }, (_, i) => m[i]![8]! / m[i]![i]!), 1];
}

export function aplicar(hm: number[], [x, y]: Punto): Punto {
  const d = hm[6]! * x + hm[7]! * y + hm[8]!;
  return [(hm[0]! * x + hm[1]! * y + hm[2]!) / d, (hm[3]! * x + hm[4]! * y + hm[5]!) / d];
}

/** The page's size once flat: its sides' mean lengths, scaled so the long side is at most `maximo`. */
export function tamanoPlano(q: Cuadrilatero, maximo: number): { width: number; height: number } {
  const d = (a: Punto, b: Punto) => Math.hypot(b[0] - a[0], b[1] - a[1]);
  let width = (d(q[0], q[1]) + d(q[3], q[2])) / 2;
  let height = (d(q[0], q[3]) + d(q[1], q[2])) / 2;
  const escala = Math.min(1, maximo / Math.max(width, height));
  width = Math.max(1, Math.round(width * escala));
  height = Math.max(1, Math.round(height * escala));
  return { width, height };
}

/**
 * The quadrilateral `q` of `g` flattened into a `width` × `height`
 * rectangle: each pixel of the result is sampled (bilinearly) where the
 * homography from the rectangle to the quadrilateral sends it.
 */
export function aplanar(g: Gris, q: Cuadrilatero, width: number, height: number): Gris {
  const hm = homografia(
    [
      [0, 0],
      [width - 1, 0],
      [width - 1, height - 1],
      [0, height - 1],
    ],
    q,
  );
  const out = new Uint8Array(width * height);
  const { data, width: w, height: h } = g;
  for (let y = 0; y < height; y++) {
    // The denominator and numerators are linear in x along a row.
    let nx = hm[1]! * y + hm[2]!;
    let ny = hm[4]! * y + hm[5]!;
    let dd = hm[7]! * y + hm[8]!;
    for (let x = 0; x < width; x++) {
      const sx = nx / dd;
      const sy = ny / dd;
      nx += hm[0]!;
      ny += hm[3]!;
      dd += hm[6]!;
      if (sx < 0 || sy < 0 || sx > w - 1 || sy > h - 1) {
        out[y * width + x] = 255;
        continue;
      }
      const x0 = Math.min(w - 2, Math.floor(sx));
      const y0 = Math.min(h - 2, Math.floor(sy));
      const fx = sx - x0;
      const fy = sy - y0;
      const i = y0 * w + x0;
      const arriba = data[i]! + (data[i + 1]! - data[i]!) * fx;
      const abajo = data[i + w]! + (data[i + w + 1]! - data[i + w]!) * fx;
      out[y * width + x] = (arriba + (abajo - arriba) * fy + 0.5) | 0;
    }
  }
  return { data: out, width, height };
}

/** A quadrilateral shrunk towards its centre by `f` of its size (a page's edge and the shadow along it left out). */
export function encoger(q: Cuadrilatero, f: number): Cuadrilatero {
  const cx = (q[0][0] + q[1][0] + q[2][0] + q[3][0]) / 4;
  const cy = (q[0][1] + q[1][1] + q[2][1] + q[3][1]) / 4;
  return q.map(([x, y]) => [x + (cx - x) * f, y + (cy - y) * f]) as Cuadrilatero;
}
