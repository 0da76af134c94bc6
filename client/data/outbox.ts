import { CAMPOS_DATOS } from '../../shared/rules/campos-deca';
import type { Deca } from '../../shared/schemas/deca';
import type { DatosDeca, DecaDb, DecaLocal, EntradaAgendaLocal, EntradaOutbox, TipoOperacion } from './db';

/** Fields of a DeCA that the forms edit (everything of DecaInput that is data). */
export const CAMPOS_EDITABLES = ['ref_externa', 'emisor_rol', ...CAMPOS_DATOS] as const;

/** The editable data of a server DeCA. */
export function datosDeDeca(d: Deca): DatosDeca {
  const out: DatosDeca = {};
  for (const k of CAMPOS_EDITABLES) out[k] = d[k];
  return out;
}

/** A fresh Idempotency-Key: one per change, kept across retries and restarts. */
export function nuevaClave(): string {
  return crypto.randomUUID();
}

/** Short local reference shown until the server number arrives. */
export function referenciaTemporal(uuid: string): string {
  return `LOCAL-${uuid.replace(/-/g, '').slice(0, 6).toUpperCase()}`;
}

/** Items made on this device sort above everything the server numbered. */
const ORDEN_LOCAL = 1e12;

function aplicar(datos: DatosDeca, cambios: Record<string, unknown>): DatosDeca {
  const out = { ...datos };
  for (const k of CAMPOS_EDITABLES) if (k in cambios) out[k] = cambios[k];
  return out;
}

/**
 * The local view of an item: the server copy with every queued change on top,
 * in queue order. Recomputed after each write and each server answer, so the
 * screen always shows what the user did, even before it is sent.
 */
export function vistaLocal(rec: DecaLocal, entradas: EntradaOutbox[]): DecaLocal {
  const propias = entradas.filter((e) => e.clave === rec.clave).sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
  let datos = rec.deca ? datosDeDeca(rec.deca) : rec.datos;
  let archivado = rec.deca ? (rec.deca.archivado ? 1 : 0) : rec.archivado;
  let eliminada = false;
  for (const e of propias) {
    if (e.tipo === 'crear' || e.tipo === 'modificar') datos = aplicar(datos, e.body);
    if (e.tipo === 'archivar') archivado = e.body.archivado ? 1 : 0;
    if (e.tipo === 'eliminar') eliminada = true;
  }
  const v: DecaLocal = {
    ...rec,
    datos,
    archivado: archivado as 0 | 1,
    fecha_transporte: typeof datos.fecha_transporte === 'string' ? datos.fecha_transporte : '',
    pendientes: propias.length,
    rechazo: propias.some((e) => e.estado === 'rechazada') ? rec.rechazo : null,
  };
  if (propias.some((e) => e.estado === 'atascada')) v.atascada = 1;
  else delete v.atascada;
  // A replacement made here stands for a DeCA to issue until the server answers (its entry is on the old item).
  const emitira = propias.some((e) => e.tipo === 'emitir' || ((e.tipo === 'crear' || e.tipo === 'modificar') && e.body.emitir === true)) || (rec.porEmitir === 1 && !rec.deca);
  if (emitira && v.estado !== 'emitido' && v.estado !== 'sustituido') v.porEmitir = 1;
  else delete v.porEmitir;
  if (eliminada) v.eliminada = 1;
  else delete v.eliminada;
  return v;
}

/** Re-derive and store the local view of `clave` (inside the caller's transaction). */
export async function recalcular(db: DecaDb, clave: string): Promise<DecaLocal | undefined> {
  const rec = await db.decas.get(clave);
  if (!rec) return undefined;
  const entradas = await db.outbox.where('clave').equals(clave).toArray();
  const v = vistaLocal(rec, entradas);
  await db.decas.put(v);
  return v;
}

/** A new outbox entry of lane `clave`, with its own Idempotency-Key. */
export function entradaOutbox(clave: string, tipo: TipoOperacion, body: Record<string, unknown>, extra: Partial<EntradaOutbox> = {}): EntradaOutbox {
  return { clave, tipo, body, idempotencyKey: nuevaClave(), estado: 'pendiente', intentos: 0, proximo: 0, ultimoError: null, creado: Date.now(), ...extra };
}

/** Wakes the sync engine after a local write (set by sync.ts; a no-op in tests that drain by hand). */
let avisarCambio: () => void = () => {};
export function alEncolar(fn: () => void): void {
  avisarCambio = fn;
}

/** Wake the sync engine after writing an entry outside this module (a photo: client/data/fotos.ts). */
export function avisarDeCambio(): void {
  avisarCambio();
}

/**
 * Queue a change: the item and its outbox entry are written in ONE Dexie
 * transaction, so a crash leaves either both or neither.
 */
async function encolar(db: DecaDb, clave: string, e: EntradaOutbox): Promise<DecaLocal> {
  const v = await db.transaction('rw', db.decas, db.outbox, async () => {
    const rec = await db.decas.get(clave);
    if (!rec) throw new Error(`No existe la DeCA ${clave} en este dispositivo.`);
    await db.outbox.add(e);
    return (await recalcular(db, clave))!;
  });
  avisarCambio();
  return v;
}

/** The outbox lane of an address-book entry: its changes go in order, apart from every DeCA's. */
export function carrilAgenda(tipo: EntradaAgendaLocal['tipo'], clave: string): string {
  return `agenda:${tipo}:${clave}`;
}

/**
 * Save an address-book entry on this device: the local copy (used by the
 * forms at once, offline too) and its outbox entry in one transaction; the
 * server gets it when there is a network, like any other change.
 */
export async function guardarEnAgenda(db: DecaDb, e: EntradaAgendaLocal): Promise<void> {
  const body = Object.fromEntries(Object.entries(e.datos).filter(([, v]) => v !== null && v !== ''));
  await db.transaction('rw', db.agenda, db.outbox, async () => {
    await db.agenda.put({ ...e, local: 1 });
    await db.outbox.add(entradaOutbox(carrilAgenda(e.tipo, e.clave), 'agenda', body));
  });
  avisarCambio();
}

/**
 * A DeCA issued on this device with no coverage (client/data/sin-cobertura.ts):
 * the reserved number it took, what goes to the server as `emision_offline`,
 * and the QR and PDF shown at once.
 */
export interface EmisionEnDispositivo {
  emision: { dispositivo_id: number; numero: string; token: string; emitida_at: string; qr: string };
  qrUrl: string;
  qrSvg: string;
  pdf: ArrayBuffer;
  sha256: string;
}

/**
 * New DeCA: a local item with a temporary reference, and its `crear` entry.
 * Issued on this device (`offline`): the item has its number at once, the
 * reserved number is marked used and the QR and PDF are kept, all in the same
 * transaction, so a number is never taken twice nor lost with its DeCA.
 */
/** A number this device holds, named by a DeCA created with coverage (`reserva_dispositivo`): see crearDeca. */
export interface ReservaParaCrear {
  dispositivo_id: number;
  numero: string;
}

/**
 * With coverage, the next number this device holds goes with the create (or
 * the replacement) and is used here at once, in the caller's transaction: the
 * server gives it to the new DeCA (the device's series has no jumps), and this
 * device never issues it again offline.
 */
async function nombrarReserva(db: DecaDb, pedida: ReservaParaCrear | null | undefined, clave: string, body: Record<string, unknown>): Promise<void> {
  const reserva = pedida ? await db.reservas.get(pedida.numero) : undefined;
  if (!reserva || reserva.usada || !pedida) return;
  await db.reservas.update(reserva.numero, { usada: clave });
  body.reserva_dispositivo = pedida;
}

export async function crearDeca(db: DecaDb, datos: DatosDeca, opts: { emitir: boolean; offline?: EmisionEnDispositivo; reserva?: ReservaParaCrear | null }): Promise<DecaLocal> {
  const uuid = nuevaClave();
  const clave = `l:${uuid}`;
  const o = opts.offline;
  const rec: DecaLocal = {
    clave,
    ref_temporal: o ? null : referenciaTemporal(uuid),
    deca: null,
    datos: {},
    estado: o ? 'emitido' : 'borrador',
    archivado: 0,
    fecha_transporte: '',
    orden: ORDEN_LOCAL + Date.now(),
    pendientes: 0,
    rechazo: null,
    actualizado: Date.now(),
    ...(o ? { numero: o.emision.numero, offline: 1 as const } : {}),
  };
  const body: Record<string, unknown> = { ...limpiar(datos), emitir: opts.emitir, ...(o ? { emision_offline: o.emision } : {}) };
  const v = await db.transaction('rw', [db.decas, db.outbox, db.reservas, db.emitidas], async () => {
    if (!o) await nombrarReserva(db, opts.reserva, clave, body);
    if (o) {
      const reserva = await db.reservas.get(o.emision.numero);
      if (!reserva || reserva.usada) throw new Error(`El número ${o.emision.numero} ya no está disponible en este dispositivo.`);
      await db.reservas.update(o.emision.numero, { usada: clave });
      await db.emitidas.put({ clave, numero: o.emision.numero, qrUrl: o.qrUrl, qrSvg: o.qrSvg, pdf: o.pdf, sha256: o.sha256, emitida_at: o.emision.emitida_at });
    }
    await db.decas.add(rec);
    // The local id is the create's key: the server keeps it with the DeCA for good, so a
    // replay weeks later (a phone long offline) still returns this DeCA, never a second one.
    await db.outbox.add(entradaOutbox(clave, 'crear', body, { idempotencyKey: uuid }));
    return (await recalcular(db, clave))!;
  });
  avisarCambio();
  return v;
}

/** Method 1 (issued, `motivo` required) or a plain edit of a pending DeCA; `emitir` issues it after. */
export function modificarDecaLocal(db: DecaDb, clave: string, cambios: DatosDeca, opts: { motivo?: string; emitir?: boolean } = {}): Promise<DecaLocal> {
  const body: Record<string, unknown> = { ...cambios };
  if (opts.motivo) body.motivo = opts.motivo;
  if (opts.emitir) body.emitir = true;
  return encolar(db, clave, entradaOutbox(clave, 'modificar', body));
}

/** Issue a pending DeCA. */
export function emitirDeca(db: DecaDb, clave: string): Promise<DecaLocal> {
  return encolar(db, clave, entradaOutbox(clave, 'emitir', {}));
}

/** Mark the end of the service. */
export function finalizarServicio(db: DecaDb, clave: string): Promise<DecaLocal> {
  return encolar(db, clave, entradaOutbox(clave, 'fin', {}));
}

/** The code an agent gave at a roadside check: kept here at once (no coverage at the roadside), sent when there is. */
export function anotarControl(db: DecaDb, clave: string, codigo: string): Promise<DecaLocal> {
  return encolar(db, clave, entradaOutbox(clave, 'control', { codigo }));
}

/** Archive (true) or unarchive (false). */
export function archivarDeca(db: DecaDb, clave: string, archivado: boolean): Promise<DecaLocal> {
  return encolar(db, clave, entradaOutbox(clave, 'archivar', { archivado }));
}

/** Delete a pending DeCA (issued ones are kept a year and cannot be deleted). */
export function eliminarDeca(db: DecaDb, clave: string): Promise<DecaLocal> {
  return encolar(db, clave, entradaOutbox(clave, 'eliminar', {}));
}

/**
 * Method 2: a new DeCA replaces this one. The new item exists locally at once
 * (with a temporary reference) and gets its number when the server answers.
 */
export async function sustituirDeca(db: DecaDb, clave: string, cambios: DatosDeca, motivo: string, reserva?: ReservaParaCrear | null): Promise<DecaLocal> {
  const uuid = nuevaClave();
  const nueva = `l:${uuid}`;
  const v = await db.transaction('rw', [db.decas, db.outbox, db.reservas], async () => {
    const vieja = await db.decas.get(clave);
    if (!vieja) throw new Error(`No existe la DeCA ${clave} en este dispositivo.`);
    const datos = aplicar(vieja.datos, cambios);
    await db.decas.add({
      clave: nueva,
      ref_temporal: referenciaTemporal(uuid),
      deca: null,
      datos,
      estado: 'borrador',
      archivado: 0,
      fecha_transporte: typeof datos.fecha_transporte === 'string' ? datos.fecha_transporte : '',
      orden: ORDEN_LOCAL + Date.now(),
      // Counted as pending through the old item's entry until the server answers.
      pendientes: 1,
      porEmitir: 1,
      rechazo: null,
      actualizado: Date.now(),
    });
    const body: Record<string, unknown> = { ...cambios, motivo };
    await nombrarReserva(db, reserva, nueva, body);
    await db.outbox.add(entradaOutbox(clave, 'sustituir', body, { nueva }));
    await recalcular(db, clave);
    return (await db.decas.get(nueva))!;
  });
  avisarCambio();
  return v;
}

/**
 * Resend a refused change after the user fixed it: new body, and a NEW
 * Idempotency-Key (a create answered with another DeCA that owns its
 * `ref_externa` left that answer under the old key: the same key with the
 * fixed body would be refused as another request).
 */
export async function reenviar(db: DecaDb, seq: number, body: Record<string, unknown>): Promise<void> {
  await db.transaction('rw', db.decas, db.outbox, async () => {
    const e = await db.outbox.get(seq);
    if (!e) throw new Error('Ese cambio ya no está en la cola.');
    // A create or a replacement keeps the reserved number it was queued with: this device used it for that DeCA.
    const reserva = (e.tipo === 'crear' || e.tipo === 'sustituir') && e.body.reserva_dispositivo && !body.reserva_dispositivo ? { reserva_dispositivo: e.body.reserva_dispositivo } : {};
    await db.outbox.put({ ...e, body: { ...body, ...reserva }, idempotencyKey: nuevaClave(), estado: 'pendiente', intentos: 0, proximo: 0, ultimoError: null });
    const rec = await db.decas.get(e.clave);
    if (rec) await db.decas.put({ ...rec, rechazo: null });
    await recalcular(db, e.clave);
  });
  avisarCambio();
}

/**
 * «Reintentar» on a stuck change, or on a refused one whose cause was fixed
 * elsewhere (the company's data completed): back in the queue at once, with
 * the same key (a stuck one may have gone through).
 */
export async function reintentar(db: DecaDb, seq: number): Promise<void> {
  await db.transaction('rw', db.decas, db.outbox, async () => {
    const e = await db.outbox.get(seq);
    if (!e || e.estado === 'pendiente') return;
    await db.outbox.update(seq, { estado: 'pendiente', intentos: 0, fallosServidor: 0, primerFallo: undefined, proximo: 0 });
    const rec = await db.decas.get(e.clave);
    if (rec?.rechazo) await db.decas.put({ ...rec, rechazo: null });
    await recalcular(db, e.clave);
  });
  avisarCambio();
}

/**
 * Drop a refused or stuck change on the user's explicit request (never automatically).
 * Dropping a refused `crear` removes the local item too: it never existed on the server.
 */
export async function descartar(db: DecaDb, seq: number): Promise<void> {
  await db.transaction('rw', [db.decas, db.outbox, db.emitidas], async () => {
    const e = await db.outbox.get(seq);
    if (!e) return;
    await db.outbox.delete(seq);
    if (e.tipo === 'crear') {
      await db.outbox.where('clave').equals(e.clave).delete();
      await db.decas.delete(e.clave);
      // Its reserved number stays used: it may have been shown at the roadside.
      await db.emitidas.delete(e.clave);
      return;
    }
    if (e.tipo === 'sustituir' && e.nueva) await db.decas.delete(e.nueva);
    const rec = await db.decas.get(e.clave);
    if (rec) await db.decas.put({ ...rec, rechazo: null });
    await recalcular(db, e.clave);
  });
}

/** Empty strings mean «not given»: the server treats them so, and the outbox stays small. */
export function limpiar(datos: DatosDeca): DatosDeca {
  const out: DatosDeca = {};
  for (const [k, v] of Object.entries(datos)) {
    if (v === '' || v === undefined) continue;
    out[k] = v;
  }
  return out;
}
