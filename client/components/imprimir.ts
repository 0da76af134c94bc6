/**
 * Printing a DeCA prints its document, never the web page around it: the
 * PDF's bytes go into a hidden frame (a blob: URL, the only frames the app's
 * CSP allows) and that frame's print() is the browser's PDF viewer printing
 * the document's own pages. Where a browser cannot (no viewer in a frame,
 * or print refused), the PDF opens in a new tab to print from there.
 */

let anterior: { marco: HTMLIFrameElement; url: string } | null = null;

/** Let go the frame and URL of the last print (the print dialog of a PDF frame does not block, so they stay until the next one). */
function soltarAnterior(): void {
  if (!anterior) return;
  anterior.marco.remove();
  URL.revokeObjectURL(anterior.url);
  anterior = null;
}

/** Print a PDF (`titulo` names the frame for assistive technology and the print job where the viewer takes it). */
export async function imprimirPdf(pdf: ArrayBuffer | Uint8Array, titulo: string): Promise<'impreso' | 'abierto'> {
  soltarAnterior();
  const url = URL.createObjectURL(new Blob([pdf as BlobPart], { type: 'application/pdf' }));
  const marco = document.createElement('iframe');
  marco.className = 'imprimir-pdf';
  marco.title = titulo;
  marco.tabIndex = -1;
  marco.setAttribute('aria-hidden', 'true');
  anterior = { marco, url };
  const cargado = new Promise<void>((listo) => {
    marco.addEventListener('load', () => listo(), { once: true });
    // A frame the browser refuses to load never fires «load»: try anyway after a while, and fall back below.
    setTimeout(listo, 10_000);
  });
  marco.src = url;
  document.body.append(marco);
  await cargado;
  try {
    const w = marco.contentWindow;
    if (!w || marco.contentDocument?.contentType !== 'application/pdf') throw new Error('sin visor de PDF en el marco');
    w.focus();
    w.print();
    return 'impreso';
  } catch {
    open(url, '_blank', 'noopener');
    return 'abierto';
  }
}
