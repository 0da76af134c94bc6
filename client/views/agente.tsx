import { useEffect, useRef, useState } from 'preact/hooks';
import { fechaEs } from '../../shared/rules/fechas';
import { normalizarMatricula } from '../../shared/rules/matricula';
import { useLiveQuery } from '../app/hooks';
import { contexto } from '../app/sesion';
import { useStore } from '../app/store';
import { useDocumentos } from '../components/documentos';
import { nombreDeca, rutaDeca } from '../components/insignias';
import { NetworkError } from '../data/api';
import { buscarLocal } from '../data/consultas';
import { tieneCopia } from '../data/copia-camino';

/**
 * Keep the screen on while the QR is shown (Screen Wake Lock where the
 * browser has it); the lock is lost when the page is hidden, so it is asked
 * again when the page comes back. True while held.
 */
function usePantallaEncendida(): boolean {
  const [activa, setActiva] = useState(false);
  useEffect(() => {
    if (!('wakeLock' in navigator)) return;
    let lock: WakeLockSentinel | null = null;
    let vivo = true;
    const pedir = async () => {
      if (document.visibilityState !== 'visible' || lock) return;
      try {
        lock = await navigator.wakeLock.request('screen');
        if (!vivo) {
          void lock.release();
          return;
        }
        setActiva(true);
        lock.addEventListener('release', () => {
          lock = null;
          if (vivo) setActiva(false);
        });
      } catch {
        setActiva(false); // battery saver or no permission: the QR is still shown
      }
    };
    void pedir();
    document.addEventListener('visibilitychange', pedir);
    return () => {
      vivo = false;
      document.removeEventListener('visibilitychange', pedir);
      void lock?.release();
    };
  }, []);
  return activa;
}

/**
 * «Mostrar al agente»: the QR as large as the screen allows, with the number,
 * plate, date and status in large type, over everything (the bottom menu is
 * not drawn on this screen). Works with no coverage from the copy kept on the
 * device: the server's, or the one this device issued with no coverage until
 * the server's is stored (synced or not). A DeCA of the test environment says
 * first, in red, that it has no validity (its number looks like a real one),
 * and its status is never the green «EMITIDA».
 */
export default function Agente({ params }: { params: string[] }) {
  const ctx = useStore(contexto)!;
  const ref = params[0]!;
  const rec = useLiveQuery(async () => (await buscarLocal(ctx.db, ref)) ?? null, [ctx.db, ref]);
  const encendida = usePantallaEncendida();
  const titulo = useRef<HTMLHeadingElement>(null);
  const { urls, copia, error } = useDocumentos(rec ?? null);
  const qr = urls?.qr ?? null;

  useEffect(() => titulo.current?.focus(), [rec === undefined]);

  if (rec === undefined) return <p aria-busy="true">Cargando…</p>;
  if (!rec || !tieneCopia(rec)) {
    return (
      <section class="agente">
        <h1 ref={titulo} tabIndex={-1}>
          No hay documento que mostrar
        </h1>
        <p class="aviso error" role="alert">
          {rec?.porEmitir ? 'Aún no emitida: se emitirá al recuperar cobertura. Hasta entonces no hay QR.' : 'Esta DeCA no está emitida en este dispositivo.'}
        </p>
        <a class="boton" href={rec ? rutaDeca(rec) : '/'}>
          Volver
        </a>
      </section>
    );
  }

  const d = rec.deca;
  const prueba = ctx.entorno === 'pruebas';
  const estado =
    d?.estado === 'sustituido'
      ? { texto: 'SUSTITUIDA: NO VÁLIDA', clase: 'mal' }
      : d?.fin_servicio_at
        ? { texto: 'SERVICIO FINALIZADO', clase: 'fin' }
        : prueba
          ? { texto: 'EMITIDA EN PRUEBAS', clase: 'mal' }
          : { texto: 'EMITIDA', clase: 'bien' };
  const datos = rec.datos;
  const vehiculo = [datos.matricula, datos.matricula_remolque].flatMap((m) => (typeof m === 'string' && m ? [normalizarMatricula(m)] : [])).join(' + ');
  const numero = rec.numero ?? copia?.numero ?? nombreDeca(rec);
  const version = copia?.version ?? d?.version ?? 1;
  return (
    <section class={`agente${prueba ? ' prueba' : ''}`} aria-labelledby="agente-titulo" data-testid="vista-agente">
      <h1 id="agente-titulo" class="sr" ref={titulo} tabIndex={-1}>
        DeCA {nombreDeca(rec)} para el agente
      </h1>
      {prueba && (
        <p class="agente-prueba" role="alert" data-testid="agente-prueba">
          ENTORNO DE PRUEBAS: este documento no tiene validez
        </p>
      )}
      <p class={`agente-estado ${estado.clase}`} data-testid="agente-estado">
        {estado.texto}
      </p>
      {qr ? (
        <img class="agente-qr" src={qr} alt={`Código QR de la DeCA ${numero}, versión ${version}`} data-testid="agente-qr" data-fuente={copia?.fuente} />
      ) : (
        <p class="aviso" role="status">
          {error ? (error instanceof NetworkError ? 'Sin conexión y sin copia en este dispositivo.' : (error as Error).message) : 'Cargando el QR…'}
        </p>
      )}
      <p class="agente-num" data-testid="agente-numero">
        {numero}
      </p>
      <p class="agente-dato">
        {vehiculo || '—'} · {fechaEs(rec.fecha_transporte)}
      </p>
      <p class="agente-sub">
        Versión {version}
        {copia?.fuente === 'dispositivo' ? ' · emitida sin cobertura, firmada por este teléfono' : ''}
        {encendida ? ' · pantalla encendida' : ''}
      </p>
      <a class="boton agente-cerrar" href={rutaDeca(rec)}>
        Cerrar
      </a>
    </section>
  );
}
