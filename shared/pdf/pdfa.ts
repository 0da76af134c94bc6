/**
 * What turns a jsPDF document into PDF/A-2b (ISO 19005-2, level B): every
 * font embedded, an sRGB output intent, and XMP metadata that identifies the
 * file as PDF/A and repeats the document information dictionary. Everything
 * here is fixed bytes or derived from the document's own data, so the output
 * stays reproducible.
 */
import { zlibSync } from 'fflate';
import { jsPDF } from 'jspdf';
import { bytesLatin1, latin1Bytes } from './binario';
import { leerTtf, type FuenteTtf as ProgramaTtf, recortarTtf } from './recorte-ttf';

/**
 * The files every DeCA embeds, as bytes: DejaVu Sans cut to what a DeCA can
 * hold (scripts/subset-font.sh), regular and bold, and the sRGB IEC 61966-2.1
 * profile (icc-profiles-free, zlib licence), all in ./fuentes. The server
 * reads them from disk, the app fetches them (its service worker keeps them
 * offline); each installs them once before its first render.
 */
export interface RecursosPdf {
  normal: Uint8Array;
  bold: Uint8Array;
  srgb: Uint8Array;
}

export const FAMILIA = 'DejaVuSans';
type Estilo = 'normal' | 'bold';

interface Instalados {
  dejavu: Record<Estilo, Uint8Array>;
  /** The font programs, read once; each document embeds them cut to the glyphs it uses (recorte-ttf.ts). */
  programa: Record<Estilo, ProgramaTtf>;
  /** The profile deflated once, as the binary string jsPDF writes. */
  srgb: string;
}
let instalados: Instalados | null = null;

/** Makes `recursos` the fonts and profile of every document rendered after this (once per process or page). */
export function instalarRecursosPdf(recursos: RecursosPdf): void {
  instalados = {
    dejavu: { normal: recursos.normal, bold: recursos.bold },
    programa: { normal: leerTtf(recursos.normal), bold: leerTtf(recursos.bold) },
    srgb: bytesLatin1(zlibSync(recursos.srgb, { level: 9 })),
  };
  analizadas.clear();
}

export const recursosInstalados = (): boolean => instalados !== null;

function recursos(): Instalados {
  if (!instalados) throw new Error('las fuentes del PDF no están instaladas (instalarRecursosPdf)');
  return instalados;
}

/**
 * jsPDF passes every text, and every width it measures, through its Arabic
 * shaper; a DeCA holds no Arabic (the schemas refuse what the font cannot
 * print), so for it the shaper changes nothing but costs ~7% of a render.
 * Taken out once, for the documents this process renders.
 */
const api = jsPDF.API as unknown as { events: [string, unknown][]; processArabic?: unknown };
api.events = api.events.filter(([evento, fn]) => !(evento === 'preProcessText' && fn === api.processArabic));
delete api.processArabic;

/**
 * jsPDF parses a TrueType file on every `addFont` (most of an embedded
 * font's cost). The parsed font only answers questions about itself (glyphs,
 * widths, tables), so it is parsed once per process and each document gets
 * its own view of it, with its own record of the glyphs it used (jsPDF's
 * subsetter is never run: escribirFuentes writes the fonts): the bytes are
 * those of a fresh parse.
 */
interface FuenteTtf {
  toUnicode: Record<number, number>;
}
const ttf = (jsPDF.API as unknown as { TTFFont: { open(file: Uint8Array): FuenteTtf } }).TTFFont;
const abrirTtf = ttf.open;
const analizadas = new Map<Estilo, FuenteTtf>();

function vistaDe(estilo: Estilo): FuenteTtf {
  let f = analizadas.get(estilo);
  if (!f) {
    f = abrirTtf.call(ttf, new Uint8Array(recursos().dejavu[estilo]));
    analizadas.set(estilo, f);
  }
  // Own copies of the parsed tables (jsPDF checks them with hasOwnProperty), and fresh per-document state.
  const vista = Object.assign(Object.create(Object.getPrototypeOf(f) as object) as FuenteTtf, f);
  vista.toUnicode = {};
  return vista;
}

/**
 * jsPDF deflates every stream (pages, fonts, the ToUnicode maps) with its
 * own copy of fflate and then rebuilds the result one character at a time;
 * that was a fifth of a render. Streams are deflated here by fflate at
 * level 6, straight from and to bytes, for the documents this process
 * renders: the same code on the server and in the app, so both write the
 * same bytes (a native zlib would not promise that). Other filter chains,
 * which a DeCA never uses, go to jsPDF's own code.
 */
const filtrosJspdf = jsPDF.API as unknown as { processDataByFilters(data: string, filtros: string | string[]): { data: string; reverseChain: string } };
const filtrarOriginal = filtrosJspdf.processDataByFilters;
filtrosJspdf.processDataByFilters = (data, filtros) => {
  const cadena = typeof filtros === 'string' ? [filtros] : (filtros ?? []);
  if (cadena.length !== 1 || cadena[0]!.replace(/^\//, '') !== 'FlateEncode') return filtrarOriginal(data, filtros);
  return { data: bytesLatin1(zlibSync(latin1Bytes(data ?? ''), { level: 6 })), reverseChain: '/FlateDecode' };
};

/** What jsPDF keeps of a font we registered (its own type definitions leave these out). */
interface FuenteJspdf {
  id: string;
  fontName: string;
  encoding: string;
  objectNumber: number;
  isAlreadyPutted?: boolean;
  metadata: FuenteTtf & {
    Unicode: { widths: (number | number[])[] };
    bbox: number[];
    flags: number;
    stemV: number;
    italicAngle: number;
    ascender: number;
    decender: number;
    capHeight: number;
  };
}

/** glyph id → Unicode, as the text's ToUnicode CMap (so every datum extracts as text). */
function cmapUnicode(mapa: Record<number, number>): string {
  const filas = Object.keys(mapa)
    .map(Number)
    .sort((a, b) => a - b)
    .map((g) => `<${g.toString(16).padStart(4, '0')}><${mapa[g]!.toString(16).padStart(4, '0')}>`);
  let bloques = '';
  for (let i = 0; i < filas.length; i += 100) {
    const b = filas.slice(i, i + 100);
    bloques += `\n${b.length} beginbfchar\n${b.join('\n')}\nendbfchar`;
  }
  return `/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n/CIDSystemInfo <<\n  /Registry (Adobe)\n  /Ordering (UCS)\n  /Supplement 0\n>> def\n/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n1 begincodespacerange\n<0000><ffff>\nendcodespacerange${bloques}\nendcmap\nCMapName currentdict /CMap defineresource pop\nend\nend`;
}

const pdfNum = (n: number) => String(Math.round(n * 1000) / 1000);
const pdfArray = (a: unknown[]): string => `[${a.map((x) => (Array.isArray(x) ? pdfArray(x) : typeof x === 'number' ? pdfNum(x) : String(x))).join(' ')}]`;

/**
 * Write our two fonts (Type0 / CIDFontType2, Identity-H), each program cut
 * to the document's glyphs. jsPDF's own writer is kept off them by
 * marking their encoding while the pages are out and the resources go in.
 */
function escribirFuentes(doc: jsPDF, nuestras: Map<FuenteJspdf, Estilo>): void {
  const w = escritor(doc);
  const MARCA = 'Identity-H(DeCA)';
  suscribir(doc, 'postPutPages', () => {
    for (const f of nuestras.keys()) if (f.encoding === 'Identity-H') f.encoding = MARCA;
  });
  suscribir(
    doc,
    'putFont',
    (args: { font: FuenteJspdf; out: (s: string) => void; newObject: () => number; putStream: (o: { data: string; filters?: string[]; addLength1?: boolean; objectId: number }) => void }) => {
      const f = args.font;
      const estilo = nuestras.get(f);
      if (!estilo || f.encoding !== MARCA) return;
      f.encoding = 'Identity-H';
      const { out, newObject, putStream } = args;
      const m = f.metadata;
      const archivo = newObject();
      const programa = recortarTtf(recursos().programa[estilo], Object.keys(m.toUnicode).map(Number));
      putStream({ data: bytesLatin1(programa), filters: ['FlateEncode'], addLength1: true, objectId: archivo });
      out('endobj');
      const cmap = newObject();
      putStream({ data: cmapUnicode(m.toUnicode), addLength1: true, objectId: cmap });
      out('endobj');
      const nombre = f.fontName.replace(/[^\x21-\x7e]|[()<>[\]{}/%#]/g, '');
      const descriptor = newObject();
      out(
        `<</Type /FontDescriptor /FontName /${nombre} /FontFile2 ${archivo} 0 R /FontBBox ${pdfArray(m.bbox)} /Flags ${m.flags} /StemV ${m.stemV} /ItalicAngle ${m.italicAngle} /Ascent ${m.ascender} /Descent ${m.decender} /CapHeight ${m.capHeight}>>`,
      );
      out('endobj');
      const descendiente = newObject();
      out(
        `<</Type /Font /BaseFont /${nombre} /FontDescriptor ${descriptor} 0 R /W ${pdfArray(m.Unicode.widths)} /CIDToGIDMap /Identity /DW 1000 /Subtype /CIDFontType2 /CIDSystemInfo <</Supplement 0 /Registry (Adobe) /Ordering (Identity-H)>>>>`,
      );
      out('endobj');
      f.objectNumber = newObject();
      out(`<</Type /Font /Subtype /Type0 /ToUnicode ${cmap} 0 R /BaseFont /${nombre} /Encoding /Identity-H /DescendantFonts [${descendiente} 0 R]>>`);
      out('endobj');
      f.isAlreadyPutted = true;
    },
  );
}

/** A valid TrueType header: what jsPDF's virtual file system holds, since the parsed font comes from the cache. */
const CABECERA_TTF = 'AAEAAA==';

/** Register the embedded fonts on `doc` (regular and bold). */
export function incrustarFuentes(doc: jsPDF): void {
  const nuestras = new Map<FuenteJspdf, Estilo>();
  for (const estilo of ['normal', 'bold'] as const) {
    const archivo = `${FAMILIA}-${estilo}.ttf`;
    doc.addFileToVFS(archivo, CABECERA_TTF);
    ttf.open = () => vistaDe(estilo);
    try {
      doc.addFont(archivo, FAMILIA, estilo, undefined, 'Identity-H');
    } finally {
      ttf.open = abrirTtf;
    }
    nuestras.set((doc.internal as unknown as { getFont(nombre: string, estilo: string): FuenteJspdf }).getFont(FAMILIA, estilo), estilo);
  }
  escribirFuentes(doc, nuestras);
}

type Evento = 'postPutPages' | 'putPage' | 'putFont' | 'postPutResources' | 'putCatalog';
/** jsPDF's object writer, as its own plugins (XMP metadata, forms) use it; its type definitions leave it out. */
interface Escritor {
  newObject(): number;
  write(...partes: string[]): void;
  events: { subscribe<A = void>(evento: Evento, fn: (args: A) => void): void };
}
const escritor = (doc: jsPDF): Escritor => doc.internal as unknown as Escritor;

/**
 * jsPDF runs event handlers inside a try/catch that only logs: a handler of
 * ours that failed would leave a broken file. Their errors are kept here and
 * thrown by `comprobarEscritura` once the document is out.
 */
const fallos = new WeakMap<jsPDF, unknown>();
function suscribir<A = void>(doc: jsPDF, evento: Evento, fn: (args: A) => void): void {
  escritor(doc).events.subscribe<A>(evento, (args) => {
    try {
      fn(args);
    } catch (error) {
      if (!fallos.has(doc)) fallos.set(doc, error);
    }
  });
}

/** Throws what a PDF/A handler of ours failed with while `doc` was written. */
export function comprobarEscritura(doc: jsPDF): void {
  if (fallos.has(doc)) throw fallos.get(doc);
}

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** `D:20250701100000+00'00'` → `2025-07-01T10:00:00+00:00` (XMP dates are ISO 8601). */
function fechaXmp(pdfDate: string): string {
  const m = /^D:(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})([+-])(\d{2})'(\d{2})'$/.exec(pdfDate);
  if (!m) throw new Error(`fecha PDF no reconocida: ${pdfDate}`);
  const [, a, mes, d, h, min, s, signo, oh, om] = m;
  return `${a}-${mes}-${d}T${h}:${min}:${s}${signo}${oh}:${om}`;
}

export interface MetadatosPdfA {
  titulo: string;
  asunto: string;
  creador: string;
  /** The same string given to `setCreationDate`. */
  creacion: string;
  idioma: 'es-ES';
}

/**
 * Declare `doc` PDF/A-2b: XMP metadata (PDF/A identification, and title,
 * subject, creator tool, producer and creation date equal to the Info
 * dictionary's, as the standard requires) and the sRGB output intent.
 * Call after `setDocumentProperties` and `setCreationDate` with the same values.
 */
export function declararPdfA(doc: jsPDF, m: MetadatosPdfA): void {
  const fecha = fechaXmp(m.creacion);
  const productor = `jsPDF ${jsPDF.version}`;
  const xmp = `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:pdf="http://ns.adobe.com/pdf/1.3/">
<pdfaid:part>2</pdfaid:part>
<pdfaid:conformance>B</pdfaid:conformance>
<dc:format>application/pdf</dc:format>
<dc:title><rdf:Alt><rdf:li xml:lang="x-default">${xml(m.titulo)}</rdf:li></rdf:Alt></dc:title>
<dc:description><rdf:Alt><rdf:li xml:lang="x-default">${xml(m.asunto)}</rdf:li></rdf:Alt></dc:description>
<dc:language><rdf:Bag><rdf:li>${xml(m.idioma)}</rdf:li></rdf:Bag></dc:language>
<xmp:CreatorTool>${xml(m.creador)}</xmp:CreatorTool>
<xmp:CreateDate>${fecha}</xmp:CreateDate>
<xmp:ModifyDate>${fecha}</xmp:ModifyDate>
<xmp:MetadataDate>${fecha}</xmp:MetadataDate>
<pdf:Producer>${xml(productor)}</pdf:Producer>
</rdf:Description>
</rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>`;
  doc.addMetadata(xmp, true);

  // The output intent: its ICC profile as a stream, and the intent dictionary pointing at it.
  const w = escritor(doc);
  let intento = 0;
  suscribir(doc, 'postPutResources', () => {
    const perfil = w.newObject();
    const srgb = recursos().srgb;
    w.write(`<< /N 3 /Length ${srgb.length} /Filter /FlateDecode >>`);
    w.write('stream');
    w.write(srgb);
    w.write('endstream');
    w.write('endobj');
    intento = w.newObject();
    w.write(`<< /Type /OutputIntent /S /GTS_PDFA1 /OutputConditionIdentifier (sRGB IEC61966-2.1) /Info (sRGB IEC61966-2.1) /RegistryName (http://www.color.org) /DestOutputProfile ${perfil} 0 R >>`);
    w.write('endobj');
  });
  suscribir(doc, 'putCatalog', () => {
    if (intento) w.write(`/OutputIntents [${intento} 0 R]`);
  });
}

/**
 * The empty seal every DeCA carries: an invisible signature field on the
 * first page (print flag set, zero rectangle, as PDF/A-2 allows) whose
 * signature dictionary is PAdES's (`ETSI.CAdES.detached`), signed at
 * `momento` (the version's issue time, a PDF date), with a byte range and
 * contents for sello.ts to fill. Written inside the document rather than as
 * an incremental update, the sealed file stays one revision with its ID.
 */
export function reservarSello(doc: jsPDF, momento: string, capacidad: number, motivo = 'Documento de control emitido por el servicio DeCA'): void {
  const w = escritor(doc);
  const privado = (doc as unknown as { __private__: { newAdditionalObject(): { objId: number; content: string } } }).__private__;
  let campo = 0;
  suscribir(doc, 'putPage', (args: { objId: number; pageNumber: number }) => {
    if (args.pageNumber !== 1) return;
    const firma = privado.newAdditionalObject();
    const widget = privado.newAdditionalObject();
    firma.content =
      `<</Type /Sig /Filter /Adobe.PPKLite /SubFilter /ETSI.CAdES.detached /ByteRange [0 /********** /********** /**********] ` +
      `/Contents <${'0'.repeat(capacidad * 2)}> /M (${momento}) /Reason (${motivo})>>`;
    widget.content = `<</Type /Annot /Subtype /Widget /FT /Sig /T (Sello) /F 132 /Rect [0 0 0 0] /V ${firma.objId} 0 R /P ${args.objId} 0 R>>`;
    w.write(`/Annots [${widget.objId} 0 R]`);
    campo = widget.objId;
  });
  suscribir(doc, 'putCatalog', () => {
    if (campo) w.write(`/AcroForm <</Fields [${campo} 0 R] /SigFlags 3>>`);
  });
}
