/**
 * The receipt of a delivery («Justificante de entrega»): an A4 PDF/A-2b with
 * the same fonts, metadata and empty seal as a DeCA (pdfa.ts), sealed by the
 * same pool. The consignee's signature is drawn as vectors from its strokes,
 * the photos as thumbnails, and a QR leads to the receipt's own public
 * verification page. Its bytes depend only on its data, as a DeCA's do.
 */
import { jsPDF } from 'jspdf';
import { latin1Bytes } from './binario';
import { cleanLine, cleanParagraphs, drawMarcaPrueba, drawQrVectors, formatFechaHora, pdfCreationDate, pdfFileId } from './deca-pdf';
import { CAPACIDAD_SELLO } from './deca-pdf-data';
import { comprobarEscritura, declararPdfA, FAMILIA, incrustarFuentes, reservarSello } from './pdfa';

export interface JustificantePdfFoto {
  /** A JPEG thumbnail (sRGB), and its size in px. */
  jpeg: Uint8Array;
  ancho: number;
  alto: number;
}

export interface JustificantePdfData {
  tipo: 'justificante';
  entorno: 'produccion' | 'pruebas';
  /** The DeCA's number, and this delivery's within it. */
  numero: string;
  n: number;
  /** The shipments it covers, with their index in the DeCA (0 the first). */
  envios: { indice: number; origen: string | null; destino: string | null; naturaleza: string | null }[];
  /** Whether it covers every shipment of the DeCA. */
  todos: boolean;
  cargador_nombre: string | null;
  transp_nombre: string | null;
  matricula: string | null;
  conductor_nombre: string | null;
  resultado: 'entregada' | 'rechazada';
  receptor_nombre: string | null;
  receptor_documento: string | null;
  reservas: string | null;
  sin_reservas: boolean;
  motivo_rechazo: string | null;
  /** 'YYYY-MM-DD HH:MM:SS', Madrid: the phone's time, and the server's when it arrived. */
  registrada_at: string;
  recibida_at: string;
  posicion: { lat: number; lon: number; precision_m?: number | undefined } | null;
  firma: { proporcion: number; trazos: number[][][] } | null;
  fotos: JustificantePdfFoto[];
  verificar_url: string;
}

const PAGE_WIDTH = 210;
const MARGIN_X = 15;
const MARGIN_TOP = 15;
const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN_X;
const CONTENT_BOTTOM = 279;
const MM_PER_PT = 25.4 / 72;
const QR_MM = 36;
const QR_COLUMN = 42;
const FIRMA_ANCHO = 90;
const FIRMA_ALTO_MAX = 45;
const FOTO_LADO = 56;

const titulo = (d: JustificantePdfData) => (d.resultado === 'entregada' ? 'Justificante de entrega' : 'Justificante de entrega rechazada');

/** Renders the receipt; `capacidadSello` is the room left for the seal, as for a DeCA. */
export async function renderJustificantePdf(data: JustificantePdfData, { capacidadSello = CAPACIDAD_SELLO }: { capacidadSello?: number } = {}): Promise<Uint8Array> {
  const doc = new jsPDF({ orientation: 'portrait', unit: 'mm', format: 'a4', compress: true, putOnlyUsedFonts: true, floatPrecision: 2 });
  const prueba = data.entorno === 'pruebas';
  const metadatos = {
    titulo: `${titulo(data)} ${data.numero}-${data.n}${prueba ? ' (DOCUMENTO DE PRUEBA, SIN VALIDEZ)' : ''}`,
    asunto: cleanLine(`Entrega ${data.n} de la DeCA ${data.numero}: ${data.resultado}.`),
    creador: 'DeCA',
    creacion: pdfCreationDate(data.recibida_at),
    idioma: 'es-ES' as const,
  };
  doc.setDocumentProperties({ title: metadatos.titulo, subject: metadatos.asunto, creator: metadatos.creador });
  doc.setLanguage(metadatos.idioma);
  doc.setCreationDate(metadatos.creacion);
  doc.setFileId(pdfFileId(`${data.numero}/entrega`, data.n));
  incrustarFuentes(doc);
  declararPdfA(doc, metadatos);
  reservarSello(doc, metadatos.creacion, capacidadSello, 'Justificante de entrega sellado por el servicio DeCA');
  doc.setTextColor(0);
  doc.setDrawColor(0);
  if (prueba) drawMarcaPrueba(doc);

  const c = new Cursor(doc, prueba);
  // Header: title and numbers on the left, the QR of the verification page on the right.
  const qrX = PAGE_WIDTH - MARGIN_X - QR_COLUMN + (QR_COLUMN - QR_MM) / 2;
  drawQrVectors(doc, data.verificar_url, qrX, MARGIN_TOP, QR_MM);
  fuente(doc, 7, 'normal');
  const url = doc.splitTextToSize(cleanLine(data.verificar_url), QR_COLUMN) as string[];
  lineas(doc, url, PAGE_WIDTH - MARGIN_X - QR_COLUMN / 2, MARGIN_TOP + QR_MM + 1, 7, 'center');
  const izquierda = CONTENT_WIDTH - QR_COLUMN - 6;
  fuente(doc, 14, 'bold');
  c.y = lineas(doc, [titulo(data)], MARGIN_X, c.y, 14);
  fuente(doc, 10, 'normal');
  c.y = lineas(doc, [`DeCA ${data.numero} · entrega ${data.n}`], MARGIN_X, c.y, 10) + 3;
  c.campos(
    [
      ['Resultado', data.resultado === 'entregada' ? 'Entregada' : 'Rechazada'],
      ['Hora en el teléfono', formatFechaHora(data.registrada_at)],
      ['Recibida por el servicio', formatFechaHora(data.recibida_at)],
      ['Cargador', data.cargador_nombre ?? 'no consta'],
      ['Transportista', data.transp_nombre ?? 'no consta'],
      ['Vehículo', [data.matricula, data.conductor_nombre].filter(Boolean).join(' · ') || 'no consta'],
    ],
    izquierda,
  );
  c.y = Math.max(c.y, MARGIN_TOP + QR_MM + 1 + url.length * 7 * MM_PER_PT * 1.25) + 4;

  c.titulo(data.todos ? 'Envíos (todos los de la DeCA)' : data.envios.length === 1 ? 'Envío' : 'Envíos');
  for (const e of data.envios) c.parrafo(`${e.indice + 1}. ${cleanLine(e.origen ?? 'no consta')} → ${cleanLine(e.destino ?? 'no consta')}: ${cleanLine(e.naturaleza ?? 'no consta')}`);

  c.titulo('Quien recibe');
  c.campos(
    [
      ['Nombre', data.receptor_nombre ?? 'no consta'],
      ['DNI / NIE', data.receptor_documento ?? 'no consta'],
    ],
    CONTENT_WIDTH,
  );
  if (data.resultado === 'entregada') {
    c.titulo('Reservas');
    c.parrafo(data.sin_reservas ? 'Recibida conforme, sin reservas.' : cleanParagraphs(data.reservas ?? ''));
  } else {
    c.titulo('Motivo del rechazo');
    c.parrafo(cleanParagraphs(data.motivo_rechazo ?? ''));
  }
  if (data.posicion) {
    const { lat, lon, precision_m } = data.posicion;
    c.titulo('Posición del teléfono');
    c.parrafo(`${lat.toFixed(5)}, ${lon.toFixed(5)}${precision_m !== undefined ? ` (± ${Math.round(precision_m)} m)` : ''}`);
  }
  if (data.firma) firma(c, data.firma);
  if (data.fotos.length) fotos(c, data.fotos);

  // Footer on every page.
  const paginas = doc.getNumberOfPages();
  for (let i = 1; i <= paginas; i++) {
    doc.setPage(i);
    fuente(doc, 8, 'normal');
    doc.setLineWidth(0.2);
    doc.line(MARGIN_X, 283, PAGE_WIDTH - MARGIN_X, 283);
    doc.text(`${titulo(data)} · DeCA ${data.numero} · entrega ${data.n}`, MARGIN_X, 288);
    doc.text(`Página ${i} de ${paginas}`, PAGE_WIDTH - MARGIN_X, 288, { align: 'right' });
  }

  const salida = latin1Bytes(doc.output());
  comprobarEscritura(doc);
  return salida;
}

function fuente(doc: jsPDF, pt: number, estilo: 'normal' | 'bold'): void {
  doc.setFont(FAMILIA, estilo);
  doc.setFontSize(pt);
}

const alto = (pt: number) => pt * MM_PER_PT * 1.25;

function lineas(doc: jsPDF, ls: readonly string[], x: number, top: number, pt: number, align: 'left' | 'center' = 'left'): number {
  const ascent = pt * MM_PER_PT * (0.72 + 0.125);
  ls.forEach((l, i) => {
    doc.text(l, x, top + ascent + i * alto(pt), { align });
  });
  return top + ls.length * alto(pt);
}

class Cursor {
  y = MARGIN_TOP;
  constructor(
    readonly doc: jsPDF,
    private readonly prueba: boolean,
  ) {}

  /** A new page unless `h` mm still fit. */
  cabe(h: number): void {
    if (this.y + h <= CONTENT_BOTTOM) return;
    this.doc.addPage();
    if (this.prueba) drawMarcaPrueba(this.doc);
    this.y = MARGIN_TOP;
  }

  titulo(t: string): void {
    this.cabe(12);
    this.y += 2;
    fuente(this.doc, 11, 'bold');
    this.y = lineas(this.doc, [t], MARGIN_X, this.y, 11);
    this.doc.setLineWidth(0.2);
    this.doc.line(MARGIN_X, this.y + 0.5, MARGIN_X + CONTENT_WIDTH, this.y + 0.5);
    this.y += 2;
  }

  parrafo(t: string): void {
    fuente(this.doc, 10, 'normal');
    for (const l of this.doc.splitTextToSize(t, CONTENT_WIDTH) as string[]) {
      this.cabe(alto(10));
      this.y = lineas(this.doc, [l], MARGIN_X, this.y, 10);
    }
  }

  campos(cs: readonly [string, string][], ancho: number): void {
    const etiqueta = 50;
    for (const [k, v] of cs) {
      fuente(this.doc, 10, 'normal');
      const ls = this.doc.splitTextToSize(cleanLine(v), ancho - etiqueta) as string[];
      this.cabe(ls.length * alto(10));
      fuente(this.doc, 10, 'bold');
      lineas(this.doc, [k], MARGIN_X, this.y, 10);
      fuente(this.doc, 10, 'normal');
      this.y = lineas(this.doc, ls, MARGIN_X + etiqueta, this.y, 10);
    }
  }
}

/** The signature in a box of its pad's proportions, each stroke one vector path. */
function firma(c: Cursor, f: NonNullable<JustificantePdfData['firma']>): void {
  const ancho = Math.min(FIRMA_ANCHO, FIRMA_ALTO_MAX * f.proporcion);
  const altoCaja = ancho / f.proporcion;
  c.titulo('Firma de quien recibe');
  c.cabe(altoCaja + 2);
  const { doc } = c;
  const x0 = MARGIN_X;
  const y0 = c.y + 1;
  doc.setLineWidth(0.15);
  doc.setDrawColor(160);
  doc.rect(x0, y0, ancho, altoCaja, 'S');
  doc.setDrawColor(0);
  doc.setLineWidth(0.45);
  doc.setLineCap('round');
  doc.setLineJoin('round');
  for (const trazo of f.trazos) {
    const puntos = trazo.map(([x, y]) => [x0 + (x ?? 0) * ancho, y0 + (y ?? 0) * altoCaja] as const);
    const [primero, ...resto] = puntos;
    if (!primero) continue;
    if (resto.length === 0) {
      // A dot: a tap on the pad.
      doc.circle(primero[0], primero[1], 0.25, 'F');
      continue;
    }
    let [px, py] = primero;
    const deltas = resto.map(([x, y]) => {
      const d = [x - px, y - py];
      [px, py] = [x, y];
      return d;
    });
    doc.lines(deltas, primero[0], primero[1], [1, 1], 'S', false);
  }
  c.y = y0 + altoCaja + 2;
}

/** The photos as thumbnails, in a row of three. */
function fotos(c: Cursor, fs: readonly JustificantePdfFoto[]): void {
  c.titulo('Fotos de la entrega');
  const alturas = fs.map((f) => (f.alto >= f.ancho ? FOTO_LADO : (FOTO_LADO * f.alto) / f.ancho));
  c.cabe(Math.max(...alturas) + 2);
  let x = MARGIN_X;
  fs.forEach((f, i) => {
    const w = f.ancho >= f.alto ? FOTO_LADO : (FOTO_LADO * f.ancho) / f.alto;
    c.doc.addImage(f.jpeg, 'JPEG', x, c.y + 1, w, alturas[i]!, undefined, 'NONE');
    x += w + 5;
  });
  c.y += Math.max(...alturas) + 2;
}
