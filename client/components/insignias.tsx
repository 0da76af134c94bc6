import type { DecaLocal } from '../data/db';

/**
 * One word per state, never shared: «Faltan datos» is a DeCA the server holds
 * as pending (data missing), «Sin enviar» is something this device has not
 * sent yet, «Aún no emitida» is a DeCA meant to be issued that is not yet.
 */
const TEXTO: Record<string, string> = { emitido: 'Emitida', pendiente: 'Faltan datos', sustituido: 'Sustituida' };

/** State of a DeCA and of its sync, in words (colour is never the only cue). */
export function Insignias({ r }: { r: DecaLocal }) {
  const fin = r.deca?.fin_servicio_at && r.estado === 'emitido';
  return (
    <span class="insignias">
      {r.porEmitir ? (
        <span class="insignia no-emitida" data-testid="no-emitida">
          Aún no emitida
        </span>
      ) : (
        r.estado !== 'borrador' && <span class={`insignia ${r.estado}`}>{TEXTO[r.estado]}</span>
      )}{' '}
      {fin ? <span class="insignia fin">Fin de servicio</span> : null}{' '}
      {r.rechazo ? (
        <span class="insignia rechazo">Rechazada: revisar</span>
      ) : r.atascada ? (
        <span class="insignia rechazo" data-testid="atascada">
          No se pudo enviar: revisar
        </span>
      ) : r.pendientes > 0 ? (
        <span class="insignia sync" data-testid="pendiente-sync">
          Sin enviar
        </span>
      ) : null}
      {r.archivado ? <span class="insignia"> Archivada</span> : null}
      {r.offline || r.deca?.emision_offline ? (
        <>
          {' '}
          <span class="insignia offline" data-testid="sin-cobertura" title="Emitida en un dispositivo sin cobertura, con un número reservado">
            Sin cobertura
          </span>
        </>
      ) : null}
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

/**
 * Whether «Mostrar al agente» is offered: an issued DeCA, by the server or by
 * this device with no coverage (its copy is here, synced or not).
 */
export function puedeMostrarse(r: DecaLocal): boolean {
  return r.estado === 'emitido' && !r.porEmitir && !r.eliminada;
}

/** The strong notice of a DeCA meant to be issued that the server has not issued yet. */
export function SinEmitir({ n }: { n?: number }) {
  return (
    <div class="aviso error sin-emitir" role="alert" data-testid="sin-emitir">
      <p>
        <strong>
          {n === undefined ? 'Aún no emitida: se emitirá al recuperar cobertura.' : `${n === 1 ? 'Una DeCA aún no emitida' : `${n} DeCA aún no emitidas`}: se emitirán al recuperar cobertura.`}
        </strong>
      </p>
      <p>Hasta entonces {n === undefined ? 'este vehículo no va cubierto' : 'esos vehículos no van cubiertos'}: no hay número ni QR que mostrar al agente.</p>
    </div>
  );
}
