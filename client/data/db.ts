import Dexie, { type EntityTable } from 'dexie';
import type { Entorno } from '../../shared/schemas/cuenta';
import type { Cambio, Deca, Estado } from '../../shared/schemas/deca';

/** The outbox lane of a photo: one entry, apart from every DeCA's. */
export function carrilFoto(clave: string): string {
  return `foto:${clave}`;
}

/** The outbox entry that sends a photo, with the photo's own Idempotency-Key (a repeat gets the same reading, and spends no second one). */
export function entradaFoto(f: Pick<FotoLocal, 'clave' | 'idempotencyKey' | 'creado'>): EntradaOutbox {
  return { clave: carrilFoto(f.clave), tipo: 'foto', body: {}, idempotencyKey: f.idempotencyKey, estado: 'pendiente', intentos: 0, proximo: 0, ultimoError: null, creado: f.creado };
}

/** A server refusal kept on the item until the user fixes it (never dropped silently). */
export interface Rechazo {
  codigo: string;
  mensaje: string;
  /** Field path (`envios[0].destino`) → message, as the server sent it. */
  campos: Record<string, string>;
  /** The outbox entry that was refused. */
  seq: number;
  status: number;
}

/** The editable data of a DeCA as the forms hold it (the DecaInput / DecaPatch shape). */
export type DatosDeca = Record<string, unknown>;

/**
 * One DeCA as this device knows it: the last copy the server sent (`deca`)
 * and the local view with queued changes applied (`datos`, `estado`…).
 * `clave` never changes: `s:<id>` for DeCAs first seen from the server,
 * `l:<uuid>` for ones created here (they get `id`/`numero` once synced).
 */
export interface DecaLocal {
  clave: string;
  id?: number;
  numero?: string;
  /** Shown until the server number arrives (e.g. «LOCAL-7F3A»). */
  ref_temporal: string | null;
  deca: Deca | null;
  datos: DatosDeca;
  estado: Estado | 'borrador';
  archivado: 0 | 1;
  fecha_transporte: string;
  /** Newest first: the server id, or a large number for items made here. */
  orden: number;
  /** Outbox entries not yet accepted by the server. */
  pendientes: number;
  /** One of its queued changes is stuck (the server kept failing): the user decides. */
  atascada?: 1;
  /** Meant to be issued, but the server has not issued it yet (no coverage): the truck is not covered. */
  porEmitir?: 1;
  /** Issued on this device with no coverage: its number, QR and PDF are in `emitidas` (shown until the server's copy is stored here; let go with the road copies). */
  offline?: 1;
  /** Set once a pending delete is queued: hidden from lists. */
  eliminada?: 1;
  rechazo: Rechazo | null;
  cambios?: Cambio[];
  actualizado: number;
}

/**
 * A change to a DeCA; `agenda`: an address-book entry saved on this device (its lane is `agenda:<tipo>:<clave>`);
 * `foto`: a delivery note's photo to be read (its lane is `foto:<clave>`, the photo itself is in `fotos`);
 * `entrega`: a proof of delivery, in its DeCA's lane (after the DeCA reaches the server), kept in `entregas`.
 */
export type TipoOperacion = 'crear' | 'modificar' | 'emitir' | 'sustituir' | 'fin' | 'archivar' | 'eliminar' | 'control' | 'agenda' | 'foto' | 'entrega';

/** One queued change, replayed in `seq` order with its own Idempotency-Key. */
export interface EntradaOutbox {
  seq?: number;
  clave: string;
  tipo: TipoOperacion;
  body: Record<string, unknown>;
  idempotencyKey: string;
  /** `atascada`: the server kept failing (see sync.ts); waits for «Reintentar» or «Descartar». */
  estado: 'pendiente' | 'rechazada' | 'atascada';
  intentos: number;
  /** Temporary server failures (5xx, 429, conflicts) so far, and when the first one happened. */
  fallosServidor?: number;
  primerFallo?: number;
  /** Epoch ms before which it is not retried (backoff). */
  proximo: number;
  ultimoError: string | null;
  creado: number;
  /** `sustituir`: the local item that stands for the new DeCA until the server numbers it. */
  nueva?: string;
  /** An address-book change other than saving an entry (client/data/agenda.ts): its `body` carries the entry's `id`. */
  agenda?: 'cambiar' | 'eliminar' | 'fusionar';
}

/** PDF and QR bytes of an issued DeCA kept for the road (Orden FOM/2861/2012 art. 6: shown with no coverage). */
export interface Documento {
  id: number;
  version: number;
  pdf_sha256: string | null;
  pdf: ArrayBuffer;
  qr: ArrayBuffer;
  fecha_transporte: string | null;
  guardado: number;
}

/** One address-book entry on the device (client/data/agenda.ts): the server's copy, or learned here. */
export interface EntradaAgendaLocal {
  tipo: 'empresas' | 'vehiculos' | 'lugares';
  /** NIF, plate or normalised text: unique within its type. */
  clave: string;
  datos: Record<string, string | null>;
  usos: number;
  ultimo: string | null;
  /** Learned on this device from a DeCA the server may not have yet. */
  local?: 1;
  /** The server's id of the entry (what a change, deletion or merge names); absent until the server has it. */
  id?: number;
}

/** Where a field was read in a photo: four corners [x, y] as fractions of the photo as seen (POST /fotos `zonas`). */
export type Zona = number[][];

/**
 * A delivery note's photo taken on this device (client/data/fotos.ts): kept
 * with its Idempotency-Key until the server has read it, then its proposal
 * until the user makes the DeCA from it or discards it. While `pendiente`, a
 * `foto` entry of the outbox (lane `foto:<clave>`, same key) sends it.
 * `usada`: a DeCA was made from it (`deca`, the DeCA's key here); kept a while
 * so the DeCA's page shows it with no coverage (consultas.ts lets it go).
 */
export interface FotoLocal {
  clave: string;
  idempotencyKey: string;
  foto: Blob;
  creado: number;
  estado: 'pendiente' | 'lista' | 'error' | 'usada';
  /**
   * The server's reading (POST /fotos): proposal, confidences, recognised text, notes; where each field
   * was read and the photo's id on the server (both absent from readings kept before the server said them).
   */
  lectura?: { propuesta: Record<string, unknown>; confianza: Record<string, number>; texto: string; avisos: string[]; zonas?: Record<string, Zona>; foto_id?: number };
  error?: string;
  deca?: string;
}

/**
 * A DeCA number this device holds for issuing with no coverage (client/data/dispositivo.ts),
 * with what the server said to render it with. `usada`: the item that took it.
 */
export interface ReservaLocal {
  numero: string;
  token: string;
  ficha_url: string;
  /** ISO 8601: when the server reserved it, not used before this (absent on numbers kept from before the server said). */
  reservada_at?: string;
  /** ISO 8601: not used after this. */
  caduca_at: string;
  dispositivo_id: number;
  capacidad_sello: number;
  usada?: string;
}

/** What a DeCA issued on this device with no coverage showed at once: kept for the road, and to compare with the server's. */
export interface EmitidaLocal {
  clave: string;
  numero: string;
  /** The QR's content: the ficha URL with the signed summary. */
  qrUrl: string;
  /** That QR as an SVG document, for the screen. */
  qrSvg: string;
  /** The PDF/A as rendered here (unsealed). */
  pdf: ArrayBuffer;
  /** SHA-256 (hex) of `pdf`. */
  sha256: string;
  emitida_at: string;
  /** After the sync: whether the server's PDF, unsealed, is this one (false: the server's counts). */
  coincide?: boolean;
}

/**
 * A proof of delivery collected on this device (client/data/entregas.ts): what
 * goes to POST /decas/{id}/entregas, the photos as the worker shrank them,
 * and once sent, the server's copy. `clave` is its Idempotency-Key.
 */
export interface EntregaLocal {
  clave: string;
  /** The DeCA's key on this device. */
  deca: string;
  /** The body without its photos (they go as base64 only when sent). */
  datos: Record<string, unknown>;
  /** Let go once the server has them. */
  fotos: Blob[];
  estado: 'pendiente' | 'enviada';
  /** The server's delivery (its number, its receipt) once sent. */
  servidor?: Record<string, unknown>;
  creado: number;
}

export interface Meta {
  clave: string;
  valor: unknown;
}

/** One database per user and environment: production and test data never share a store. */
export class DecaDb extends Dexie {
  decas!: EntityTable<DecaLocal, 'clave'>;
  outbox!: EntityTable<EntradaOutbox, 'seq'>;
  documentos!: EntityTable<Documento, 'id'>;
  meta!: EntityTable<Meta, 'clave'>;
  agenda!: Dexie.Table<EntradaAgendaLocal, [string, string]>;
  fotos!: EntityTable<FotoLocal, 'clave'>;
  reservas!: EntityTable<ReservaLocal, 'numero'>;
  emitidas!: EntityTable<EmitidaLocal, 'clave'>;
  entregas!: EntityTable<EntregaLocal, 'clave'>;

  constructor(name: string) {
    super(name);
    this.version(1).stores({
      decas: 'clave, &id, &numero, orden, estado, fecha_transporte, pendientes',
      outbox: '++seq, clave, estado',
      documentos: 'id, fecha_transporte',
      meta: 'clave',
    });
    // The address book for the form's suggestions, offline too.
    this.version(2).stores({ agenda: '[tipo+clave], tipo' });
    // Delivery-note photos waiting to be read, and their proposals.
    this.version(3).stores({ fotos: 'clave, estado, creado' });
    // Numbers held to issue with no coverage, and what was issued so.
    this.version(4).stores({ reservas: 'numero, caduca_at', emitidas: 'clave' });
    // Photos are sent by the outbox like every other change (Background Sync included): each photo still
    // waiting in the old queue of its own gets its outbox entry, with the key it was kept with.
    this.version(5)
      .stores({})
      .upgrade(async (tx) => {
        const outbox = tx.table<EntradaOutbox, number>('outbox');
        for (const f of await tx.table<FotoLocal, string>('fotos').where('estado').equals('pendiente').sortBy('creado')) {
          const clave = carrilFoto(f.clave);
          if ((await outbox.where('clave').equals(clave).count()) > 0) continue;
          await outbox.add(entradaFoto(f));
        }
      });
    // A photo that became a DeCA stays beside it for a while: found by the DeCA it became.
    this.version(6).stores({ fotos: 'clave, estado, creado, deca' });
    // Proofs of delivery collected here, with or without coverage, by the DeCA they belong to.
    this.version(7).stores({ entregas: 'clave, deca, estado' });
  }
}

/** Database name for a user and environment. */
export function dbName(userId: number, entorno: Entorno): string {
  return `deca-u${userId}-${entorno}`;
}

/** Delete a user's databases of both environments from this device (their account was closed: nothing of it stays here). */
export async function borrarBasesDeUsuario(userId: number): Promise<void> {
  await Promise.all((['produccion', 'pruebas'] as const).map((e) => Dexie.delete(dbName(userId, e)).catch(() => {})));
}

type Aviso = 'otra-version';
const listeners = new Set<(a: Aviso) => void>();

/** Subscribe to database-level notices (a newer schema opened in another tab). */
export function onDbAviso(fn: (a: Aviso) => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/**
 * Open a user's database with the two recoveries a long-lived PWA needs:
 * - the browser closed the connection (iOS Safari after the app sat in the
 *   background, storage pressure): reopen on the next operation instead of
 *   failing every query until reload;
 * - another tab opened a newer schema: close here so its upgrade can run,
 *   and ask the user to reload (never keep writing with an old schema).
 */
export function openDecaDb(name: string): DecaDb {
  const db = new DecaDb(name);
  // Connection lost: Dexie 4 handles IDBDatabase `close` by closing with
  // autoOpen kept on, and retries a transaction that hits InvalidStateError
  // after reopening (test/unit/client/sync.test.ts proves both).
  db.on('versionchange', () => {
    db.close();
    for (const fn of listeners) fn('otra-version');
    return false;
  });
  return db;
}
