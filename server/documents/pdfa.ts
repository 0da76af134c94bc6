/**
 * What turns a jsPDF document into PDF/A-2b (ISO 19005-2, level B): every
 * font embedded, an sRGB output intent, and XMP metadata that identifies the
 * file as PDF/A and repeats the document information dictionary. Everything
 * here is fixed bytes or derived from the document's own data, so the output
 * stays reproducible.
 */
import { readFileSync } from 'node:fs';
import { jsPDF } from 'jspdf';

const leer = (archivo: string) => readFileSync(new URL(`./fuentes/${archivo}`, import.meta.url));

/** DejaVu Sans cut to what a DeCA can hold (scripts/subset-font.sh); jsPDF embeds only the glyphs a document uses. */
const DEJAVU = { normal: leer('DejaVuSans-DeCA.ttf'), bold: leer('DejaVuSans-Bold-DeCA.ttf') } as const;
export const FAMILIA = 'DejaVuSans';
type Estilo = keyof typeof DEJAVU;

/** The sRGB IEC 61966-2.1 profile (icc-profiles-free, zlib licence), as the binary string jsPDF writes. */
const SRGB = leer('sRGB.icc').toString('latin1');

/**
 * jsPDF parses a TrueType file on every `addFont` (most of an embedded
 * font's cost). The parsed font only answers questions about itself (glyphs,
 * widths, tables), so it is parsed once per process and each document gets
 * its own view of it, with its own record of the glyphs it used and its own
 * subsetter: the bytes are those of a fresh parse.
 */
interface FuenteTtf {
  subset: { constructor: new (font: FuenteTtf) => unknown };
  toUnicode: Record<number, number>;
}
const ttf = (jsPDF.API as unknown as { TTFFont: { open(file: Uint8Array): FuenteTtf } }).TTFFont;
const abrirTtf = ttf.open;
const analizadas = new Map<Estilo, FuenteTtf>();

function vistaDe(estilo: Estilo): FuenteTtf {
  let f = analizadas.get(estilo);
  if (!f) {
    f = abrirTtf.call(ttf, new Uint8Array(DEJAVU[estilo]));
    analizadas.set(estilo, f);
  }
  // Own copies of the parsed tables (jsPDF checks them with hasOwnProperty), and fresh per-document state.
  const vista = Object.assign(Object.create(Object.getPrototypeOf(f) as object) as FuenteTtf, f);
  vista.toUnicode = {};
  vista.subset = new f.subset.constructor(vista) as FuenteTtf['subset'];
  return vista;
}

/** A valid TrueType header: what jsPDF's virtual file system holds, since the parsed font comes from the cache. */
const CABECERA_TTF = Buffer.from([0, 1, 0, 0]).toString('base64');

/** Register the embedded fonts on `doc` (regular and bold). */
export function incrustarFuentes(doc: jsPDF): void {
  for (const estilo of ['normal', 'bold'] as const) {
    const archivo = `${FAMILIA}-${estilo}.ttf`;
    doc.addFileToVFS(archivo, CABECERA_TTF);
    ttf.open = () => vistaDe(estilo);
    try {
      doc.addFont(archivo, FAMILIA, estilo, undefined, 'Identity-H');
    } finally {
      ttf.open = abrirTtf;
    }
  }
}

/** jsPDF's object writer, as its own plugins (XMP metadata, forms) use it; its type definitions leave it out. */
interface Escritor {
  newObject(): number;
  write(...partes: string[]): void;
  events: { subscribe(evento: 'postPutResources' | 'putCatalog', fn: () => void): void };
}
const escritor = (doc: jsPDF): Escritor => doc.internal as unknown as Escritor;

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
  w.events.subscribe('postPutResources', () => {
    const perfil = w.newObject();
    w.write(`<< /N 3 /Length ${SRGB.length} >>`);
    w.write('stream');
    w.write(SRGB);
    w.write('endstream');
    w.write('endobj');
    intento = w.newObject();
    w.write(
      `<< /Type /OutputIntent /S /GTS_PDFA1 /OutputConditionIdentifier (sRGB IEC61966-2.1) /Info (sRGB IEC61966-2.1) /RegistryName (http://www.color.org) /DestOutputProfile ${perfil} 0 R >>`,
    );
    w.write('endobj');
  });
  w.events.subscribe('putCatalog', () => {
    if (intento) w.write(`/OutputIntents [${intento} 0 R]`);
  });
}
