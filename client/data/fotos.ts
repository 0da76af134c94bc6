/**
 * Photos of delivery notes, taken in the cab with or without coverage: each
 * is shrunk in a worker, kept in IndexedDB with its Idempotency-Key, and sent
 * to POST /fotos when there is a network (a repeat after a lost answer gets
 * the same reading and spends no second read). The reading waits on the
 * device until the user opens it in the form.
 */
import { ApiError, esTransitorio, type Api } from './api';
import type { DecaDb, FotoLocal } from './db';

/** Keep a photo to be read (now if there is a network, else when it returns). */
export async function guardarFoto(db: DecaDb, foto: Blob): Promise<FotoLocal> {
  const clave = crypto.randomUUID();
  const f: FotoLocal = { clave, idempotencyKey: `foto-${clave}`, foto, creado: Date.now(), estado: 'pendiente' };
  await db.fotos.add(f);
  return f;
}

let leyendo: Promise<void> | null = null;

/**
 * Send every photo still waiting. A refusal (not an image, the month's reads
 * spent) is kept on the photo with its message; no answer, or one that clears
 * by itself (esTransitorio, an expired session), leaves it waiting to be sent
 * again with the same key. One pass at a time per page.
 */
export function leerPendientes(api: Api, db: DecaDb): Promise<void> {
  leyendo ??= (async () => {
    try {
      for (const f of await db.fotos.where('estado').equals('pendiente').sortBy('creado')) {
        const form = new FormData();
        form.append('foto', f.foto, 'albaran.jpg');
        try {
          const r = await api.request<NonNullable<FotoLocal['lectura']>>('POST', '/fotos', { body: form, idempotencyKey: f.idempotencyKey, timeoutMs: 60_000 });
          const { propuesta, confianza, texto, avisos } = r.data;
          await db.fotos.update(f.clave, { estado: 'lista', lectura: { propuesta, confianza, texto, avisos } });
        } catch (err) {
          if (!(err instanceof ApiError) || esTransitorio(err) || err.status === 401) return;
          const campo = Object.values(err.campos)[0];
          await db.fotos.update(f.clave, { estado: 'error', error: [err.message, campo].filter(Boolean).join(' ') });
        }
      }
    } finally {
      leyendo = null;
    }
  })();
  return leyendo;
}

/** A proposal as the form's data: the DeCA input fields, shipments with their weight as text. */
export function datosDePropuesta(propuesta: Record<string, unknown>): Record<string, unknown> {
  const envios = Array.isArray(propuesta.envios) ? (propuesta.envios as Record<string, unknown>[]) : [];
  return {
    ...propuesta,
    envios: (envios.length ? envios : [{}]).map((e) => ({ ...e, peso: e.peso === undefined ? '' : String(e.peso).replace('.', ',') })),
  };
}
