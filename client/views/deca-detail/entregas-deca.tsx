import { useEffect, useState } from 'preact/hooks';
import { fechaEs, fechaHoraEs } from '../../../shared/rules/fechas';
import type { TrazoFirma } from '../../../shared/rules/trazo-firma';
import type { Entrega } from '../../../shared/schemas/entrega';
import { useEnLinea, useLiveQuery } from '../../app/hooks';
import { contexto } from '../../app/sesion';
import { useStore } from '../../app/store';
import { NetworkError } from '../../data/api';
import type { DecaLocal, EntregaLocal } from '../../data/db';
import { FirmaDibujada } from '../entrega/panel-firma';

/**
 * The deliveries of a DeCA: those collected on this device (pending or sent,
 * oldest first, the order its lane sends them in), then, with coverage, those
 * the server has from elsewhere (another phone, the API), so the page and its
 * «Entregar» buttons agree with the server.
 */
export function useEntregas(rec: DecaLocal | null | undefined): EntregaLocal[] | undefined {
  const ctx = useStore(contexto)!;
  const enLinea = useEnLinea();
  const locales = useLiveQuery(async () => (rec ? ctx.db.entregas.where('deca').equals(rec.clave).sortBy('creado') : []), [ctx.db, rec?.clave, rec?.pendientes]);
  const [delServidor, setDelServidor] = useState<Entrega[]>([]);
  const id = rec?.id;
  useEffect(() => {
    if (!enLinea || id === undefined) return;
    let vivo = true;
    ctx.api.llamar('ver_entregas', { id }).then(
      (r) => vivo && setDelServidor(r.data.data),
      () => {},
    );
    return () => {
      vivo = false;
    };
  }, [ctx.api, id, enLinea, rec?.pendientes]);
  if (!locales || !rec) return locales;
  const vistas = new Set(locales.map((e) => e.servidor?.n));
  const otras = delServidor
    .filter((e) => !vistas.has(e.n))
    .map((e): EntregaLocal => ({ clave: `n:${e.n}`, deca: rec.clave, datos: { ...e }, fotos: [], estado: 'enviada', servidor: { ...e }, creado: 0 }));
  return [...locales, ...otras];
}

/** When it was collected: the phone's ISO time kept here, or the server's Madrid wall time. */
function cuandoSeRecogio(e: EntregaLocal): string {
  const t = e.datos.registrada_at;
  if (typeof t !== 'string') return '';
  // The server gives Madrid wall time (`2026-11-28 10:15:00`); the phone kept its own ISO instant.
  return /^\d{4}-\d{2}-\d{2} \d/.test(t) ? fechaEs(t) : fechaHoraEs(new Date(t));
}

const texto = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v : null);

/**
 * The sealed receipt of a delivery the server has, fetched with the session
 * when asked for (it carries the photos: not kept on the phone) and saved as
 * a file the phone opens.
 */
function Justificante({ id, numero, n }: { id: number; numero: string; n: number }) {
  const ctx = useStore(contexto)!;
  const [estado, setEstado] = useState<string | null>(null);
  async function descargar() {
    setEstado('Descargando el justificante…');
    try {
      const bytes = await ctx.api.bytes('pdf_entrega', { id: String(id), n: String(n) });
      const url = URL.createObjectURL(new Blob([bytes], { type: 'application/pdf' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = `DeCA-${numero}-entrega-${n}.pdf`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      setEstado(null);
    } catch (err) {
      setEstado(err instanceof NetworkError ? 'Sin cobertura: el justificante está en el servidor y se descarga cuando la haya.' : (err as Error).message);
    }
  }
  return (
    <div class="acciones">
      <button type="button" onClick={() => void descargar()} data-testid="justificante">
        Justificante (PDF)
      </button>
      {estado && (
        <p class="pista" role="status">
          {estado}
        </p>
      )}
    </div>
  );
}

function UnaEntrega({ e, envios, rec }: { e: EntregaLocal; envios: number; rec: DecaLocal }) {
  const d = e.datos;
  const entregada = d.resultado === 'entregada';
  const firma = d.firma as { proporcion: number; trazos: TrazoFirma[] } | undefined;
  const nombre = texto(d.receptor_nombre);
  const fotos = e.estado === 'enviada' ? Number(e.servidor?.fotos ?? 0) : e.fotos.length;
  const cuando = cuandoSeRecogio(e);
  return (
    <li class="tarjeta entrega-hecha" data-testid="entrega">
      <div>
        <p>
          <strong>{entregada ? 'Entregada' : 'Rechazada'}</strong>
          {typeof d.envio === 'number' && envios > 1 ? ` · envío ${d.envio + 1}` : ''} · {cuando}{' '}
          <span class={`insignia ${e.estado === 'enviada' ? 'emitido' : 'sync'}`} data-testid="estado-entrega">
            {e.estado === 'enviada' ? 'Enviada' : 'Pendiente de enviar'}
          </span>
        </p>
        {nombre && (
          <p>
            {entregada ? 'Recibe' : 'Quien la rechaza'}: {nombre}
            {texto(d.receptor_documento) ? ` · ${String(d.receptor_documento)}` : ''}
          </p>
        )}
        {entregada && <p>{d.sin_reservas ? 'Sin reservas' : `Reservas: ${texto(d.reservas) ?? '—'}`}</p>}
        {!entregada && <p>Motivo: {texto(d.motivo_rechazo) ?? '—'}</p>}
        {fotos > 0 && <p class="pista">{fotos === 1 ? '1 foto' : `${fotos} fotos`}</p>}
        {d.posicion ? <p class="pista">Con la posición del teléfono</p> : null}
        {firma && <FirmaDibujada trazos={firma.trazos} proporcion={firma.proporcion} titulo={`Firma de ${nombre ?? 'quien recibe'}`} />}
        {e.estado === 'pendiente' && <p class="pista">Guardada en este teléfono: se enviará sola cuando haya cobertura.</p>}
        {typeof e.servidor?.n === 'number' && rec.id !== undefined && rec.deca && <Justificante id={rec.id} numero={rec.deca.numero} n={e.servidor.n} />}
      </div>
    </li>
  );
}

/** «Entrega»: what was collected at the end of the transport on this device, pending or sent. */
export function EntregasDeDeca({ rec, entregas }: { rec: DecaLocal; entregas: EntregaLocal[] | undefined }) {
  if (!entregas || entregas.length === 0) return null;
  const envios = Array.isArray(rec.datos.envios) ? rec.datos.envios.length : 0;
  return (
    <div data-testid="entregas">
      <h2>Entrega</h2>
      <ul class="tarjetas">
        {entregas.map((e) => (
          <UnaEntrega key={e.clave} e={e} envios={envios} rec={rec} />
        ))}
      </ul>
    </div>
  );
}
