/**
 * Photo reading quality and speed on photos as drivers take them
 * (test/fixtures/fotos-realistas.ts: the page on a table, a seat or a
 * dashboard, tilted, skewed and in perspective, under uneven coloured light,
 * sometimes sideways or upside down; six layouts with varying labels),
 * seeds 5000 and up, which no test uses. Each photo is read twice:
 *
 * - ours: POST /fotos's pipeline, as server/domain/fotos/leer.ts calls it
 *   (leerImagen: the photo prepared, read by the reader's workers, the
 *   proposal and its confidences by the shared rules), without an account
 *   (with one, the account's own side would be filled from it, not read);
 * - raw: the JPEG as it is through tesseract.js with the same model and
 *   page segmentation (PSM.AUTO), no preparation, then the same leerAlbaran:
 *   what the pipeline adds over plain OCR.
 *
 * Scored per field with precision, recall and F1. Exact fields (NIFs,
 * plates, date, each shipment's weight) must be equal; similar ones (names,
 * places, each shipment's goods) right when their normalised similarity
 * (1 − Levenshtein ÷ longer length, without case, accents or punctuation)
 * is ≥ 0.9. A wrong value is a false positive and a false negative; a value
 * where the note has none (a trailer, a third shipment) a false positive.
 * Shipments are matched by position; origin and destination are scored once
 * per photo, on the first shipment. Then: F1 per layout and per quarter
 * turn, overall F1 (micro, over every field), the share right among the
 * values the reading was sure of (confidence ≥ 0.6), values that are a
 * printed label, time per photo with warm workers, memory over 200 more
 * reads, and the machine's load at start and end.
 *
 * Targets: F1 ≥ 0.90 overall and ≥ 0.80 on the handwritten notes; ≥ 97% of
 * sure values right; no label as a value; p50 ≤ 1.5 s and p95 ≤ 3 s per
 * photo.
 *
 * Run: npx tsx bench/fotos.ts [number of photos, default 60] [--disposicion LAYOUT] [--guardar DIR] [--pasos] [--sin-memoria]
 * (--pasos reads the photos again with each step of the reading left out and prints what each brings;
 * --sin-memoria skips the 200 further reads.)
 * (--guardar writes each photo and a JSON with its truth, conditions and both readings.)
 * The handwritten layout needs Debian's fonts-humor-sans; without it that layout is left out, and the output says so.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { createScheduler, createWorker, OEM, PSM } from 'tesseract.js';
import { leerImagen } from '../server/domain/fotos/leer';
import { crearLectorFotos, type Pasos, TODOS_LOS_PASOS } from '../server/ocr/lector';
import { type Lectura, leerAlbaran, type PropuestaDeca } from '../shared/rules/albaran';
import { normalizarTexto } from '../shared/rules/busqueda';
import { quitarInvisibles } from '../shared/rules/texto';
import { DISPOSICIONES, type Disposicion, esEtiquetaImpresa, type FotoRealista, fotoRealista, hayFuenteManuscrita, soloPalabrasDeEtiquetas, type VerdadFoto } from '../test/fixtures/fotos-realistas';
import { herramienta } from '../test/support/herramientas';

const args = process.argv.slice(2);
const opcion = (nombre: string): string | undefined => {
  const i = args.indexOf(nombre);
  if (i < 0) return undefined;
  const valor = args[i + 1];
  args.splice(i, 2);
  return valor;
};
const guardar = opcion('--guardar');
const bandera = (nombre: string) => {
  const i = args.indexOf(nombre);
  if (i >= 0) args.splice(i, 1);
  return i >= 0;
};
/** --pasos: read the photos again with each step left out, and print what each brings. */
const medirPasos = bandera('--pasos');
/** --sin-memoria: skip the 200 further reads that measure memory (a quicker run while working). */
const sinMemoria = bandera('--sin-memoria');
const solo = opcion('--disposicion') as Disposicion | undefined;
/** --desde N: the first seed (5000 by default); another range is a set the reading's rules were not tuned on. */
const desde = opcion('--desde');
const N = Number(args[0] ?? 60);
if (solo && !DISPOSICIONES.includes(solo)) throw new Error(`--disposicion: una de ${DISPOSICIONES.join(', ')}`);
if (!Number.isInteger(N) || N < 1) throw new Error('el número de fotos es un entero positivo');
const pdftoppm = herramienta('pdftoppm');
if (!pdftoppm) process.exit(0);
const PRIMERA_SEMILLA = Number(desde ?? 5000);
if (!Number.isInteger(PRIMERA_SEMILLA) || PRIMERA_SEMILLA < 0) throw new Error('--desde: una semilla entera');

const carga = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
console.log(`machine: ${os.availableParallelism()} cores, Node ${process.versions.node}, load average at start ${carga()}`);

// ————— The photos —————

const conMano = hayFuenteManuscrita();
if (!conMano && solo === 'manuscrito') throw new Error('fonts-humor-sans is not installed (apt-get install fonts-humor-sans)');
const disposiciones = solo ? [solo] : conMano ? DISPOSICIONES : DISPOSICIONES.filter((d) => d !== 'manuscrito');
if (!conMano && !solo) console.log('fonts-humor-sans is not installed: the handwritten layout is left out (apt-get install fonts-humor-sans)');
const fotos: FotoRealista[] = [];
const generacion: number[] = [];
for (let i = 0; i < N; i++) {
  const inicio = performance.now();
  // The layouts in turn, so that each has its share of the photos.
  fotos.push(await fotoRealista(PRIMERA_SEMILLA + i, { disposicion: disposiciones[i % disposiciones.length]!, pdftoppm }));
  generacion.push(performance.now() - inicio);
}
const contar = <T>(xs: T[]) => [...xs.reduce((m, x) => m.set(x, (m.get(x) ?? 0) + 1), new Map<T, number>())].map(([x, n]) => `${x} ${n}`).join(', ');
console.log(
  `photos: ${N}, seeds ${PRIMERA_SEMILLA}–${PRIMERA_SEMILLA + N - 1} (${contar(fotos.map((f) => f.verdad.disposicion))}); turned ${contar(fotos.map((f) => `${f.verdad.giro}°`))}; ` +
    `${fotos.filter((f) => f.toma.ancho < 1300).length} about 1200 px wide, the rest 1500–1800; ${Math.round(fotos.reduce((s, f) => s + f.foto.length, 0) / N / 1024)} KB average; ` +
    `generated in ${(generacion.reduce((a, b) => a + b, 0) / N / 1000).toFixed(2)} s each (max ${(Math.max(...generacion) / 1000).toFixed(2)} s)`,
);
const nombre = (f: FotoRealista) => path.join(guardar ?? '', `${f.verdad.semilla}-${f.verdad.disposicion}`);
if (guardar) {
  await mkdir(guardar, { recursive: true });
  for (const f of fotos) {
    await writeFile(`${nombre(f)}.jpg`, f.foto);
    await writeFile(`${nombre(f)}.json`, JSON.stringify({ verdad: f.verdad, toma: f.toma }, null, 2));
  }
}

// ————— The two readings —————

interface Leida {
  texto: string;
  lectura: Lectura;
}

const lector = crearLectorFotos();
/** Our reading, as POST /fotos does it (server/domain/fotos/leer.ts's leerImagen), without an account; `pasos` leaves steps out. */
async function nuestraLectura(foto: Buffer, pasos: Pasos = TODOS_LOS_PASOS): Promise<Leida> {
  const { texto, lectura } = await leerImagen(lector, foto, undefined, undefined, pasos);
  return { texto, lectura };
}

await nuestraLectura(fotos[0]!.foto); // workers started and warm
const nuestras: Leida[] = [];
const tiempos: number[] = [];
for (const f of fotos) {
  const inicio = performance.now();
  nuestras.push(await nuestraLectura(f.foto));
  tiempos.push(performance.now() - inicio);
}

const rss = () => Math.round(process.memoryUsage().rss / 1024 / 1024);
const rssInicio = rss();
const marcas: string[] = [];
for (let i = 0; i < (sinMemoria ? 0 : 200); i++) {
  await nuestraLectura(fotos[i % fotos.length]!.foto);
  if ((i + 1) % 50 === 0) marcas.push(`${i + 1}: ${rss()} MB`);
}

// What each step brings: the same photos read with that step alone left out.
const sinPaso = new Map<keyof Pasos, Leida[]>();
if (medirPasos) {
  for (const paso of Object.keys(TODOS_LOS_PASOS) as (keyof Pasos)[]) {
    const leidas: Leida[] = [];
    for (const f of fotos) leidas.push(await nuestraLectura(f.foto, { ...TODOS_LOS_PASOS, [paso]: false }));
    sinPaso.set(paso, leidas);
  }
}
await lector.cerrar();

// The raw baseline: the same model as server/ocr/lector.ts, the JPEG untouched, on as many workers.
const require = createRequire(import.meta.url);
const LANG_PATH = path.join(path.dirname(require.resolve('@tesseract.js-data/spa')), '4.0.0_best_int');
const bruto = createScheduler();
for (let i = 0; i < Math.max(1, Math.min(2, os.availableParallelism())); i++) {
  const w = await createWorker('spa', OEM.LSTM_ONLY, { langPath: LANG_PATH, gzip: true, cacheMethod: 'none' });
  await w.setParameters({ tessedit_pageseg_mode: PSM.AUTO, debug_file: '/dev/null' } as Parameters<typeof w.setParameters>[0]);
  bruto.addWorker(w);
}
const brutas = await Promise.all(
  fotos.map(async (f): Promise<Leida> => {
    const texto = quitarInvisibles((await bruto.addJob('recognize', f.foto)).data.text);
    return { texto, lectura: leerAlbaran(texto) };
  }),
);
await bruto.terminate();

if (guardar) {
  const resumen = (l: Leida) => ({ propuesta: l.lectura.propuesta, confianza: l.lectura.confianza, avisos: l.lectura.avisos, texto: l.texto });
  for (const [i, f] of fotos.entries()) {
    await writeFile(`${nombre(f)}.json`, JSON.stringify({ verdad: f.verdad, toma: f.toma, nuestra: resumen(nuestras[i]!), bruta: resumen(brutas[i]!) }, null, 2));
  }
  console.log(`photos, truths and readings written to ${guardar}`);
}

// ————— Scoring —————

type Campo = 'cargador_nif' | 'transp_nif' | 'matricula' | 'matricula_remolque' | 'fecha_transporte' | 'peso' | 'cargador_nombre' | 'transp_nombre' | 'origen' | 'destino' | 'naturaleza';
const EXACTOS: Campo[] = ['cargador_nif', 'transp_nif', 'matricula', 'matricula_remolque', 'fecha_transporte', 'peso'];
const PARECIDOS: Campo[] = ['cargador_nombre', 'transp_nombre', 'origen', 'destino', 'naturaleza'];
const CAMPOS = [...EXACTOS, ...PARECIDOS];

/** Without case, accents or punctuation: «FRUTAS PENALARA SA» is «Frutas Peñalara, S.A.». */
const comparable = (s: string) =>
  normalizarTexto(s)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** 1 − Levenshtein distance ÷ longer length, on comparable text. */
function similitud(a: string, b: string): number {
  const x = comparable(a);
  const y = comparable(b);
  if (!x.length && !y.length) return 1;
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const cur = [i];
    for (let j = 1; j <= y.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    prev = cur;
  }
  return 1 - prev[y.length]! / Math.max(x.length, y.length);
}

interface Comparacion {
  campo: Campo;
  /** The key of its confidence in Lectura.confianza. */
  clave: string;
  esperado: string | number | null;
  leido: string | number | undefined;
}

/** What the truth says beside what the reading proposed, field by field and shipment by shipment. */
function comparaciones(v: VerdadFoto, p: PropuestaDeca): Comparacion[] {
  const out: Comparacion[] = [];
  for (const campo of ['cargador_nif', 'transp_nif', 'matricula', 'matricula_remolque', 'fecha_transporte', 'cargador_nombre', 'transp_nombre'] as const) {
    out.push({ campo, clave: campo, esperado: v[campo], leido: p[campo] });
  }
  out.push({ campo: 'origen', clave: 'envios[0].origen', esperado: v.origen, leido: p.envios[0]?.origen });
  out.push({ campo: 'destino', clave: 'envios[0].destino', esperado: v.destino, leido: p.envios[0]?.destino });
  for (let i = 0; i < Math.max(v.envios.length, p.envios.length); i++) {
    const e = p.envios[i];
    // A weight read in tonnes is compared in kilograms.
    const peso = e?.peso === undefined ? undefined : e.unidad === 't' ? e.peso * 1000 : e.peso;
    out.push({ campo: 'naturaleza', clave: `envios[${i}].naturaleza`, esperado: v.envios[i]?.naturaleza ?? null, leido: e?.naturaleza });
    out.push({ campo: 'peso', clave: `envios[${i}].peso`, esperado: v.envios[i]?.peso ?? null, leido: peso });
  }
  return out;
}

const acierta = (c: Comparacion) =>
  c.esperado !== null &&
  c.leido !== undefined &&
  (EXACTOS.includes(c.campo)
    ? typeof c.esperado === 'number'
      ? Math.abs(Number(c.leido) - c.esperado) < 1e-6
      : String(c.leido).trim() === c.esperado
    : similitud(String(c.leido), String(c.esperado)) >= 0.9);

interface Cuenta {
  vp: number;
  fp: number;
  fn: number;
}
const nueva = (): Cuenta => ({ vp: 0, fp: 0, fn: 0 });
function anotar(c: Cuenta, x: Comparacion) {
  if (x.leido === undefined) {
    if (x.esperado !== null) c.fn++;
  } else if (acierta(x)) c.vp++;
  else {
    c.fp++;
    if (x.esperado !== null) c.fn++;
  }
}
const precision = (c: Cuenta) => (c.vp + c.fp ? c.vp / (c.vp + c.fp) : Number.NaN);
const exhaustividad = (c: Cuenta) => (c.vp + c.fn ? c.vp / (c.vp + c.fn) : Number.NaN);
const f1 = (c: Cuenta) => (2 * c.vp + c.fp + c.fn ? (2 * c.vp) / (2 * c.vp + c.fp + c.fn) : Number.NaN);
const sumar = (cs: Cuenta[]) => cs.reduce((a, c) => ({ vp: a.vp + c.vp, fp: a.fp + c.fp, fn: a.fn + c.fn }), nueva());

interface Resultado {
  porCampo: Map<Campo, Cuenta>;
  porDisposicion: Map<Disposicion, Cuenta>;
  porGiro: Map<number, Cuenta>;
  seguros: { bien: number; total: number; malos: string[] };
  etiquetas: string[];
  /** Values made only of label words (two labels run together), beside those equal to one. */
  palabrasDeEtiqueta: string[];
}

function puntuar(leidas: Leida[]): Resultado {
  const r: Resultado = {
    porCampo: new Map(CAMPOS.map((c) => [c, nueva()])),
    porDisposicion: new Map(),
    porGiro: new Map(),
    seguros: { bien: 0, total: 0, malos: [] },
    etiquetas: [],
    palabrasDeEtiqueta: [],
  };
  fotos.forEach((f, i) => {
    const { propuesta, confianza } = leidas[i]!.lectura;
    const v = f.verdad;
    if (!r.porDisposicion.has(v.disposicion)) r.porDisposicion.set(v.disposicion, nueva());
    if (!r.porGiro.has(v.giro)) r.porGiro.set(v.giro, nueva());
    for (const x of comparaciones(v, propuesta)) {
      anotar(r.porCampo.get(x.campo)!, x);
      anotar(r.porDisposicion.get(v.disposicion)!, x);
      anotar(r.porGiro.get(v.giro)!, x);
      if (x.leido !== undefined && (confianza[x.clave] ?? 0) >= 0.6) {
        r.seguros.total++;
        if (acierta(x)) r.seguros.bien++;
        else r.seguros.malos.push(`${v.semilla} ${x.clave} «${x.leido}» (${confianza[x.clave]}) for «${x.esperado ?? '—'}»`);
      }
    }
    // Every text value proposed, shipments' included: none should be a label the note printed.
    const valores: [string, unknown][] = [
      ...Object.entries(propuesta).filter(([k]) => k !== 'envios'),
      ...propuesta.envios.flatMap((e, j) => Object.entries(e).map(([k, x]): [string, unknown] => [`envios[${j}].${k}`, x])),
    ];
    for (const [clave, valor] of valores) {
      if (typeof valor !== 'string') continue;
      if (esEtiquetaImpresa(valor)) r.etiquetas.push(`${v.semilla} ${clave} «${valor}»`);
      else if (soloPalabrasDeEtiquetas(valor)) r.palabrasDeEtiqueta.push(`${v.semilla} ${clave} «${valor}»`);
    }
  });
  return r;
}

const nuestro = puntuar(nuestras);
const crudo = puntuar(brutas);

const num = (x: number) => (Number.isNaN(x) ? '—' : x.toFixed(2));
const tres = (c: Cuenta) => [precision(c), exhaustividad(c), f1(c)].map((x) => num(x).padStart(6)).join('');
console.log(`\n${'field'.padEnd(22)}${'ours:  P     R    F1'.padStart(20)}   ${'raw:   P     R    F1'.padStart(20)}   in the truth`);
for (const campo of CAMPOS) {
  const enVerdad = fotos.reduce((s, f) => s + comparaciones(f.verdad, { envios: [] }).filter((x) => x.campo === campo && x.esperado !== null).length, 0);
  console.log(`${campo.padEnd(22)}${tres(nuestro.porCampo.get(campo)!).padStart(20)}   ${tres(crudo.porCampo.get(campo)!).padStart(20)}   ${enVerdad}`);
}
const total = (r: Resultado) => sumar([...r.porCampo.values()]);
console.log(`${'all fields (micro)'.padEnd(22)}${tres(total(nuestro)).padStart(20)}   ${tres(total(crudo)).padStart(20)}   (target F1 ≥ 0.90)`);

console.log(`\n${'F1 per layout'.padEnd(24)}  ours   raw   target`);
for (const d of disposiciones) {
  const cuantas = fotos.filter((f) => f.verdad.disposicion === d).length;
  if (!cuantas) continue;
  console.log(`${`${d} (${cuantas})`.padEnd(24)}${num(f1(nuestro.porDisposicion.get(d)!)).padStart(6)}${num(f1(crudo.porDisposicion.get(d)!)).padStart(6)}   ${d === 'manuscrito' ? '≥ 0.80' : ''}`);
}
console.log(`${'F1 per quarter turn'.padEnd(24)}  ours   raw`);
for (const g of [0, 90, 180, 270]) {
  const cuantas = fotos.filter((f) => f.verdad.giro === g).length;
  if (cuantas) console.log(`${`${g}° (${cuantas})`.padEnd(24)}${num(f1(nuestro.porGiro.get(g)!)).padStart(6)}${num(f1(crudo.porGiro.get(g)!)).padStart(6)}`);
}
console.log(`overall F1 (micro): ours ${num(f1(total(nuestro)))}, raw ${num(f1(total(crudo)))} (target ≥ 0.90)`);

const pct = (a: number, b: number) => (b ? `${((a / b) * 100).toFixed(1)}%` : '—');
for (const [quien, r] of [
  ['ours', nuestro],
  ['raw', crudo],
] as const) {
  console.log(
    `sure values (confidence ≥ 0.6), ${quien}: ${r.seguros.bien} right of ${r.seguros.total} (${pct(r.seguros.bien, r.seguros.total)}; target ≥ 97%)${r.seguros.malos.length ? `; wrong: ${r.seguros.malos.slice(0, 6).join('; ')}${r.seguros.malos.length > 6 ? '; …' : ''}` : ''}`,
  );
}
for (const [quien, r] of [
  ['ours', nuestro],
  ['raw', crudo],
] as const) {
  const lista = (xs: string[]) => (xs.length ? `: ${xs.slice(0, 6).join('; ')}${xs.length > 6 ? '; …' : ''}` : '');
  console.log(`printed labels proposed as values, ${quien}: ${r.etiquetas.length} (target 0)${lista(r.etiquetas)}`);
  console.log(`  and values made only of label words, ${quien}: ${r.palabrasDeEtiqueta.length}${lista(r.palabrasDeEtiqueta)}`);
}

const ordenados = [...tiempos].sort((a, b) => a - b);
const percentil = (p: number) => ordenados[Math.min(ordenados.length - 1, Math.ceil(p * ordenados.length) - 1)]!;
console.log(`\ntime per photo, ours (prepare + OCR + reading, warm workers): p50 ${percentil(0.5).toFixed(0)} ms (target ≤ 1500), p95 ${percentil(0.95).toFixed(0)} ms (target ≤ 3000)`);
if (!sinMemoria) console.log(`memory (RSS) over 200 more reads: start ${rssInicio} MB, ${marcas.join(', ')}`);
if (medirPasos) {
  console.log(`\n${'each step left out'.padEnd(24)}  F1   gain of the step   F1 per layout (${disposiciones.join(', ')})`);
  const todos = f1(total(nuestro));
  console.log(`${'none (all steps)'.padEnd(24)}${num(todos).padStart(5)}${''.padStart(19)}   ${disposiciones.map((d) => num(f1(nuestro.porDisposicion.get(d) ?? nueva()))).join('  ')}`);
  for (const [paso, leidas] of sinPaso) {
    const r = puntuar(leidas);
    const sin = f1(total(r));
    console.log(
      `${`without ${paso}`.padEnd(24)}${num(sin).padStart(5)}${`${todos - sin >= 0 ? '+' : ''}${num(todos - sin)}`.padStart(19)}   ${disposiciones.map((d) => num(f1(r.porDisposicion.get(d) ?? nueva()))).join('  ')}`,
    );
  }
}
console.log(`load average at end ${carga()}`);
