/**
 * Photos of delivery notes, taken in the cab with or without coverage: each
 * is shrunk in a worker (reducir-foto.ts), kept in IndexedDB as a Blob with
 * its Idempotency-Key, and sent to POST /fotos by the outbox, in a lane of
 * its own (`foto:<clave>`): the sync engine replays it when there is a
 * network, with the app open or closed (Background Sync), like every other
 * change. A repeat after a lost answer gets the same reading and spends no
 * second read. The reading (with where each field was read, and the id of
 * the photo the server kept) waits on the device until the user opens it in
 * the form; the DeCA made from it sends that id, and the photo stays on the
 * device beside the DeCA for a while (`usada`), for its page.
 */
import type { Api, ApiError } from './api';
import { carrilFoto, type DecaDb, type EntradaOutbox, entradaFoto, type FotoLocal } from './db';
import { avisarDeCambio } from './outbox';

/** Keep a photo to be read: the photo and its outbox entry in one transaction, sent now if there is a network, else when it returns. */
export async function guardarFoto(db: DecaDb, foto: Blob): Promise<FotoLocal> {
  const clave = crypto.randomUUID();
  const f: FotoLocal = { clave, idempotencyKey: `foto-${clave}`, foto, creado: Date.now(), estado: 'pendiente' };
  await db.transaction('rw', db.fotos, db.outbox, async () => {
    await db.fotos.add(f);
    await db.outbox.add(entradaFoto(f));
  });
  avisarDeCambio();
  return f;
}

/** Drop a photo, read or not: with it goes its outbox entry (a photo not yet sent is never sent). */
export async function descartarFoto(db: DecaDb, clave: string): Promise<void> {
  await db.transaction('rw', db.fotos, db.outbox, async () => {
    await db.outbox.where('clave').equals(carrilFoto(clave)).delete();
    await db.fotos.delete(clave);
  });
}

/** The photo an outbox entry sends. */
function claveDeCarril(e: EntradaOutbox): string {
  return e.clave.slice(carrilFoto('').length);
}

/**
 * Send one photo's entry (the sync engine calls it). The reading is kept on
 * the photo and the entry dropped in one transaction. A photo discarded
 * meanwhile has nothing to send. Throws the API's errors as they come: the
 * engine retries what is transitory and hands a refusal to `rechazarFoto`.
 */
export async function enviarFoto(api: Api, db: DecaDb, e: EntradaOutbox): Promise<void> {
  const f = await db.fotos.get(claveDeCarril(e));
  if (f?.estado !== 'pendiente') {
    await db.outbox.delete(e.seq!);
    return;
  }
  const form = new FormData();
  form.append('foto', f.foto, 'albaran.jpg');
  const r = await api.llamar('leer_albaran', {}, { body: form, idempotencyKey: e.idempotencyKey, timeoutMs: 60_000 });
  const { propuesta, confianza, texto, avisos, zonas, foto_id } = r.data;
  await db.transaction('rw', db.fotos, db.outbox, async () => {
    await db.outbox.delete(e.seq!);
    if (await db.fotos.get(f.clave)) await db.fotos.update(f.clave, { estado: 'lista', lectura: { propuesta, confianza, texto, avisos, zonas, foto_id } });
  });
}

/**
 * The server refused the photo (not an image, the month's reads spent):
 * nothing to fix and send again, so the refusal is kept on the photo with
 * its message, for the user to read and discard, and the entry leaves the queue.
 */
export async function rechazarFoto(db: DecaDb, e: EntradaOutbox, err: ApiError): Promise<void> {
  const campo = Object.values(err.campos)[0];
  await db.transaction('rw', db.fotos, db.outbox, async () => {
    await db.outbox.delete(e.seq!);
    const clave = claveDeCarril(e);
    if (await db.fotos.get(clave)) await db.fotos.update(clave, { estado: 'error', error: [err.message, campo].filter(Boolean).join(' ') });
  });
}

/** A proposal as the form's data: the DeCA input fields, shipments with their weight as text. */
export function datosDePropuesta(propuesta: Record<string, unknown>): Record<string, unknown> {
  const envios = Array.isArray(propuesta.envios) ? (propuesta.envios as Record<string, unknown>[]) : [];
  return {
    ...propuesta,
    envios: (envios.length ? envios : [{}]).map((e) => ({ ...e, peso: e.peso === undefined ? '' : String(e.peso).replace('.', ',') })),
  };
}

/**
 * A delivery-note photo a DeCA was made from stays on the device while the
 * DeCA is not on the server, and a week after it was taken (its page shows it
 * with no coverage; the server keeps it with the DeCA): then it goes, and so
 * does one whose DeCA is no longer here. Run where photos are shown (the
 * photos' screen, a DeCA's page), so the first screen loads none of it.
 */
export async function soltarFotosUsadas(db: DecaDb, ahora = Date.now()): Promise<void> {
  await db.transaction('rw', db.fotos, db.decas, async () => {
    for (const f of await db.fotos.where('estado').equals('usada').toArray()) {
      const d = f.deca ? await db.decas.get(f.deca) : undefined;
      if (!d || (d.id !== undefined && f.creado < ahora - 7 * 86_400_000)) await db.fotos.delete(f.clave);
    }
  });
}
