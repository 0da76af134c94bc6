import { PDFDocument } from 'pdf-lib';

/** A PDF made to print several DeCAs in one job, and what it says of itself. */
export interface CopiaParaImprimir {
  pdf: Uint8Array;
  /** The file's title (the print job's and the viewer tab's name): a copy to print, not a DeCA. */
  titulo: string;
  paginas: number;
}

/**
 * One PDF for the printer with every page of the given DeCAs' PDFs, in order.
 * A new file, made here for printing only: each DeCA's own PDF (sealed, its
 * SHA-256 on the server) is read, never changed, and this copy carries no seal
 * — its title says so. Loaded only when a selection is printed (pdf-lib is
 * not part of the list's first screen).
 */
export async function unirParaImprimir(decas: { numero: string; pdf: ArrayBuffer }[]): Promise<CopiaParaImprimir> {
  const copia = await PDFDocument.create();
  for (const { pdf } of decas) {
    const doc = await PDFDocument.load(pdf, { updateMetadata: false });
    for (const pagina of await copia.copyPages(doc, doc.getPageIndices())) copia.addPage(pagina);
  }
  const numeros = decas.map((d) => d.numero);
  const titulo = `Copia para imprimir de ${numeros.length} DeCA (${numeros.join(', ')}), sin sello: cada DeCA conserva su PDF sellado`;
  copia.setTitle(titulo, { showInWindowTitleBar: true });
  copia.setSubject('Copia para imprimir; no es el documento sellado de ninguna DeCA');
  copia.setCreator('DeCA');
  copia.setProducer('DeCA');
  return { pdf: await copia.save(), titulo, paginas: copia.getPageCount() };
}
