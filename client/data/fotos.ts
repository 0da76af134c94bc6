/**
 * Photos of delivery notes, taken in the cab with or without coverage: each
 * is shrunk in a worker, kept in IndexedDB with its Idempotency-Key, and sent
 * to POST /fotos when there is a network (a repeat after a lost answer gets
 * the same reading and spends no second read). The reading waits on the
 * device until the user opens it in the form.
 */
import { wrap } from 'comlink';
import { CSRF_HEADER, type Api } from './api';
import type { DecaDb, FotoLocal } from './db';
import type { FotoWorker } from '../workers/foto.worker';

/** The server's limit for a photo (spec: 2 MB). */
export const FOTO_MAXIMA = 2 * 1024 * 1024;

let trabajador: ReturnType<typeof wrap<FotoWorker>> | null = null;

/** The photo as the server wants it: at most 1800 px, JPEG (in a worker, so the screen never stutters). */
export async function reducirFoto(foto: Blob): Promise<Blob> {
  try {
    trabajador ??= wrap<FotoWorker>(new Worker(new URL('../workers/foto.worker.ts', import.meta.url), { type: 'module' }));
    // A worker that never loaded would never answer: the photo does not wait for it forever.
    const plazo = new Promise<never>((_, mal) => setTimeout(() => mal(new Error('sin respuesta')), 20_000));
    return await Promise.race([trabajador.reducir(foto), plazo]);
  } catch {
    // A format this browser cannot draw (HEIC outside Safari): the server may still read it.
    if (foto.size <= FOTO_MAXIMA) return foto;
    throw new Error('No se ha podido reducir esta foto y pasa de 2 MB: hágala de nuevo con la cámara de la aplicación.');
  }
}

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
 * spent) is kept on the photo with its message; no answer leaves it waiting.
 * One pass at a time per page.
 */
export function leerPendientes(api: Api, db: DecaDb): Promise<void> {
  leyendo ??= (async () => {
    try {
      for (const f of await db.fotos.where('estado').equals('pendiente').sortBy('creado')) {
        const form = new FormData();
        form.append('foto', f.foto, 'albaran.jpg');
        let res: Response;
        try {
          res = await fetch(`${api.base}/fotos`, {
            method: 'POST',
            headers: { [CSRF_HEADER]: '1', 'Idempotency-Key': f.idempotencyKey, Accept: 'application/json' },
            body: form,
            credentials: 'same-origin',
            signal: AbortSignal.timeout(60_000),
          });
        } catch {
          return; // no network: the rest wait too
        }
        const body = (await res.json().catch(() => null)) as (FotoLocal['lectura'] & { error?: { codigo: string; mensaje: string; campos?: Record<string, string> } }) | null;
        if (res.ok && body) {
          await db.fotos.update(f.clave, { estado: 'lista', lectura: { propuesta: body.propuesta, confianza: body.confianza, texto: body.texto, avisos: body.avisos } });
        } else if (res.status >= 500 || res.status === 401 || res.status === 409 || !body || body.error?.codigo === 'demasiadas_peticiones') {
          return; // the server's trouble, the session or the rate: try again later with the same key
        } else {
          const campo = body.error?.campos && Object.values(body.error.campos)[0];
          await db.fotos.update(f.clave, { estado: 'error', error: [body.error?.mensaje, campo].filter(Boolean).join(' ') || `Error ${res.status}` });
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
