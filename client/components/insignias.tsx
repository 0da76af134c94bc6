import type { DecaLocal } from '../data/db';

const TEXTO: Record<string, string> = { emitido: 'Emitida', pendiente: 'Pendiente', sustituido: 'Sustituida', borrador: 'Sin enviar' };

/** State of a DeCA and of its sync, in words (colour is never the only cue). */
export function Insignias({ r }: { r: DecaLocal }) {
  return (
    <span class="insignias">
      {r.estado !== 'borrador' && <span class={`insignia ${r.estado}`}>{TEXTO[r.estado]}</span>}{' '}
      {r.rechazo ? (
        <span class="insignia rechazo">Rechazada: revisar</span>
      ) : r.atascada ? (
        <span class="insignia rechazo" data-testid="atascada">
          No se pudo enviar: revisar
        </span>
      ) : r.pendientes > 0 ? (
        <span class="insignia sync" data-testid="pendiente-sync">
          Pendiente de enviar
        </span>
      ) : null}
      {r.archivado ? <span class="insignia"> Archivada</span> : null}
    </span>
  );
}

/** The number, or the temporary local reference until the server numbers it. */
export function nombreDeca(r: DecaLocal): string {
  return r.numero ?? r.ref_temporal ?? '—';
}

/** Route of a DeCA: by number when it has one (shareable), else by its local key. */
export function rutaDeca(r: DecaLocal): string {
  return `/decas/${encodeURIComponent(r.numero ?? r.clave)}`;
}
