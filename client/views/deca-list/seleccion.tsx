import { useState } from 'preact/hooks';
import { type Contexto, contexto, permitido } from '../../app/sesion';
import { useStore } from '../../app/store';
import { cuantos } from '../../components/cuantos';
import { useConfirmacion } from '../../components/dialogo';
import { imprimirPdf } from '../../components/imprimir';
import { nombreDeca } from '../../components/insignias';
import { ApiError } from '../../data/api';
import { obtenerDocumentos } from '../../data/consultas';
import { copiaGuardada } from '../../data/copia-camino';
import type { DecaLocal } from '../../data/db';
import { archivarDeca, finalizarServicio } from '../../data/outbox';

interface Props {
  elegidas: DecaLocal[];
  /** The list shows archived DeCAs: the archive button unarchives. */
  archivadas: boolean;
  progreso: (texto: string) => void;
  quitar: () => void;
}

/** The PDF of an issued DeCA: the copy on this device (the server's, or the one issued here with no coverage), else the server's. */
async function pdfDe(ctx: Contexto, r: DecaLocal): Promise<ArrayBuffer | null> {
  const copia = await copiaGuardada(ctx.db, r);
  if (copia) return copia.pdf;
  if (!r.deca || r.deca.estado === 'pendiente') return null;
  return (await obtenerDocumentos(ctx.api, ctx.db, r.deca)).pdf;
}

const sinPdf = (n: number) => (n ? ` ${n} sin PDF (${n === 1 ? 'no emitida' : 'no emitidas'}).` : '');
const fallidas = (f: string[], que: string) => (f.length ? ` No se ${que}: ${f.join('; ')}.` : '');

/**
 * What the desk does with the DeCAs it selected, each through the same path as
 * on one DeCA: archive and end of service go through the device's outbox (and
 * so also with no coverage), the PDFs are the stored ones, sending is the
 * same «enviar» of the server. Printing several gives one PDF for the printer.
 */
export default function BarraSeleccion({ elegidas, archivadas, progreso, quitar }: Props) {
  const ctx = useStore(contexto)!;
  const { confirmar, dialogo } = useConfirmacion();
  const [pidiendoCorreo, setPidiendoCorreo] = useState(false);
  const [email, setEmail] = useState('');
  const [enlaces, setEnlaces] = useState<string | null>(null);

  async function archivar() {
    const archivables = elegidas.filter((r) => r.id !== undefined);
    for (const r of archivables) await archivarDeca(ctx.db, r.clave, !archivadas);
    progreso(`${archivadas ? cuantos(archivables.length, 'DeCA desarchivada', 'DeCA desarchivadas') : cuantos(archivables.length, 'DeCA archivada', 'DeCA archivadas')}.`);
    quitar();
  }

  async function descargar() {
    let hechas = 0;
    let sin = 0;
    const fallos: string[] = [];
    for (const r of elegidas) {
      progreso(`Descargando PDF ${hechas + 1} de ${elegidas.length}…`);
      try {
        const pdf = await pdfDe(ctx, r);
        if (!pdf) {
          sin++;
          continue;
        }
        const url = URL.createObjectURL(new Blob([pdf], { type: 'application/pdf' }));
        const a = document.createElement('a');
        a.href = url;
        a.download = `DeCA-${nombreDeca(r)}${r.deca ? `-v${r.deca.version}` : ''}.pdf`;
        a.click();
        setTimeout(() => URL.revokeObjectURL(url), 10_000);
        hechas++;
      } catch (err) {
        fallos.push(`${nombreDeca(r)}: ${(err as Error).message}`);
      }
    }
    progreso(`${cuantos(hechas, 'PDF descargado', 'PDF descargados')}.${sinPdf(sin)}${fallidas(fallos, 'pudieron descargar')}`);
  }

  /**
   * One print job: a single DeCA's own PDF, or for several a new PDF with all their pages in order (pdf-lib,
   * loaded only now). That file is made for the printer only: each DeCA's sealed PDF stays as it is.
   */
  async function imprimir() {
    const pdfs: { numero: string; pdf: ArrayBuffer }[] = [];
    let sin = 0;
    const fallos: string[] = [];
    for (const r of elegidas) {
      progreso(`Preparando para imprimir ${pdfs.length + 1} de ${elegidas.length}…`);
      try {
        const pdf = await pdfDe(ctx, r);
        if (pdf) pdfs.push({ numero: nombreDeca(r), pdf });
        else sin++;
      } catch (err) {
        fallos.push(`${nombreDeca(r)}: ${(err as Error).message}`);
      }
    }
    const resto = `${sinPdf(sin)}${fallidas(fallos, 'pudieron obtener')}`;
    const [una] = pdfs;
    if (!una) return progreso(`Nada que imprimir.${resto}`);
    if (pdfs.length === 1) {
      await imprimirPdf(una.pdf, `DeCA ${una.numero}`);
      return progreso(`Imprimiendo la DeCA ${una.numero}.${resto}`);
    }
    try {
      const { unirParaImprimir } = await import('../../data/unir-pdf');
      const unida = await unirParaImprimir(pdfs);
      const como = await imprimirPdf(unida.pdf, unida.titulo);
      progreso(
        `${como === 'impreso' ? 'Imprimiendo' : 'Abierta para imprimir'} una copia unida de ${pdfs.length} DeCA (${cuantos(unida.paginas, 'página', 'páginas')}); cada DeCA conserva su PDF sellado.${resto}`,
      );
    } catch (err) {
      progreso(`No se pudo preparar la impresión: ${(err as Error).message}.${resto}`);
    }
  }

  async function finDeServicio() {
    const conFin = new Set((await ctx.db.outbox.filter((e) => e.tipo === 'fin').toArray()).map((e) => e.clave));
    const aptas = elegidas.filter((r) => r.estado === 'emitido' && !r.deca?.fin_servicio_at && !conFin.has(r.clave));
    const otras = elegidas.length - aptas.length;
    const noAptas = otras ? ` ${cuantos(otras, 'no está emitida o ya tenía', 'no están emitidas o ya tenían')} fin de servicio.` : '';
    if (!aptas.length) return progreso(`Ninguna de las seleccionadas está emitida y en servicio.${noAptas}`);
    const ok = await confirmar({
      titulo: `¿Marcar el fin del servicio de ${cuantos(aptas.length, 'DeCA', 'DeCA')}?`,
      cuerpo: (
        <p>
          {aptas.map(nombreDeca).join(', ')}: indica que esos transportes han terminado. Las DeCA siguen consultables, pero dejan de amparar un transporte en curso. No se puede deshacer.
          {noAptas}
        </p>
      ),
      aceptar: 'Marcar fin de servicio',
    });
    if (!ok) return;
    for (const r of aptas) await finalizarServicio(ctx.db, r.clave);
    progreso(`Fin de servicio marcado en ${cuantos(aptas.length, 'DeCA', 'DeCA')}.${noAptas}`);
    quitar();
  }

  async function enviar(ev: Event) {
    ev.preventDefault();
    const destino = email.trim();
    if (!destino) return;
    const aptas = elegidas.filter((r) => r.deca && r.deca.estado === 'emitido');
    const otras = elegidas.length - aptas.length;
    const fallos: string[] = [];
    const hechos: string[] = [];
    for (const r of aptas) {
      progreso(`Enviando ${hechos.length + 1} de ${aptas.length}…`);
      try {
        const res = await ctx.api.llamar('enviar_deca', { id: r.deca!.id, email: destino });
        hechos.push(`${res.data.texto}: ${res.data.conductor}`);
      } catch (err) {
        fallos.push(`${nombreDeca(r)}: ${err instanceof ApiError ? (Object.values(err.campos)[0] ?? err.message) : 'sin conexión con el servidor'}`);
      }
    }
    setEnlaces(hechos.length ? hechos.join('\n') : null);
    setPidiendoCorreo(false);
    progreso(
      `${cuantos(hechos.length, 'DeCA enviada', 'DeCA enviadas')} a ${destino}, cada una con su PDF.${otras ? ` ${cuantos(otras, 'no está emitida', 'no están emitidas')}: no se envía.` : ''}${fallidas(fallos, 'pudieron enviar')}`,
    );
  }

  async function compartir(texto: string) {
    if (navigator.share) await navigator.share({ title: 'DeCA para el conductor', text: texto }).catch(() => {});
    else await navigator.clipboard?.writeText(texto);
  }

  return (
    <section class="barra-seleccion" aria-label="Acciones con las seleccionadas">
      {dialogo}
      <strong>{cuantos(elegidas.length, 'seleccionada', 'seleccionadas')}</strong>
      {permitido('gestion') && (
        <button type="button" onClick={() => void archivar()}>
          {archivadas ? 'Desarchivar' : 'Archivar'}
        </button>
      )}
      <button type="button" onClick={() => void descargar()}>
        Descargar PDF
      </button>
      <button type="button" onClick={() => void imprimir()}>
        Imprimir
      </button>
      <button type="button" onClick={() => void finDeServicio()}>
        Fin de servicio
      </button>
      <button type="button" aria-expanded={pidiendoCorreo} onClick={() => setPidiendoCorreo((v) => !v)}>
        Enviar al conductor
      </button>
      <button type="button" onClick={quitar}>
        Quitar selección
      </button>
      {pidiendoCorreo && (
        <form class="fila-form" onSubmit={(e) => void enviar(e)}>
          <input
            type="email"
            required
            value={email}
            onInput={(e) => setEmail(e.currentTarget.value)}
            aria-label="Correo del conductor"
            placeholder="Correo del conductor"
            // biome-ignore lint/a11y/noAutofocus: the address is what the button that opened this asks for next
            autoFocus
          />
          <button type="submit" class="primario">
            Enviar {cuantos(elegidas.length, 'DeCA', 'DeCA')}
          </button>
        </form>
      )}
      {enlaces && (
        <button type="button" onClick={() => void compartir(enlaces)}>
          Compartir los enlaces
        </button>
      )}
    </section>
  );
}
