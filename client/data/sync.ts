import type { EntradaDe } from '../../shared/api/operaciones';
import type { Deca } from '../../shared/schemas/deca';
import { type Api, ApiError, esTransitorio, NetworkError } from './api';
import type { DecaDb, DecaLocal, EntradaOutbox } from './db';
import { datosDeDeca, recalcular } from './outbox';

/** Backoff after a failed attempt: 2 s, 4 s, 8 s … capped at 5 min, ±20 % jitter. */
export function retraso(intentos: number, random: () => number = Math.random, retryAfterS: number | null = null): number {
  const base = Math.min(2000 * 2 ** Math.max(0, intentos - 1), 300_000);
  const jitter = base * (0.8 + 0.4 * random());
  return Math.max(Math.round(jitter), (retryAfterS ?? 0) * 1000);
}

export type EstadoSync =
  | { fase: 'inactivo' }
  | { fase: 'enviando' }
  /** Waiting for the next attempt (backoff), with the time it is due. */
  | { fase: 'esperando'; hasta: number; motivo: string }
  /** The session ended: nothing is sent until the user signs in again (work is kept). */
  | { fase: 'sesion' }
  | { fase: 'sin-conexion' };

export interface SyncDeps {
  db: DecaDb;
  api: Api;
  now?: () => number;
  random?: () => number;
  /** Web Locks; null → the lease fallback in the database. */
  locks?: LockManager | null;
  isOnline?: () => boolean;
}

export interface ResultadoDrenaje {
  enviadas: number;
  rechazadas: number;
  /** Entries left, and when the next one is due (null: none waiting on time). */
  pendientes: number;
  proximo: number | null;
  estado: EstadoSync;
  /** Another tab holds the lock and drains. */
  ocupado?: boolean;
}

const LEASE_MS = 30_000;
/**
 * A tab that finds the queue busy (another tab, or the service worker's
 * Background Sync) looks again after this long: the other may have read the
 * queue just before the user's «Reintentar», and must not make them wait.
 * Looking costs one IndexedDB count.
 */
const OCUPADO_MS = 2_000;
/** Server failures (5xx, 429, conflicts) after which an entry is shown as stuck instead of retried. */
export const MAX_FALLOS_SERVIDOR = 10;
/** …or this long after its first server failure. Network errors never make an entry stuck. */
export const ATASCO_MS = 86_400_000;

/**
 * A lane per DeCA: order is kept within one DeCA, never across DeCAs. Of
 * each lane only its first entry may go; a lane whose head was refused or is
 * stuck waits for the user, and so does the DeCA a queued replacement will
 * create. Returns the heads that are due now, in queue order, and the next
 * head waiting out its backoff.
 */
export function cabezasDeCarril(cola: readonly EntradaOutbox[], now: number): { listas: EntradaOutbox[]; siguiente: EntradaOutbox | null } {
  const ordenada = [...cola].sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
  const porNacer = new Set(ordenada.flatMap((e) => (e.tipo === 'sustituir' && e.nueva ? [e.nueva] : [])));
  const vistas = new Set<string>();
  const listas: EntradaOutbox[] = [];
  let siguiente: EntradaOutbox | null = null;
  for (const e of ordenada) {
    if (vistas.has(e.clave)) continue;
    vistas.add(e.clave);
    if (e.estado !== 'pendiente' || porNacer.has(e.clave)) continue;
    if (e.proximo <= now) listas.push(e);
    else if (!siguiente || e.proximo < siguiente.proximo) siguiente = e;
  }
  return { listas, siguiente };
}

/**
 * The operation of the API each queued change of a DeCA replays (the
 * operation table's name: shared/api). Creating and deleting are sent apart;
 * address-book entries and photos by their own lanes.
 */
const OPERACION_DE = {
  modificar: 'modificar_deca',
  emitir: 'emitir_deca',
  fin: 'fin_servicio',
  control: 'control_carretera',
  archivar: 'archivar_deca',
  sustituir: 'sustituir_deca',
} as const satisfies Record<Exclude<EntradaOutbox['tipo'], 'crear' | 'eliminar' | 'agenda' | 'foto' | 'entrega'>, string>;

/** The 409 that means a change is already in place: replaying it is success, not a refusal. */
const YA_HECHO: Partial<Record<EntradaOutbox['tipo'], string>> = { emitir: 'emitido', fin: 'servicio_finalizado' };

/** Write an item from a server copy, keeping any queued change on top (never clobbers unsent work). */
export async function guardarDelServidor(db: DecaDb, decas: Deca[]): Promise<void> {
  if (decas.length === 0) return;
  await db.transaction('rw', db.decas, db.outbox, async () => {
    for (const d of decas) {
      const rec = (await db.decas.where('id').equals(d.id).first()) ?? (await db.decas.where('numero').equals(d.numero).first());
      const base: DecaLocal = rec ?? {
        clave: `s:${d.id}`,
        ref_temporal: null,
        deca: d,
        datos: {},
        estado: d.estado,
        archivado: 0,
        fecha_transporte: '',
        orden: d.id,
        pendientes: 0,
        rechazo: null,
        actualizado: Date.now(),
      };
      await db.decas.put({ ...base, id: d.id, numero: d.numero, deca: d, datos: datosDeDeca(d), estado: d.estado, orden: d.id, actualizado: Date.now() });
      await recalcular(db, base.clave);
    }
  });
}

/**
 * Replays the outbox in order against the API. One tab at a time drains
 * (Web Locks, or a lease row when the browser has none); each entry carries
 * the Idempotency-Key it was queued with, so a request that reached the
 * server but whose answer was lost is answered again, never done twice.
 */
export class SyncEngine {
  private readonly db: DecaDb;
  private readonly api: Api;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly locks: LockManager | null;
  private readonly isOnline: () => boolean;
  private readonly owner = Math.random().toString(36).slice(2);
  private timer: ReturnType<typeof setTimeout> | null = null;
  private corriendo: Promise<ResultadoDrenaje> | null = null;
  private otraVez = false;
  private pausadoPorSesion = false;
  private readonly oyentes = new Set<(e: EstadoSync) => void>();
  private estadoActual: EstadoSync = { fase: 'inactivo' };
  private readonly quitar: (() => void)[] = [];

  constructor(deps: SyncDeps) {
    this.db = deps.db;
    this.api = deps.api;
    this.now = deps.now ?? Date.now;
    this.random = deps.random ?? Math.random;
    this.locks = deps.locks === undefined ? (globalThis.navigator?.locks ?? null) : deps.locks;
    this.isOnline = deps.isOnline ?? (() => globalThis.navigator?.onLine ?? true);
  }

  get estado(): EstadoSync {
    return this.estadoActual;
  }

  onEstado(fn: (e: EstadoSync) => void): () => void {
    this.oyentes.add(fn);
    fn(this.estadoActual);
    return () => this.oyentes.delete(fn);
  }

  private poner(e: EstadoSync): void {
    this.estadoActual = e;
    for (const fn of this.oyentes) fn(e);
  }

  /**
   * Drain now and on `despertar`'s signals (the page passes the network
   * coming back and the app shown again; the service worker, nothing), and
   * on the backoff timer. Kept free of page globals so the service worker
   * runs the same engine for Background Sync.
   */
  start(despertar: (wake: () => void) => () => void = () => () => {}): void {
    this.quitar.push(despertar(() => void this.drain()));
    void this.drain();
  }

  stop(): void {
    for (const q of this.quitar.splice(0)) q();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** The user signed in again: replay what waited for the session. */
  reanudar(): Promise<ResultadoDrenaje> {
    this.pausadoPorSesion = false;
    return this.drain();
  }

  /** One pass (coalesced: a call during a pass runs one more pass after it). */
  drain(): Promise<ResultadoDrenaje> {
    if (this.corriendo) {
      this.otraVez = true;
      return this.corriendo;
    }
    this.corriendo = (async () => {
      let r: ResultadoDrenaje;
      do {
        this.otraVez = false;
        r = await this.conCandado(() => this.pasada());
        // A wake during the pass (the network back, a new change) gets a pass of its own, whatever this one
        // found: a pass that saw no network must not swallow the «online» that came just after it looked.
      } while (this.otraVez && !r.ocupado);
      // Another tab (or the service worker) is draining: look again later, in case it stops first.
      if (r.ocupado) this.programar(r.proximo);
      return r;
    })().finally(() => {
      this.corriendo = null;
    });
    return this.corriendo;
  }

  private programar(proximo: number | null): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    // Only a page keeps timers (the service worker is woken by the browser; tests drain by hand).
    if (proximo === null || !('document' in globalThis)) return;
    this.timer = setTimeout(() => void this.drain(), Math.max(0, proximo - this.now()));
  }

  private async conCandado(fn: () => Promise<ResultadoDrenaje>): Promise<ResultadoDrenaje> {
    const ocupado: ResultadoDrenaje = {
      enviadas: 0,
      rechazadas: 0,
      pendientes: await this.db.outbox.count(),
      proximo: this.now() + OCUPADO_MS,
      estado: this.estadoActual,
      ocupado: true,
    };
    const nombre = `deca-sync:${this.db.name}`;
    if (this.locks) {
      const r = await this.locks.request(nombre, { ifAvailable: true }, async (lock) => (lock ? fn() : null));
      return r ?? ocupado;
    }
    if (!(await this.tomarLease())) return ocupado;
    try {
      return await fn();
    } finally {
      await this.soltarLease();
    }
  }

  /** Only the lease's owner releases it: a lease that expired and was taken by another tab stays theirs. */
  private soltarLease(): Promise<void> {
    return this.db.transaction('rw', this.db.meta, async () => {
      const l = (await this.db.meta.get('sync-lease'))?.valor as { owner: string } | undefined;
      if (l?.owner === this.owner) await this.db.meta.delete('sync-lease');
    });
  }

  /** Fallback for browsers without Web Locks: a time-limited lease row, taken atomically in IndexedDB. */
  private tomarLease(): Promise<boolean> {
    return this.db.transaction('rw', this.db.meta, async () => {
      const l = (await this.db.meta.get('sync-lease'))?.valor as { owner: string; hasta: number } | undefined;
      if (l && l.owner !== this.owner && l.hasta > this.now()) return false;
      await this.db.meta.put({ clave: 'sync-lease', valor: { owner: this.owner, hasta: this.now() + LEASE_MS } });
      return true;
    });
  }

  private async pasada(): Promise<ResultadoDrenaje> {
    let enviadas = 0;
    let rechazadas = 0;
    const fin = async (estado: EstadoSync, proximo: number | null): Promise<ResultadoDrenaje> => {
      this.poner(estado);
      this.programar(proximo);
      return { enviadas, rechazadas, pendientes: await this.db.outbox.count(), proximo, estado };
    };
    if (this.pausadoPorSesion) return fin({ fase: 'sesion' }, null);
    if (!this.isOnline()) return fin({ fase: 'sin-conexion' }, null);

    for (;;) {
      const { listas, siguiente } = cabezasDeCarril(await this.db.outbox.toArray(), this.now());
      const e = listas[0];
      if (!e) {
        if (!siguiente) return fin({ fase: 'inactivo' }, null);
        return fin({ fase: 'esperando', hasta: siguiente.proximo, motivo: siguiente.ultimoError ?? '' }, siguiente.proximo);
      }

      this.poner({ fase: 'enviando' });
      if (!this.locks && !(await this.tomarLease())) return fin(this.estadoActual, this.now() + OCUPADO_MS);
      try {
        await this.enviar(e);
        enviadas++;
      } catch (err) {
        if (err instanceof ApiError && err.status === 401) {
          // Session over: keep every entry as it is and ask for a new sign-in before replaying.
          this.pausadoPorSesion = true;
          return fin({ fase: 'sesion' }, null);
        }
        if (esTransitorio(err)) {
          await this.aplazar(e, err);
          // No network at all: the other lanes would fail the same way; wait for it to come back.
          if (err instanceof NetworkError && !this.isOnline()) return fin({ fase: 'sin-conexion' }, null);
          continue;
        }
        await this.rechazar(e, err);
        rechazadas++;
      }
    }
  }

  /**
   * A temporary failure: retry this entry later (backoff, or the server's
   * Retry-After), while the other DeCAs go on. After too many server
   * failures, or a day of them, the entry is stuck: shown to the user with
   * «Reintentar» and «Descartar», never retried blindly forever.
   */
  private async aplazar(e: EntradaOutbox, err: unknown): Promise<void> {
    const ahora = this.now();
    const intentos = e.intentos + 1;
    const motivo = err instanceof NetworkError ? 'Sin conexión' : (err as Error).message;
    const cambios: Partial<EntradaOutbox> = { intentos, ultimoError: motivo };
    if (err instanceof ApiError) {
      const fallos = (e.fallosServidor ?? 0) + 1;
      const primerFallo = e.primerFallo ?? ahora;
      Object.assign(cambios, { fallosServidor: fallos, primerFallo });
      if (fallos >= MAX_FALLOS_SERVIDOR || ahora - primerFallo >= ATASCO_MS) {
        await this.db.transaction('rw', this.db.decas, this.db.outbox, async () => {
          await this.db.outbox.update(e.seq!, { ...cambios, estado: 'atascada' });
          await recalcular(this.db, e.clave);
        });
        return;
      }
    }
    cambios.proximo = ahora + retraso(intentos, this.random, err instanceof ApiError ? err.retryAfterS : null);
    await this.db.outbox.update(e.seq!, cambios);
  }

  /** Keep the refusal on the entry and on the item, with the server's `campos` for the form (a photo's, on the photo). */
  private async rechazar(e: EntradaOutbox, err: unknown): Promise<void> {
    const a = err instanceof ApiError ? err : new ApiError(0, 'error_cliente', (err as Error)?.message ?? String(err));
    // A refused photo has nothing to correct and resend: the refusal stays on the photo, the entry goes.
    if (e.tipo === 'foto') {
      const { rechazarFoto } = await import('./fotos');
      return rechazarFoto(this.db, e, a);
    }
    await this.db.transaction('rw', this.db.decas, this.db.outbox, async () => {
      await this.db.outbox.update(e.seq!, { estado: 'rechazada', intentos: e.intentos + 1, ultimoError: a.message });
      const rec = await this.db.decas.get(e.clave);
      if (rec) {
        await this.db.decas.put({ ...rec, rechazo: { codigo: a.codigo, mensaje: a.message, campos: a.campos, seq: e.seq!, status: a.status } });
        await recalcular(this.db, e.clave);
      }
    });
  }

  /** Send one entry and apply the answer; throws ApiError/NetworkError as the server or network did. */
  private async enviar(e: EntradaOutbox): Promise<void> {
    if (e.tipo === 'agenda') {
      const { enviarAgenda } = await import('./agenda');
      return enviarAgenda(this.api, this.db, e);
    }
    if (e.tipo === 'foto') {
      const { enviarFoto } = await import('./fotos');
      return enviarFoto(this.api, this.db, e);
    }
    const rec = await this.db.decas.get(e.clave);
    const opts = { idempotencyKey: e.idempotencyKey };
    if (e.tipo === 'crear') {
      const r = await this.api.llamar('crear_deca', e.body as EntradaDe<'crear_deca'>, opts);
      const repetida = r.data.avisos.find((a) => a.codigo === 'ref_externa_repetida');
      if (repetida) {
        // The server handed back ANOTHER DeCA that owns this ref_externa: this item was not created.
        throw new ApiError(409, 'ref_externa_usada', repetida.mensaje, { ref_externa: `Ya es de la DeCA ${r.data.deca.numero}` });
      }
      await this.aplicar(e, e.clave, r.data.deca);
      return;
    }
    if (!rec?.id) {
      throw new ApiError(0, 'sin_numero', 'Esta DeCA aún no existe en el servidor: envíe antes su creación.');
    }
    const id = rec.id;
    const ver = async () => (await this.api.llamar('ver_deca', { id })).data.deca;
    try {
      if (e.tipo === 'eliminar') {
        await this.api.llamar('eliminar_deca', { id }, opts);
        return await this.quitarItem(e);
      }
      if (e.tipo === 'entrega') {
        const { enviarEntrega } = await import('./entregas');
        return await enviarEntrega(this.api, this.db, e, id);
      }
      const operacion = OPERACION_DE[e.tipo];
      // Every change of a DeCA answers it (inside `{ deca }`), the new one for a replacement.
      const deca = (await this.api.llamar(operacion, { ...e.body, id } as EntradaDe<typeof operacion>, opts)).data.deca;
      if (e.tipo !== 'sustituir') return await this.aplicar(e, e.clave, deca);
      await this.aplicar(e, e.nueva ?? `s:${deca.id}`, deca);
      // The old one is now «sustituido»: refresh it (best effort; the list refresh would too).
      const vieja = await ver().catch(() => null);
      if (vieja) await guardarDelServidor(this.db, [vieja]);
    } catch (err) {
      // Already gone (deleted elsewhere, or our own earlier attempt): the intent is met.
      if (e.tipo === 'eliminar' && err instanceof ApiError && err.status === 404) return this.quitarItem(e);
      // Already in the requested state (an earlier attempt whose answer was lost, or the office): done.
      if (err instanceof ApiError && YA_HECHO[e.tipo] === err.codigo) return await this.aplicar(e, e.clave, await ver());
      throw err;
    }
  }

  private async quitarItem(e: EntradaOutbox): Promise<void> {
    await this.db.transaction('rw', this.db.decas, this.db.outbox, this.db.documentos, async () => {
      const rec = await this.db.decas.get(e.clave);
      await this.db.outbox.where('clave').equals(e.clave).delete();
      await this.db.decas.delete(e.clave);
      if (rec?.id) await this.db.documentos.delete(rec.id);
    });
  }

  /** Server accepted `e`: drop it from the queue and store the answer on the item, in one transaction. */
  private async aplicar(e: EntradaOutbox, clave: string, d: Deca): Promise<void> {
    await this.db.transaction('rw', this.db.decas, this.db.outbox, async () => {
      await this.db.outbox.delete(e.seq!);
      // A copy fetched from the server while the answer was lost may hold the same id: one item only.
      const otra = await this.db.decas.where('id').equals(d.id).first();
      if (otra && otra.clave !== clave) {
        await this.db.outbox.where('clave').equals(otra.clave).modify({ clave });
        await this.db.decas.delete(otra.clave);
      }
      const rec = await this.db.decas.get(clave);
      if (!rec) return;
      await this.db.decas.put({ ...rec, id: d.id, numero: d.numero, deca: d, estado: d.estado, orden: d.id, rechazo: null, actualizado: Date.now() });
      await recalcular(this.db, clave);
    });
  }
}
