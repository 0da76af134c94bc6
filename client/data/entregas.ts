/**
 * Proofs of delivery (extension: POST /decas/{id}/entregas), collected on the
 * driver's phone at the end of the transport, with or without coverage: the
 * delivery (its photos as Blobs) is kept in `entregas` and its outbox entry
 * goes in the DeCA's own lane, so it is sent after the DeCA reaches the
 * server, in order with the DeCA's other changes, by the sync engine (the app
 * open or closed), with the Idempotency-Key it was kept with: a repeat after
 * a lost answer never records a second delivery.
 */
import type { EntradaDe } from '../../shared/api/operaciones';
import type { Api } from './api';
import type { DecaDb, EntradaOutbox, EntregaLocal } from './db';
import { avisarDeCambio, entradaOutbox, recalcular } from './outbox';

/**
 * Keep a delivery collected here, and its outbox entry, in one transaction
 * (`finalizar`: the end of the service is queued after it, in the same lane).
 */
export async function guardarEntrega(db: DecaDb, deca: string, datos: Record<string, unknown>, fotos: Blob[], opts: { finalizar?: boolean } = {}): Promise<EntregaLocal> {
  const clave = crypto.randomUUID();
  const entrega: EntregaLocal = { clave, deca, datos, fotos, estado: 'pendiente', creado: Date.now() };
  await db.transaction('rw', [db.decas, db.outbox, db.entregas], async () => {
    if (!(await db.decas.get(deca))) throw new Error('Esta DeCA no está en este dispositivo.');
    await db.entregas.add(entrega);
    await db.outbox.add(entradaOutbox(deca, 'entrega', { entrega: clave }, { idempotencyKey: clave }));
    if (opts.finalizar) await db.outbox.add(entradaOutbox(deca, 'fin', {}));
    await recalcular(db, deca);
  });
  avisarDeCambio();
  return entrega;
}

/**
 * Keep a delivery the server recorded from elsewhere for this DeCA — the
 * consignee signed on their own phone («Firmar en su móvil») — as sent, so
 * the DeCA's page shows it with no coverage later; `finalizar` queues the end
 * of the service after it, as for a delivery collected here. Kept once
 * whatever the number of times it is seen (its key is the DeCA's and its number).
 */
export async function guardarEntregaRecibida(db: DecaDb, deca: string, entrega: Record<string, unknown> & { n: number }, opts: { finalizar?: boolean } = {}): Promise<void> {
  const clave = `${deca}#${entrega.n}`;
  await db.transaction('rw', [db.decas, db.outbox, db.entregas], async () => {
    if (await db.entregas.get(clave)) return;
    await db.entregas.add({ clave, deca, datos: { ...entrega }, fotos: [], estado: 'enviada', servidor: { ...entrega }, creado: Date.now() });
    if (opts.finalizar) await db.outbox.add(entradaOutbox(deca, 'fin', {}));
    await recalcular(db, deca);
  });
  avisarDeCambio();
}

/** A photo as the base64 text the API takes (also in a service worker: no FileReader). */
export async function enBase64(foto: Blob): Promise<string> {
  const bytes = new Uint8Array(await foto.arrayBuffer());
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

/**
 * Send one delivery's entry (the sync engine calls it once its DeCA has a
 * server id). The server's copy is kept, the photos let go and the entry
 * dropped in one transaction. A delivery no longer here has nothing to send.
 * Throws the API's errors as they come: the engine retries what is
 * transitory and keeps a refusal on the DeCA for the user.
 */
export async function enviarEntrega(api: Api, db: DecaDb, e: EntradaOutbox, id: number): Promise<void> {
  const clave = String(e.body.entrega);
  const local = await db.entregas.get(clave);
  if (local?.estado !== 'pendiente') {
    await db.transaction('rw', db.decas, db.outbox, async () => {
      await db.outbox.delete(e.seq!);
      await recalcular(db, e.clave);
    });
    return;
  }
  const fotos = await Promise.all(local.fotos.map(enBase64));
  const body = { ...local.datos, ...(fotos.length > 0 ? { fotos } : {}) };
  // Up to three photos of a megabyte: more time than a plain change.
  const r = await api.llamar('entregar_deca', { ...body, id } as EntradaDe<'entregar_deca'>, { idempotencyKey: e.idempotencyKey, timeoutMs: 60_000 });
  await db.transaction('rw', [db.decas, db.outbox, db.entregas], async () => {
    await db.outbox.delete(e.seq!);
    await db.entregas.update(clave, { estado: 'enviada', servidor: { ...r.data.entrega }, fotos: [] });
    await recalcular(db, e.clave);
  });
}
