import { useEffect, useRef, useState } from 'preact/hooks';
import { fechaEs } from '../../shared/rules/fechas';
import { useLiveQuery } from '../app/hooks';
import { contexto } from '../app/sesion';
import { useStore } from '../app/store';
import { useDocumentos } from '../components/documentos';
import { nombreDeca, rutaDeca } from '../components/insignias';
import { NetworkError } from '../data/api';
import { buscarLocal } from '../data/consultas';

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
 * plate, date and status in large type. Works with no coverage from the copy
 * kept on the device. A DeCA of the test environment says first, in red,
 * that it has no validity (its number looks like a real one), and its status
 * is never the green «EMITIDA».
 */
export default function Agente({ params }: { params: string[] }) {
  const ctx = useStore(contexto)!;
  const ref = params[0]!;
  const rec = useLiveQuery(async () => (await buscarLocal(ctx.db, ref)) ?? null, [ctx.db, ref]);
  const encendida = usePantallaEncendida();
  const titulo = useRef<HTMLHeadingElement>(null);
  const d = rec?.deca ?? null;

  const { urls, error } = useDocumentos(d);
  const qr = urls?.qr ?? null;

  useEffect(() => titulo.current?.focus(), [rec === undefined]);

  if (rec === undefined) return <p aria-busy="true">Cargando…</p>;
  if (!rec || !d || d.estado === 'pendiente') {
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

  const prueba = ctx.entorno === 'pruebas';
  const estado =
    d.estado === 'sustituido'
      ? { texto: 'SUSTITUIDA: NO VÁLIDA', clase: 'mal' }
      : d.fin_servicio_at
        ? { texto: 'SERVICIO FINALIZADO', clase: 'fin' }
        : prueba
          ? { texto: 'EMITIDA EN PRUEBAS', clase: 'mal' }
          : { texto: 'EMITIDA', clase: 'bien' };
  const vehiculo = [d.matricula, d.matricula_remolque].filter(Boolean).join(' + ');
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
        <img class="agente-qr" src={qr} alt={`Código QR de la DeCA ${d.numero}, versión ${d.version}`} data-testid="agente-qr" />
      ) : (
        <p class="aviso" role="status">
          {error ? (error instanceof NetworkError ? 'Sin conexión y sin copia en este dispositivo.' : (error as Error).message) : 'Cargando el QR…'}
        </p>
      )}
      <p class="agente-num">{d.numero}</p>
      <p class="agente-dato">
        {vehiculo || '—'} · {fechaEs(d.fecha_transporte)}
      </p>
      <p class="agente-sub">
        Versión {d.version}
        {encendida ? ' · pantalla encendida' : ''}
      </p>
      <a class="boton agente-cerrar" href={rutaDeca(rec)}>
        Cerrar
      </a>
    </section>
  );
}
