import type { EntradaDe } from '../../shared/api/operaciones';
import { normalizarMatricula } from '../../shared/rules/matricula';
import type { Cambio, CambiosList, Deca, DecaList, DocumentosCamino, Estado } from '../../shared/schemas/deca';
import { type Api, ApiError } from './api';
import type { DecaDb, DecaLocal, Documento } from './db';
import { guardarDelServidor } from './sync';

/** List filters: the server ones (estado, dates, plate, archived) plus free text, applied on the device. */
export interface Filtros {
  estado?: Estado | '';
  desde?: string;
  hasta?: string;
  /** Any part of a plate, of the vehicle or the trailer, as typed (spaces and dashes do not count). */
  matricula?: string;
  texto?: string;
  archivado?: boolean;
}

/** Query string of GET /decas for these filters (free text stays on the device). */
export function consultaServidor(f: Filtros): EntradaDe<'exportar_csv'> {
  return {
    ...(f.estado ? { estado: f.estado } : {}),
    ...(f.desde ? { desde: f.desde } : {}),
    ...(f.hasta ? { hasta: f.hasta } : {}),
    ...(f.matricula ? { matricula_contiene: f.matricula } : {}),
    archivado: f.archivado ? 'true' : 'false',
  };
}

function texto(r: DecaLocal): string {
  const d = r.datos;
  const envios = Array.isArray(d.envios) ? (d.envios as Record<string, unknown>[]) : [];
  return [
    r.numero,
    r.ref_temporal,
    d.ref_externa,
    d.referencia,
    d.cargador_nombre,
    d.transp_nombre,
    d.conductor_nombre,
    d.matricula,
    d.matricula_remolque,
    ...envios.flatMap((e) => [e.origen, e.destino, e.naturaleza]),
  ]
    .filter((x) => typeof x === 'string')
    .join(' ')
    .toLowerCase();
}

/** The server's filters, as the server applies them (list: same answer offline as online). */
export function cumpleServidor(r: DecaLocal, f: Filtros): boolean {
  if (r.eliminada) return false;
  if ((r.archivado === 1) !== Boolean(f.archivado)) return false;
  if (f.estado && r.estado !== f.estado) return false;
  if (f.desde && (!r.fecha_transporte || r.fecha_transporte < f.desde)) return false;
  if (f.hasta && (!r.fecha_transporte || r.fecha_transporte > f.hasta)) return false;
  const m = f.matricula ? normalizarMatricula(f.matricula) : '';
  if (m && ![r.datos.matricula, r.datos.matricula_remolque].some((x) => typeof x === 'string' && normalizarMatricula(x).includes(m))) return false;
  return true;
}

/** All filters, free text included. */
export function cumple(r: DecaLocal, f: Filtros): boolean {
  if (!cumpleServidor(r, f)) return false;
  const t = f.texto?.trim().toLowerCase();
  return !t || texto(r).includes(t);
}

/** Items on this device that match, newest first (items made here, not yet numbered, on top). */
export async function listarLocal(db: DecaDb, f: Filtros): Promise<DecaLocal[]> {
  const todas = await db.decas.orderBy('orden').reverse().toArray();
  return todas.filter((r) => cumple(r, f)).sort(porFechaTransporte);
}

/** The list's order: transport date, newest first; on one date, the newest DeCA first (made here before numbered). */
export function porFechaTransporte(a: DecaLocal, b: DecaLocal): number {
  if (a.fecha_transporte !== b.fecha_transporte) return a.fecha_transporte < b.fecha_transporte ? 1 : -1;
  return b.orden - a.orden;
}

/**
 * Fetch one page of the server list into the device. Keyset reconciliation:
 * items stored here in the id range the page covers, matching the same server
 * filters but absent from it, are gone or changed on the server — drop their
 * stale copies (never one with unsent changes).
 */
export async function cargarPagina(api: Api, db: DecaDb, f: Filtros, despuesDe: string | null, techo: number | null): Promise<{ siguiente: string | null; suelo: number | null }> {
  const r = await api.llamar('listar_decas', { ...consultaServidor(f), limite: 30, ...(despuesDe ? { despues_de: despuesDe } : {}) });
  const { decas, siguiente } = r.data;
  await guardarDelServidor(db, decas);
  const ids = new Set(decas.map((d) => d.id));
  const suelo = siguiente ? (decas[decas.length - 1]?.id ?? null) : 0;
  if (suelo !== null) {
    await db.transaction('rw', db.decas, async () => {
      const viejas = await db.decas.filter((x) => x.id !== undefined && x.id >= suelo && (techo === null || x.id < techo) && !ids.has(x.id) && x.pendientes === 0 && cumpleServidor(x, f)).toArray();
      await db.decas.bulkDelete(viejas.map((x) => x.clave));
    });
  }
  return { siguiente, suelo };
}

/** Find an item by route reference: a server number/id or a local key. */
export async function buscarLocal(db: DecaDb, ref: string): Promise<DecaLocal | undefined> {
  if (ref.startsWith('l:') || ref.startsWith('s:')) return db.decas.get(ref);
  if (/^\d{4}-\d{6}$/.test(ref)) return db.decas.where('numero').equals(ref).first();
  if (/^\d+$/.test(ref)) return db.decas.where('id').equals(Number(ref)).first();
  return db.decas.get(ref);
}

/**
 * Refresh one DeCA from the server into the device. One the server no longer
 * has for this user (deleted, or a driver's that is no longer theirs) goes
 * from the device too, unless it holds unsent changes: as the list does.
 */
export async function refrescarDeca(api: Api, db: DecaDb, ref: string): Promise<void> {
  try {
    const r = await api.llamar('ver_deca', { id: ref });
    await guardarDelServidor(db, [r.data.deca]);
  } catch (err) {
    // Only a server reference (id or number): a local key is not one the server could know.
    if (err instanceof ApiError && err.status === 404 && /^(\d+|\d{4}-\d{6})$/.test(ref)) {
      await db.transaction('rw', db.decas, async () => {
        const rec = await buscarLocal(db, ref);
        if (rec && rec.id !== undefined && rec.pendientes === 0) await db.decas.delete(rec.clave);
      });
    }
    throw err;
  }
}

/** History of a DeCA from the server, kept on the item for offline reading. */
export async function cargarCambios(api: Api, db: DecaDb, rec: DecaLocal): Promise<Cambio[]> {
  // Not on the server yet (created with no coverage): no history but the device's.
  if (rec.id === undefined) return rec.cambios ?? [];
  const r = await api.llamar('historial_deca', { id: rec.id });
  await db.decas.update(rec.clave, { cambios: r.data.cambios });
  return r.data.cambios;
}

/** The stored PDF and QR of the current version, if this device has them. */
export async function documentosGuardados(db: DecaDb, d: Deca): Promise<Documento | undefined> {
  const doc = await db.documentos.get(d.id);
  return doc && doc.version === d.version ? doc : undefined;
}

/** PDF and QR of an issued DeCA: from the device when current, else from the server (and kept). */
export async function obtenerDocumentos(api: Api, db: DecaDb, d: Deca): Promise<Documento> {
  const guardado = await documentosGuardados(db, d);
  if (guardado) return guardado;
  const [pdf, qr] = await Promise.all([api.bytes('pdf_deca', { id: d.id }), api.bytes('qr_deca', { id: d.id })]);
  const doc: Documento = { id: d.id, version: d.version, pdf_sha256: d.pdf_sha256, pdf, qr, fecha_transporte: d.fecha_transporte, guardado: Date.now() };
  await db.documentos.put(doc);
  return doc;
}

/** `YYYY-MM-DD` of `dias` from today in local time. */
export function fechaRelativa(dias: number, hoy = new Date()): string {
  const d = new Date(hoy.getFullYear(), hoy.getMonth(), hoy.getDate() + dias);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** Bytes from base64 (the road documents travel as JSON). */
function desdeBase64(b64: string): ArrayBuffer {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out.buffer;
}

/** `id.version` of the documents already on the device, within what one query string may carry. */
async function yaGuardados(db: DecaDb): Promise<string> {
  const docs = (await db.documentos.toArray()).sort((a, b) => b.id - a.id);
  let tengo = '';
  for (const d of docs) {
    const par = `${d.id}.${d.version}`;
    if (tengo.length + par.length + 1 > 5_900) break;
    tengo = tengo ? `${tengo},${par}` : par;
  }
  return tengo;
}

/**
 * For the road: every issued DeCA with a transport date from 7 days ago to
 * 7 days ahead is kept on the device with its PDF and QR, so the driver can
 * show it to an inspector with no coverage (Orden FOM/2861/2012 art. 6); the
 * copy of one issued here with no coverage is let go with them, once the
 * server's has been stored and checked.
 * One request (`GET /camino`) brings what is missing; the window is the
 * server's, so a phone whose date is wrong neither skips nor drops today's
 * documents. A copy is let go only when its transport date is outside that
 * window; the server's date is kept as the last one known.
 */
export async function guardarParaElCamino(api: Api, db: DecaDb): Promise<number> {
  const tengo = await yaGuardados(db);
  const r = await api.llamar('documentos_camino', tengo ? { tengo } : {});
  const { hoy, desde, hasta, documentos } = r.data;
  await guardarDelServidor(
    db,
    documentos.map((d) => d.deca),
  );
  await db.transaction('rw', [db.documentos, db.meta, db.emitidas, db.decas], async () => {
    for (const { deca, pdf, qr } of documentos) {
      if (pdf && qr) {
        await db.documentos.put({
          id: deca.id,
          version: deca.version,
          pdf_sha256: deca.pdf_sha256,
          pdf: desdeBase64(pdf),
          qr: desdeBase64(qr),
          fecha_transporte: deca.fecha_transporte,
          guardado: Date.now(),
        });
      } else {
        await db.documentos.update(deca.id, { fecha_transporte: deca.fecha_transporte });
      }
    }
    const vigentes = new Set(documentos.map((d) => d.deca.id));
    const fuera = await db.documentos.filter((doc) => !vigentes.has(doc.id) && (!doc.fecha_transporte || doc.fecha_transporte < desde || doc.fecha_transporte > hasta)).primaryKeys();
    await db.documentos.bulkDelete(fuera);
    // A DeCA issued here with no coverage: its own copy goes the same way, but only once the server's was stored
    // and checked against it (`coincide` set), never before: until then it is the one shown on the road.
    for (const e of await db.emitidas.filter((x) => x.coincide !== undefined).toArray()) {
      const rec = await db.decas.get(e.clave);
      const f = rec?.fecha_transporte;
      if (f && f >= desde && f <= hasta) continue;
      await db.emitidas.delete(e.clave);
      if (rec?.offline) await db.decas.update(e.clave, { offline: undefined });
    }
    await db.meta.put({ clave: 'fecha-servidor', valor: hoy });
  });
  return documentos.length;
}
