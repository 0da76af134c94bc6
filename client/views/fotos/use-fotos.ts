/**
 * The «Leer un albarán» screen's state: the photos on this device, each with
 * where it is on its way (its outbox entry), the month's quota, and taking,
 * retrying and discarding a photo. The view (fotos.tsx) only lays it out.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Cuota } from '../../../shared/schemas/cuenta';
import { useEnLinea, useLiveQuery } from '../../app/hooks';
import { contexto, estadoSync } from '../../app/sesion';
import { useStore } from '../../app/store';
import { carrilFoto, type EntradaOutbox, type FotoLocal } from '../../data/db';
import { descartarFoto, guardarFoto, soltarFotosUsadas } from '../../data/fotos';
import { reintentar } from '../../data/outbox';
import { reducirFoto } from '../../data/reducir-foto';

/** Where a photo is on its way to being read. */
export type EnvioFoto = 'sin-conexion' | 'enviando' | 'reintento' | 'atascada' | 'lista' | 'error';

/**
 * Waiting for a network, being sent, waiting to try again after no answer,
 * stuck (the server kept failing: the user retries), read, or refused.
 */
export function estadoFoto(f: FotoLocal, e: EntradaOutbox | undefined, enLinea: boolean, enviando: boolean): { clave: EnvioFoto; texto: string } {
  if (f.estado === 'lista') return { clave: 'lista', texto: 'propuesta lista.' };
  if (f.estado === 'error') return { clave: 'error', texto: `no se pudo leer: ${f.error ?? ''}` };
  if (!enLinea) return { clave: 'sin-conexion', texto: 'se leerá cuando haya conexión.' };
  if (e?.estado === 'atascada') return { clave: 'atascada', texto: `el servidor no ha podido leerla (${e.ultimoError ?? 'sin respuesta'}). Pulse «Reintentar» para volver a enviarla.` };
  if (e?.ultimoError && !enviando) return { clave: 'reintento', texto: `sin respuesta del servidor (${e.ultimoError}): se volverá a enviar sola.` };
  return { clave: 'enviando', texto: 'leyéndose…' };
}

export interface FotoEnPantalla {
  foto: FotoLocal;
  estado: { clave: EnvioFoto; texto: string };
  /** Stuck: «Reintentar» puts it back in the queue at once, with the same key. */
  reintentar: (() => void) | null;
}

export function useFotos() {
  const ctx = useStore(contexto)!;
  const enLinea = useEnLinea();
  const sync = useStore(estadoSync);
  // (A photo a DeCA was made from is that DeCA's now: shown on its page, not here.)
  const fotos =
    useLiveQuery(
      () =>
        ctx.db.fotos
          .orderBy('creado')
          .reverse()
          .filter((f) => f.estado !== 'usada')
          .toArray(),
      [ctx.db],
    ) ?? [];
  // Each waiting photo's outbox entry (lane `foto:<clave>`): its attempts and last error.
  const envios = useLiveQuery(async () => new Map((await ctx.db.outbox.where('clave').startsWith(carrilFoto('')).toArray()).map((e) => [e.clave, e])), [ctx.db]);
  const [trabajando, setTrabajando] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [cuota, setCuota] = useState<Cuota['fotos'] | null>(null);

  // Photos that became DeCAs a while ago leave the device.
  useEffect(() => void soltarFotosUsadas(ctx.db).catch(() => {}), [ctx.db]);

  // The month's reads, again after each photo read (or refused) and after each pass of the sync engine (a read
  // sent from another screen, or by the service worker). Only the latest request's answer is shown: one sent
  // before a read may come back after it, and would put the count back.
  const estados = fotos.map((f) => `${f.clave}:${f.estado}`).join(',');
  const pedida = useRef(0);
  useEffect(() => {
    if (!enLinea || sync.fase === 'enviando') return;
    const esta = ++pedida.current;
    ctx.api.llamar('ver_cuenta', {}).then(
      (r) => esta === pedida.current && setCuota(r.data.cuenta.cuota.fotos),
      () => {},
    );
  }, [enLinea, estados, sync.fase]);

  /** A photo taken or picked: shrunk, then kept with its outbox entry; the sync engine sends it now or when the network returns. */
  async function elegida(archivo: File): Promise<void> {
    setError(null);
    setTrabajando(true);
    try {
      await guardarFoto(ctx.db, await reducirFoto(archivo));
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setTrabajando(false);
    }
  }

  const lista: FotoEnPantalla[] = fotos.map((foto) => {
    const entrada = envios?.get(carrilFoto(foto.clave));
    return {
      foto,
      estado: estadoFoto(foto, entrada, enLinea, sync.fase === 'enviando'),
      reintentar: entrada?.estado === 'atascada' && entrada.seq !== undefined ? () => void reintentar(ctx.db, entrada.seq!) : null,
    };
  });

  return {
    fotos: lista,
    cuota,
    trabajando,
    error,
    elegida,
    descartar: (f: FotoLocal) => void descartarFoto(ctx.db, f.clave),
  };
}
