import type { Deca } from '../../shared/schemas/deca';
import { type Listener, TODAS } from '../db/notify';
import type { AccountRow, ApiKeyRow } from '../db/schema';

/** Generation counters per id bucket: a fill that started before an invalidation of its id is not stored. */
const BUCKETS = 1024;

/** Taken before a read that may fill the cache; the fill is stored only if nothing it depends on was invalidated since. */
export interface Sello {
  /** The id bucket watched, or null to watch every invalidation (when the id is not known before reading). */
  bucket: number | null;
  generation: number;
}

/**
 * An in-process LRU cache whose entries are dropped when the database says
 * the row behind them changed (NOTIFY from a trigger, see db/notify.ts). While
 * the LISTEN connection is down nothing is read from or written to it: a
 * missed notification must never leave a stale entry behind.
 *
 * Race: a read that began before a change may finish after its notification
 * arrived; storing its result would keep the old value for good. So a fill
 * takes a `Sello` before reading (the generation of its id's bucket, or of
 * the whole cache when the id is not known yet) and is stored only if no
 * invalidation it depends on happened meanwhile.
 */
export class CacheInvalidable<V> {
  private readonly map = new Map<string, V>();
  private readonly gens = new Uint32Array(BUCKETS);
  private global = 0;

  constructor(
    private readonly max: number,
    private readonly enabled: () => boolean,
    /** The id an entry is invalidated by. */
    private readonly idOf: (v: V) => number,
  ) {}

  get(key: string): V | undefined {
    if (!this.enabled()) return undefined;
    const v = this.map.get(key);
    if (v !== undefined) {
      // Refresh its place in the LRU order.
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }

  /** The seal for a value of `id` read from now on. */
  sello(id: number): Sello {
    const bucket = id % BUCKETS;
    return { bucket, generation: this.gens[bucket]! };
  }

  /** The seal for a value whose id is learnt only by reading it. */
  selloGeneral(): Sello {
    return { bucket: null, generation: this.global };
  }

  set(key: string, value: V, sello: Sello): void {
    if (!this.enabled()) return;
    const vigente = sello.bucket === null ? this.global === sello.generation : this.idOf(value) % BUCKETS === sello.bucket && this.gens[sello.bucket] === sello.generation;
    if (!vigente) return;
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value as string);
  }

  /** Drop every entry for `id` (and fence fills in flight). */
  invalidate(id: number): void {
    this.gens[id % BUCKETS] = (this.gens[id % BUCKETS]! + 1) >>> 0;
    this.global = (this.global + 1) >>> 0;
    for (const [k, v] of this.map) if (this.idOf(v) === id) this.map.delete(k);
  }

  /** Drop entries matching `pred` (and fence every fill in flight). */
  invalidateWhere(pred: (v: V) => boolean): void {
    for (let i = 0; i < BUCKETS; i++) this.gens[i] = (this.gens[i]! + 1) >>> 0;
    this.global = (this.global + 1) >>> 0;
    for (const [k, v] of this.map) if (pred(v)) this.map.delete(k);
  }

  clear(): void {
    this.invalidateWhere(() => true);
  }

  get size(): number {
    return this.map.size;
  }
}

/** A DeCA as shown (GET /decas/{id}), with the owner it may be shown to. */
export interface DecaCacheada {
  accountId: number;
  entorno: string;
  id: number;
  deca: Deca;
}

/** An API key as found by its hash, with its account. */
export interface ClaveEncontrada {
  key: ApiKeyRow;
  account: AccountRow;
}

/** What a server process keeps in memory to answer the hot reads without the database. */
export interface Caches {
  /** Presented DeCAs by `account:entorno:id`. */
  decas: CacheInvalidable<DecaCacheada>;
  /** `account:entorno:numero` → id (a number never moves to another DeCA); bounded, cleared when full. */
  numeros: Map<string, number>;
  /** API keys (and their account) by the key's sha256. */
  claves: CacheInvalidable<ClaveEncontrada>;
  /** Public opens seen lately (DeCA, resource, IP, browser → time): repeats are not written again. */
  aperturas: Map<string, number>;
  close(): void;
}

/**
 * The caches of one process, kept true by the database's notifications:
 * a changed or deleted DeCA, a revoked (or used) key, an account whose plan or
 * confirmation changed. Without a listener (tools, some tests) nothing is cached.
 */
export function createCaches(listener: Listener | null, opts: { decas?: number; claves?: number } = {}): Caches {
  const enabled = () => listener?.healthy() ?? false;
  const decas = new CacheInvalidable<DecaCacheada>(opts.decas ?? 10_000, enabled, (v) => v.id);
  const claves = new CacheInvalidable<ClaveEncontrada>(opts.claves ?? 10_000, enabled, (v) => v.key.id);
  const numeros = new Map<string, number>();
  const unsubscribe = listener
    ? [
        listener.on('decas', (id) => {
          if (id !== TODAS) return decas.invalidate(Number(id));
          // A month let go (server/db/particiones.ts): no trigger fires for a dropped partition's rows.
          decas.clear();
          numeros.clear();
        }),
        listener.on('claves', (id) => claves.invalidate(Number(id))),
        listener.on('cuentas', (id) => claves.invalidateWhere((c) => c.account.id === Number(id))),
        listener.onReconnect(() => {
          decas.clear();
          claves.clear();
        }),
      ]
    : [];
  const aperturas = new Map<string, number>();
  return {
    decas,
    numeros,
    claves,
    aperturas,
    close() {
      aperturas.clear();
      for (const u of unsubscribe) u();
      decas.clear();
      claves.clear();
      numeros.clear();
    },
  };
}
