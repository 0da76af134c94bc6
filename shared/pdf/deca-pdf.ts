import { jsPDF } from 'jspdf';
import { sha256, toHex, utf8Bytes } from '../rules/hmac-sha256';
import { formatPeso } from '../rules/peso';
import { INVISIBLE, imprimible } from '../rules/texto';
import { latin1Bytes } from './binario';
import { CAPACIDAD_SELLO, type DecaPdfData, type DecaPdfEnvio, type DecaPdfUnidad } from './deca-pdf-data';
import { comprobarEscritura, declararPdfA, FAMILIA, incrustarFuentes, reservarSello } from './pdfa';
import { darkRuns, qrModules } from './qr';

// A4 portrait, millimetres.
const PAGE_WIDTH = 210;
const PAGE_HEIGHT = 297;
const MARGIN_X = 15;
const MARGIN_TOP = 15;
const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN_X;
/** Lowest point content may reach; the footer lives below it. */
const CONTENT_BOTTOM = 279;
const FOOTER_RULE_Y = 283;
const FOOTER_BASELINE_Y = 288;
const COLUMN_GAP = 6;
const HALF_WIDTH = (CONTENT_WIDTH - COLUMN_GAP) / 2;

const MM_PER_PT = 25.4 / 72;
const TITLE_PT = 14;
const HEADING_PT = 11;
const BODY_PT = 10;
const SMALL_PT = 9;

/** Side of the QR's square, quiet zone included. */
const QR_MM = 40;
/**
 * Light modules kept on each side of the code, inside its square: scanners
 * need that much blank around the corner squares to find them, and it keeps
 * the URL printed just below from touching the code. For a typical ficha URL
 * (33 modules) a module is then ~1 mm, ~3 px even at 72 dpi.
 */
const QR_QUIET_ZONE_MODULES = 4;
const QR_COLUMN_WIDTH = 45;

/**
 * The mark across every page of a DeCA of the test environment: its number
 * has the same shape as a real one, so only this tells them apart on paper.
 * Text in the embedded font (it extracts, and the file stays PDF/A), light
 * red behind everything else, along the diagonal from the top left to the
 * bottom right: the other one would cross the QR.
 */
export const MARCA_PRUEBA = 'DOCUMENTO DE PRUEBA — SIN VALIDEZ';
/** How long the mark runs along that diagonal (A4's is 364 mm). */
const MARCA_LARGO = 290;
const MARCA_COLOR: [number, number, number] = [236, 165, 165];
/** DejaVu Sans Bold's capital height, in em: to centre the mark on the page. */
const CAP_HEIGHT_EM = 0.729;

const TABLE_PT = SMALL_PT;
const CELL_PAD_X = 1.5;
const CELL_PAD_Y = 1.2;

interface Column {
  title: string;
  width: number;
  align: 'left' | 'right';
  cell: (envio: DecaPdfEnvio, index: number) => string;
}

/** Widths add up to CONTENT_WIDTH (180 mm). */
const COLUMNS: readonly Column[] = [
  { title: 'Nº', width: 9, align: 'right', cell: (_e, i) => String(i + 1) },
  { title: 'Origen', width: 34, align: 'left', cell: (e) => e.origen },
  { title: 'Destino', width: 34, align: 'left', cell: (e) => e.destino },
  { title: 'Naturaleza de la mercancía', width: 40, align: 'left', cell: (e) => e.naturaleza },
  { title: 'Peso / cantidad', width: 27, align: 'right', cell: (e) => formatCantidad(e.peso, e.unidad) },
  { title: 'Nota', width: 36, align: 'left', cell: (e) => e.nota ?? '' },
];

const NO_CONSTA = 'no consta';

const ESTADO_LABEL: Record<DecaPdfData['estado'], string> = {
  pendiente: 'Pendiente',
  emitido: 'Emitida',
  sustituido: 'Sustituida',
};

const TIPO_VEHICULO_LABEL: Record<NonNullable<DecaPdfData['tipo_vehiculo']>, string> = {
  rigido: 'Rígido',
  articulado: 'Articulado',
};

/** [plural, singular]: «1 palet», «2 palets». */
const UNIDAD_LABEL: Record<DecaPdfUnidad, readonly [string, string]> = {
  kg: ['kg', 'kg'],
  t: ['t', 't'],
  m3: ['m³', 'm³'],
  l: ['l', 'l'],
  palets: ['palets', 'palet'],
  bultos: ['bultos', 'bulto'],
  unidades: ['unidades', 'unidad'],
  contenedores: ['contenedores', 'contenedor'],
};

/** Puts the QR code of `url` in the `size` mm square whose top left corner is (`x`, `y`) on the current page. */
export type QrDrawer = (doc: jsPDF, url: string, x: number, y: number, size: number) => void | Promise<void>;

/**
 * Renders one version of a DeCA (Orden FOM/2861/2012, art. 6) as an A4 PDF.
 *
 * The bytes depend only on `data`: the creation date comes from the version's
 * own timestamp and the file id from número + versión, so a stored PDF can be
 * regenerated and compared byte for byte, and the pool and in-process
 * rendering are interchangeable.
 *
 * `capacidadSello` is the room left for the seal's CMS: the sealer's exact
 * size (sello.ts), so no padding is stored; by default, room for any seal.
 * `drawQr` is there for bench/pdf-render.ts, which times another way of
 * drawing the code against this one in the same run; the server always uses
 * the default.
 */
export async function renderDecaPdf(data: DecaPdfData, { capacidadSello = CAPACIDAD_SELLO, drawQr = drawQrVectors }: { capacidadSello?: number; drawQr?: QrDrawer } = {}): Promise<Uint8Array> {
  const fichaUrl = printableUrl(data.ficha_url);

  // Coordinates to 1/100 pt (0.004 mm), far finer than any printer: the
  // default 16 decimals would make the QR's few hundred rectangles the
  // largest part of the file.
  const doc = new jsPDF({ orientation: 'portrait', unit: 'mm', format: 'a4', compress: true, putOnlyUsedFonts: true, floatPrecision: 2 });
  // PDF/A-2b: embedded fonts, sRGB output intent, XMP equal to the Info dictionary.
  const prueba = data.entorno === 'pruebas';
  const metadatos = {
    // Latin-1 only: the Info dictionary must read the same as the XMP.
    titulo: `DeCA ${data.numero} v${data.version}${prueba ? ' (DOCUMENTO DE PRUEBA, SIN VALIDEZ)' : ''}`,
    asunto: cleanLine(`Documento de control (DeCA), Orden FOM/2861/2012, art. 6. Cargador: ${data.cargador_nombre}. Transportista: ${data.transp_nombre}.`),
    creador: 'DeCA',
    creacion: pdfCreationDate(versionTimestamp(data)),
    idioma: 'es-ES' as const,
  };
  doc.setDocumentProperties({ title: metadatos.titulo, subject: metadatos.asunto, creator: metadatos.creador });
  doc.setLanguage(metadatos.idioma);
  doc.setCreationDate(metadatos.creacion);
  doc.setFileId(pdfFileId(data.numero, data.version));
  incrustarFuentes(doc);
  declararPdfA(doc, metadatos);
  reservarSello(doc, metadatos.creacion, capacidadSello);
  doc.setTextColor(0);
  doc.setDrawColor(0);

  const page = new PageCursor(doc, prueba ? () => drawMarcaPrueba(doc) : null);
  const qr = drawHeader(page, data, fichaUrl);
  // Still on the first page: nothing has flowed onto a second one yet.
  await drawQr(doc, fichaUrl, qr.x, qr.y, QR_MM);
  drawParties(page, data);
  drawTransporte(page, data);
  drawEnvios(page, data.envios);
  drawObservaciones(page, data);
  drawFooters(doc, data);

  const salida = latin1Bytes(doc.output());
  comprobarEscritura(doc);
  return salida;
}

/** Tracks the vertical position and starts new pages, calling `onNewPage` so a table can repeat its header. */
class PageCursor {
  y = MARGIN_TOP;
  onNewPage: (() => void) | null = null;

  /** `background` is drawn first on every page, this one included: under everything else. */
  constructor(
    readonly doc: jsPDF,
    private readonly background: (() => void) | null,
  ) {
    this.background?.();
  }

  /** Moves to a new page unless `height` mm still fit above the footer. */
  ensure(height: number): void {
    if (this.y + height > CONTENT_BOTTOM) this.newPage();
  }

  newPage(): void {
    this.doc.addPage();
    this.y = MARGIN_TOP;
    this.background?.();
    this.onNewPage?.();
  }

  room(): number {
    return CONTENT_BOTTOM - this.y;
  }
}

/** Lays out the header with the QR_MM square left blank for the QR; returns that square's top left corner. */
function drawHeader(page: PageCursor, data: DecaPdfData, fichaUrl: string): { x: number; y: number } {
  const { doc } = page;
  const top = page.y;

  // QR top right on the first page, so an inspector finds it without turning pages.
  const qrColumnX = PAGE_WIDTH - MARGIN_X - QR_COLUMN_WIDTH;
  const qrCenterX = qrColumnX + QR_COLUMN_WIDTH / 2;
  setFont(doc, SMALL_PT, 'normal');
  const urlLines = wrapUrl(doc, cleanLine(fichaUrl), QR_COLUMN_WIDTH);
  const qrBottom = drawLines(doc, urlLines, qrCenterX, top + QR_MM + 1.5, SMALL_PT, 'center');

  const leftWidth = qrColumnX - MARGIN_X - COLUMN_GAP;
  let y = top;
  setFont(doc, TITLE_PT, 'bold');
  y = drawLines(doc, ['Documento de control (DeCA)'], MARGIN_X, y, TITLE_PT);
  setFont(doc, BODY_PT, 'normal');
  y = drawLines(doc, ['Orden FOM/2861/2012, art. 6'], MARGIN_X, y, BODY_PT);
  y += 3;

  const fields: Field[] = [
    { label: 'Número', value: data.numero },
    { label: 'Versión', value: String(data.version) },
    { label: 'Estado', value: ESTADO_LABEL[data.estado] },
    { label: 'Fecha de emisión', value: formatFechaHora(data.emitido_at) },
  ];
  if (data.version > 1) {
    fields.push({ label: 'Última modificación', value: data.modificado_at ? formatFechaHora(data.modificado_at) : NO_CONSTA }, { label: 'Motivo', value: data.motivo_modificacion ?? NO_CONSTA });
  }
  y = drawFields(doc, fields, MARGIN_X, y, leftWidth);
  if (data.sustituye_a) {
    y += 1.5;
    setFont(doc, BODY_PT, 'bold');
    y = drawLines(doc, wrap(doc, `Sustituye a la DeCA ${cleanLine(data.sustituye_a)}`, leftWidth), MARGIN_X, y, BODY_PT);
  }

  page.y = Math.max(y, qrBottom) + 3;
  drawRule(doc, page.y, 0.3);
  page.y += 4;
  return { x: qrCenterX - QR_MM / 2, y: top };
}

/**
 * «DOCUMENTO DE PRUEBA — SIN VALIDEZ» across the current page, centred on
 * it, as large as MARCA_LARGO allows; the font, size and colour in use are
 * put back, so whatever the page was drawing goes on as before.
 */
export function drawMarcaPrueba(doc: jsPDF): void {
  const { fontName, fontStyle } = doc.getFont();
  const size = doc.getFontSize();
  doc.setFont(FAMILIA, 'bold');
  doc.setFontSize(100);
  const pt = (100 * MARCA_LARGO) / doc.getTextWidth(MARCA_PRUEBA);
  doc.setFontSize(pt);
  const angulo = Math.atan2(PAGE_HEIGHT, PAGE_WIDTH);
  const [cos, sin] = [Math.cos(angulo), Math.sin(angulo)];
  // The baseline's start: back half the length from the centre, and down half the capitals' height.
  const medio = (pt * MM_PER_PT * CAP_HEIGHT_EM) / 2;
  const x = PAGE_WIDTH / 2 - (MARCA_LARGO / 2) * cos - medio * sin;
  const y = PAGE_HEIGHT / 2 - (MARCA_LARGO / 2) * sin + medio * cos;
  doc.setTextColor(...MARCA_COLOR);
  // Text extractors cut slanted text into letters (poppler starts a new word when the baseline moves
  // half a point): the span's ActualText gives them the mark whole.
  const contenido = doc.internal as unknown as { write(...partes: string[]): void };
  contenido.write(`/Span << /ActualText <FEFF${utf16Hex(MARCA_PRUEBA)}> >> BDC`);
  doc.text(MARCA_PRUEBA, x, y, { angle: (-angulo * 180) / Math.PI });
  contenido.write('EMC');
  doc.setTextColor(0);
  doc.setFont(fontName, fontStyle);
  doc.setFontSize(size);
}

/** A string as the hex digits of its UTF-16BE code units (a PDF text string after the FEFF mark). */
function utf16Hex(text: string): string {
  let hex = '';
  for (let i = 0; i < text.length; i++) hex += text.charCodeAt(i).toString(16).padStart(4, '0').toUpperCase();
  return hex;
}

/**
 * The QR as vectors: one black rectangle per horizontal run of dark modules,
 * all in one path filled once. Far cheaper than an image, which jsPDF would
 * decode and re-compress on every render, and sharp at any zoom or printer
 * resolution. Nothing is painted on the quiet zone: the page is white there.
 */
export function drawQrVectors(doc: jsPDF, url: string, x: number, y: number, size: number): void {
  const modules = qrModules(url);
  const module = size / (modules.size + 2 * QR_QUIET_ZONE_MODULES);
  const left = x + QR_QUIET_ZONE_MODULES * module;
  const top = y + QR_QUIET_ZONE_MODULES * module;
  doc.setFillColor(0, 0, 0);
  // A null style adds the rectangle to the current path without painting it;
  // painting the runs as one path keeps the rows from showing seams where
  // they meet once rasterised.
  for (const run of darkRuns(modules)) {
    doc.rect(left + run.col * module, top + run.row * module, run.length * module, module, null);
  }
  doc.fill();
}

function drawParties(page: PageCursor, data: DecaPdfData): void {
  const cargador: Field[] = [
    { label: 'Nombre', value: data.cargador_nombre },
    { label: 'NIF', value: data.cargador_nif },
    { label: 'Domicilio', value: data.cargador_domicilio },
  ];
  const transportista: Field[] = [
    { label: 'Nombre', value: data.transp_nombre },
    { label: 'NIF', value: data.transp_nif },
    { label: 'Domicilio', value: data.transp_domicilio ?? NO_CONSTA },
  ];
  drawTwoColumns(page, ['Cargador contractual', cargador], ['Transportista efectivo', transportista]);
}

function drawTransporte(page: PageCursor, data: DecaPdfData): void {
  const { doc } = page;
  const left: Field[] = [
    { label: 'Fecha', value: formatFecha(data.fecha_transporte) },
    { label: 'Tipo de vehículo', value: data.tipo_vehiculo ? TIPO_VEHICULO_LABEL[data.tipo_vehiculo] : NO_CONSTA },
    { label: 'Conductor', value: data.conductor_nombre ?? NO_CONSTA },
  ];
  const right: Field[] = [
    { label: 'Matrícula', value: data.matricula },
    { label: 'Remolque', value: data.matricula_remolque ?? NO_CONSTA },
    { label: 'Autorización especial', value: data.autorizacion_especial ?? NO_CONSTA },
  ];
  const height = headingHeight() + Math.max(measureFields(doc, left, HALF_WIDTH), measureFields(doc, right, HALF_WIDTH));
  page.ensure(height);
  page.y = drawHeading(doc, 'Transporte', page.y);
  const bottom = Math.max(drawFields(doc, left, MARGIN_X, page.y, HALF_WIDTH), drawFields(doc, right, MARGIN_X + HALF_WIDTH + COLUMN_GAP, page.y, HALF_WIDTH));
  page.y = bottom + 5;
}

function drawTwoColumns(page: PageCursor, [leftTitle, left]: [string, Field[]], [rightTitle, right]: [string, Field[]]): void {
  const { doc } = page;
  const height = headingHeight() + Math.max(measureFields(doc, left, HALF_WIDTH), measureFields(doc, right, HALF_WIDTH));
  page.ensure(height);
  const rightX = MARGIN_X + HALF_WIDTH + COLUMN_GAP;
  const top = page.y;
  const leftBottom = drawFields(doc, left, MARGIN_X, drawHeading(doc, leftTitle, top, MARGIN_X), HALF_WIDTH);
  const rightBottom = drawFields(doc, right, rightX, drawHeading(doc, rightTitle, top, rightX), HALF_WIDTH);
  page.y = Math.max(leftBottom, rightBottom) + 5;
}

/**
 * The shipments table. Rows keep together when they fit on a page; a row
 * longer than a whole page (very long notes) is split line by line rather
 * than cut off. Every page the table reaches repeats the column header.
 */
function drawEnvios(page: PageCursor, envios: readonly DecaPdfEnvio[]): void {
  const { doc } = page;
  const headerHeight = measureTableHeader(doc);
  const lineHeight = lineHeightOf(TABLE_PT);
  const freshPageRoom = CONTENT_BOTTOM - MARGIN_TOP - headingHeight() - headerHeight;

  page.ensure(headingHeight() + headerHeight + lineHeight + 2 * CELL_PAD_Y);
  page.y = drawHeading(doc, `Envíos (${envios.length})`, page.y);
  page.y = drawTableHeader(doc, page.y);
  page.onNewPage = () => {
    page.y = drawHeading(doc, 'Envíos (continuación)', page.y);
    page.y = drawTableHeader(doc, page.y);
  };

  envios.forEach((envio, index) => {
    setFont(doc, TABLE_PT, 'normal');
    const cells = COLUMNS.map((column) => wrap(doc, cleanLine(column.cell(envio, index)), column.width - 2 * CELL_PAD_X));
    const lineCount = Math.max(1, ...cells.map((lines) => lines.length));
    const rowHeight = lineCount * lineHeight + 2 * CELL_PAD_Y;
    if (rowHeight > page.room() && rowHeight <= freshPageRoom) page.newPage();

    let from = 0;
    while (from < lineCount) {
      const fitting = Math.floor((page.room() - 2 * CELL_PAD_Y) / lineHeight);
      if (fitting < 1) {
        page.newPage();
        continue;
      }
      const take = Math.min(fitting, lineCount - from);
      setFont(doc, TABLE_PT, 'normal');
      let x = MARGIN_X;
      COLUMNS.forEach((column, c) => {
        const lines = (cells[c] ?? []).slice(from, from + take);
        const textX = column.align === 'right' ? x + column.width - CELL_PAD_X : x + CELL_PAD_X;
        drawLines(doc, lines, textX, page.y + CELL_PAD_Y, TABLE_PT, column.align);
        x += column.width;
      });
      page.y += take * lineHeight + 2 * CELL_PAD_Y;
      drawRule(doc, page.y, 0.1);
      from += take;
    }
  });

  page.onNewPage = null;
  page.y += 5;
}

function measureTableHeader(doc: jsPDF): number {
  setFont(doc, TABLE_PT, 'bold');
  const lineCount = Math.max(...COLUMNS.map((column) => wrap(doc, column.title, column.width - 2 * CELL_PAD_X).length));
  return lineCount * lineHeightOf(TABLE_PT) + 2 * CELL_PAD_Y;
}

function drawTableHeader(doc: jsPDF, top: number): number {
  const height = measureTableHeader(doc);
  drawRule(doc, top, 0.3);
  let x = MARGIN_X;
  for (const column of COLUMNS) {
    const lines = wrap(doc, column.title, column.width - 2 * CELL_PAD_X);
    const textX = column.align === 'right' ? x + column.width - CELL_PAD_X : x + CELL_PAD_X;
    drawLines(doc, lines, textX, top + CELL_PAD_Y, TABLE_PT, column.align);
    x += column.width;
  }
  drawRule(doc, top + height, 0.3);
  return top + height;
}

/** Observaciones and referencia after the table; long observaciones flow onto further pages. */
function drawObservaciones(page: PageCursor, data: DecaPdfData): void {
  const { doc } = page;
  const lineHeight = lineHeightOf(BODY_PT);

  page.ensure(headingHeight() + lineHeight);
  page.y = drawHeading(doc, 'Observaciones', page.y);
  setFont(doc, BODY_PT, 'normal');
  const lines = data.observaciones ? wrap(doc, cleanParagraphs(data.observaciones), CONTENT_WIDTH) : ['Ninguna'];
  for (const line of lines) {
    page.ensure(lineHeight);
    page.y = drawLines(doc, [line], MARGIN_X, page.y, BODY_PT);
  }
  page.y += 3;

  const referencia: Field[] = [{ label: 'Referencia', value: data.referencia ?? NO_CONSTA }];
  page.ensure(measureFields(doc, referencia, CONTENT_WIDTH));
  page.y = drawFields(doc, referencia, MARGIN_X, page.y, CONTENT_WIDTH);
}

/** «Página X de Y» needs the page count, so footers go on every page once the content is laid out. */
function drawFooters(doc: jsPDF, data: DecaPdfData): void {
  const total = doc.getNumberOfPages();
  for (let n = 1; n <= total; n++) {
    doc.setPage(n);
    drawRule(doc, FOOTER_RULE_Y, 0.1);
    setFont(doc, SMALL_PT, 'normal');
    doc.text(`DeCA ${cleanLine(data.numero)} · versión ${data.version}`, MARGIN_X, FOOTER_BASELINE_Y);
    doc.text(`Página ${n} de ${total}`, PAGE_WIDTH - MARGIN_X, FOOTER_BASELINE_Y, { align: 'right' });
  }
}

// ---------------------------------------------------------------------------
// Text primitives

interface Field {
  label: string;
  value: string;
}

function setFont(doc: jsPDF, sizePt: number, style: 'normal' | 'bold'): void {
  doc.setFont(FAMILIA, style);
  doc.setFontSize(sizePt);
}

function lineHeightOf(sizePt: number): number {
  return sizePt * MM_PER_PT * 1.25;
}

/** Splits at spaces, and inside words (URLs, long references) when one word is wider than the line. */
function wrap(doc: jsPDF, text: string, width: number): string[] {
  return doc.splitTextToSize(text, width) as string[];
}

/** Draws lines whose top edge starts at `top` and returns the y below the last one. */
function drawLines(doc: jsPDF, lines: readonly string[], x: number, top: number, sizePt: number, align: 'left' | 'right' | 'center' = 'left'): number {
  const lineHeight = lineHeightOf(sizePt);
  // The capitals' top is ~0.72 em above the baseline; placing the baseline there (plus the
  // half-leading) keeps `top` a true top edge for rules and table cells.
  const ascent = sizePt * MM_PER_PT * (0.72 + 0.125);
  lines.forEach((line, i) => {
    doc.text(line, x, top + ascent + i * lineHeight, { align });
  });
  return top + lines.length * lineHeight;
}

/**
 * Wraps a URL (no spaces) to `width`, breaking after `/`, `?`, `&`, `=` or
 * `#` when one falls in the second half of the line, so a driver reading it
 * aloud or typing it sees whole path segments.
 */
function wrapUrl(doc: jsPDF, url: string, width: number): string[] {
  const lines: string[] = [];
  let rest = url;
  while (rest) {
    let fit = rest.length;
    while (fit > 1 && doc.getTextWidth(rest.slice(0, fit)) > width) fit--;
    if (fit < rest.length) {
      const breakAfter = Math.max(...['/', '?', '&', '=', '#'].map((c) => rest.lastIndexOf(c, fit - 1)));
      if (breakAfter >= fit / 2) fit = breakAfter + 1;
    }
    lines.push(rest.slice(0, fit));
    rest = rest.slice(fit);
  }
  return lines;
}

function headingHeight(): number {
  return lineHeightOf(HEADING_PT) + 1;
}

function drawHeading(doc: jsPDF, title: string, top: number, x = MARGIN_X): number {
  setFont(doc, HEADING_PT, 'bold');
  return drawLines(doc, [title], x, top, HEADING_PT) + 1;
}

function drawRule(doc: jsPDF, y: number, width: number): void {
  doc.setLineWidth(width);
  doc.line(MARGIN_X, y, PAGE_WIDTH - MARGIN_X, y);
}

/** Label column sized to the longest label of the group, capped so values keep most of the width. */
function layoutFields(doc: jsPDF, fields: readonly Field[], width: number) {
  setFont(doc, BODY_PT, 'bold');
  const labelWidth = Math.min(width * 0.45, Math.max(...fields.map((f) => doc.getTextWidth(`${f.label}:`))) + 2);
  const rows = fields.map((field) => {
    setFont(doc, BODY_PT, 'bold');
    const label = wrap(doc, `${field.label}:`, labelWidth - 1);
    setFont(doc, BODY_PT, 'normal');
    const value = wrap(doc, cleanLine(field.value), width - labelWidth);
    return { label, value, lines: Math.max(label.length, value.length) };
  });
  return { labelWidth, rows };
}

function measureFields(doc: jsPDF, fields: readonly Field[], width: number): number {
  const { rows } = layoutFields(doc, fields, width);
  return rows.reduce((sum, row) => sum + row.lines, 0) * lineHeightOf(BODY_PT) + fields.length * 0.8;
}

function drawFields(doc: jsPDF, fields: readonly Field[], x: number, top: number, width: number): number {
  const { labelWidth, rows } = layoutFields(doc, fields, width);
  let y = top;
  for (const row of rows) {
    setFont(doc, BODY_PT, 'bold');
    drawLines(doc, row.label, x, y, BODY_PT);
    setFont(doc, BODY_PT, 'normal');
    drawLines(doc, row.value, x + labelWidth, y, BODY_PT);
    y += row.lines * lineHeightOf(BODY_PT) + 0.8;
  }
  return y;
}

// ---------------------------------------------------------------------------
// Values

/** Spanish number format from shared/rules/peso.ts (24.500,5), so the PDF and the app agree, plus the unit. */
function formatCantidad(peso: number, unidad: DecaPdfUnidad): string {
  const [plural, singular] = UNIDAD_LABEL[unidad];
  return `${formatPeso(peso)} ${peso === 1 ? singular : plural}`;
}

/** 'YYYY-MM-DD' → 'DD/MM/YYYY'. */
function formatFecha(fecha: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(fecha);
  return match ? `${match[3]}/${match[2]}/${match[1]}` : cleanLine(fecha);
}

/** 'YYYY-MM-DD HH:MM:SS' (Europe/Madrid) → 'DD/MM/YYYY HH:MM:SS (hora peninsular)'. */
export function formatFechaHora(fechaHora: string): string {
  const { year, month, day, hour, minute, second } = parseWallTime(fechaHora);
  return `${pad(day)}/${pad(month)}/${year} ${pad(hour)}:${pad(minute)}:${pad(second)} (hora peninsular)`;
}

/** The timestamp of the version being printed: its modification, or the emission for version 1. */
function versionTimestamp(data: DecaPdfData): string {
  return data.version > 1 && data.modificado_at ? data.modificado_at : data.emitido_at;
}

/** Prints (and encodes) an internationalised URL in its ASCII form so the text under the QR is typeable. */
function printableUrl(url: string): string {
  if (/^[\x21-\x7e]*$/.test(url)) return url;
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}

// ---------------------------------------------------------------------------
// Reproducibility

/**
 * The PDF creation date for a Europe/Madrid wall time, as UTC:
 * '2025-07-01 12:00:00' → "D:20250701100000+00'00'".
 *
 * Pure arithmetic on purpose: a `Date` would make the bytes depend on the
 * machine's time zone. EU summer time runs from 01:00 UTC on the last Sunday
 * of March to 01:00 UTC on the last Sunday of October; the repeated hour in
 * October resolves to its first (summer-time) occurrence.
 */
export function pdfCreationDate(madridWallTime: string): string {
  const t = parseWallTime(madridWallTime);
  const local = daysFromCivil(t.year, t.month, t.day) * 86_400 + t.hour * 3_600 + t.minute * 60 + t.second;
  const summerStart = lastSunday(t.year, 3) * 86_400 + 3_600;
  const summerEnd = lastSunday(t.year, 10) * 86_400 + 3_600;
  const asSummer = local - 2 * 3_600;
  let utc = asSummer >= summerStart && asSummer < summerEnd ? asSummer : local - 3_600;

  // jsPDF only accepts years 1970–2037 here; the printed dates are unaffected,
  // only the metadata date saturates.
  utc = Math.min(Math.max(utc, 0), daysFromCivil(2037, 12, 31) * 86_400 + 86_399);

  const days = Math.floor(utc / 86_400);
  const seconds = utc - days * 86_400;
  const [year, month, day] = civilFromDays(days);
  const hms = pad(Math.floor(seconds / 3_600)) + pad(Math.floor((seconds % 3_600) / 60)) + pad(seconds % 60);
  return `D:${year}${pad(month)}${pad(day)}${hms}+00'00'`;
}

/** The PDF /ID: first 32 hex digits of sha256(número, versión), stable across re-renders of the same version. */
export function pdfFileId(numero: string, version: number): string {
  return toHex(sha256(utf8Bytes(`${numero}\u0000${version}`))).slice(0, 32);
}

function parseWallTime(value: string) {
  const match = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})$/.exec(value);
  if (!match) throw new Error(`Expected 'YYYY-MM-DD HH:MM:SS', got ${JSON.stringify(value)}`);
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as [number, number, number, number, number, number];
  return { year, month, day, hour, minute, second };
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

function civilFromDays(days: number): [number, number, number] {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1_460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return [yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day];
}

function lastSunday(year: number, month: number): number {
  const lastDay = daysFromCivil(year, month + 1, 1) - 1;
  const weekday = (((lastDay + 4) % 7) + 7) % 7; // 1970-01-01 was a Thursday; 0 = Sunday
  return lastDay - weekday;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

// ---------------------------------------------------------------------------
// Printable text

/** Letters without a Unicode decomposition that still have an obvious stand-in the font has. */
const FALLBACK: Record<string, string> = {
  '\u2032': "'",
  '\u2033': '"',
};

/**
 * Keeps text to what the embedded font can print. The shared schemas refuse
 * anything else on input, so this only guards rows stored before that rule:
 * such characters become their base letter (Ő → O), a stand-in, or «?».
 */
function toImprimible(text: string): string {
  let out = '';
  for (const ch of text.normalize('NFC')) {
    if (ch === '\n' || imprimible(ch)) {
      out += ch;
    } else if (ch in FALLBACK) {
      out += FALLBACK[ch];
    } else if (INVISIBLE.test(ch)) {
    } else {
      const base = ch.normalize('NFD').replace(/\p{M}/gu, '');
      out += base && [...base].every(imprimible) ? base : '?';
    }
  }
  return out;
}

/** One line of text: any run of whitespace (tabs, newlines, NBSP) becomes one space. */
export function cleanLine(text: string): string {
  return toImprimible(text.replace(/\s+/g, ' ').trim());
}

/** Free text that keeps its line breaks (observaciones). */
export function cleanParagraphs(text: string): string {
  return toImprimible(
    text
      .replace(/\r\n?/g, '\n')
      .split('\n')
      .map((line) => line.replace(/\s+/g, ' ').trim())
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim(),
  );
}
