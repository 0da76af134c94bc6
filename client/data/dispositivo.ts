import { fueraDePlazo, RESERVA_MINIMO, reservadaSegunCaducidad, reservasUsables } from '../../shared/rules/reservas';
import type { Entorno } from '../../shared/schemas/cuenta';
import type { Dispositivo, ReservasRespuesta } from '../../shared/schemas/dispositivo';
import { type Api, ApiError, llamarApp } from './api';
import type { DecaDb, ReservaLocal } from './db';

/**
 * This device as the server knows it, to issue DeCAs with no coverage: an
 * ECDSA P-256 key pair made here by WebCrypto (the private key cannot be
 * exported: it never leaves the browser's key store, kept in IndexedDB as a
 * CryptoKey), its public key registered for the signed-in user, and the
 * numbers it holds in this environment, refilled while there is coverage.
 */
export interface DispositivoLocal {
  /** The server's id; null until registered. */
  id: number | null;
  nombre: string;
  claves: CryptoKeyPair;
  /** Given up on the account screen (or elsewhere): it holds no numbers and issues nothing offline. */
  revocado?: true;
}

const K_DISPOSITIVO = 'dispositivo';
/** A number about to expire is not used: the DeCA must reach the server as the device's. */
const MARGEN_CADUCIDAD_MS = 3_600_000;

const f: typeof fetch = (...a) => fetch(...a);

/** «Android · Chrome», «Windows · Firefox»: enough to tell one's devices apart on the account screen. */
export function nombreDelDispositivo(ua = navigator.userAgent): string {
  const so = /Android/.test(ua) ? 'Android' : /iPhone|iPad/.test(ua) ? 'iPhone/iPad' : /Windows/.test(ua) ? 'Windows' : /Mac OS X/.test(ua) ? 'Mac' : /Linux/.test(ua) ? 'Linux' : 'Dispositivo';
  const nav = /Edg\//.test(ua) ? 'Edge' : /Firefox\//.test(ua) ? 'Firefox' : /Chrome\/|Chromium\//.test(ua) ? 'Chrome' : /Safari\//.test(ua) ? 'Safari' : 'navegador';
  return `${so} · ${nav}`;
}

async function leer(db: DecaDb): Promise<DispositivoLocal | undefined> {
  return (await db.meta.get(K_DISPOSITIVO))?.valor as DispositivoLocal | undefined;
}

const guardar = (db: DecaDb, d: DispositivoLocal) => db.meta.put({ clave: K_DISPOSITIVO, valor: d });

/** This device's key pair (made once), registered with the server when not yet. */
async function registrado(db: DecaDb, entorno: Entorno): Promise<DispositivoLocal | null> {
  let d = await leer(db);
  if (d?.revocado) return null;
  if (!d) {
    const claves = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
    d = { id: null, nombre: `${nombreDelDispositivo()}${entorno === 'pruebas' ? ' (pruebas)' : ''}`, claves };
    await guardar(db, d);
  }
  if (d.id === null) {
    const { x, y } = await crypto.subtle.exportKey('jwk', d.claves.publicKey);
    // An ECDSA P-256 public key always exports both coordinates.
    if (!x || !y) throw new Error('No se ha podido leer la clave pública de este dispositivo.');
    const r = await llamarApp(f, 'registrar_dispositivo', { nombre: d.nombre, clave_publica: { kty: 'EC', crv: 'P-256', x, y } });
    d = { ...d, id: r.data.dispositivo.id };
    await guardar(db, d);
  }
  return d;
}

/**
 * The numbers this device may still use, lowest first (the server's rules, an
 * hour short of their expiry). None whose reservation is later than this
 * device's clock: a DeCA issued with it would be dated before its number
 * existed, and the server would refuse it (the clock is behind; it waits for
 * coverage instead).
 */
export async function reservasUsablesEnDispositivo(db: DecaDb, ahora = Date.now()): Promise<ReservaLocal[]> {
  const todas = await db.reservas.toArray();
  const t = new Date(ahora);
  const reservada = (r: ReservaLocal) => (r.reservada_at ? new Date(r.reservada_at) : reservadaSegunCaducidad(new Date(r.caduca_at)));
  const comoReglas = todas
    .filter((r) => fueraDePlazo(t, reservada(r), t) === null)
    .map((r) => ({ ...r, caduca_at: new Date(Date.parse(r.caduca_at) - MARGEN_CADUCIDAD_MS), usada_at: r.usada ? new Date(0) : null, local: r }));
  return reservasUsables(comoReglas, t).map((r) => r.local);
}

/**
 * With coverage: make sure this device is registered and holds numbers to
 * issue with no coverage in `entorno`. Cheap when it already holds enough
 * (one IndexedDB read). A device given up on the server stops here for good.
 * Errors are the caller's to ignore: the next sync tries again.
 */
export async function mantenerReservas(db: DecaDb, entorno: Entorno, ahora = Date.now()): Promise<void> {
  // One tab of this browser at a time: two at once (the app and the e-mail's confirmation link, say)
  // would each make and register a key of their own, and this browser would be two devices.
  const locks = globalThis.navigator?.locks;
  if (locks) return locks.request(`deca-dispositivo:${db.name}`, () => mantener(db, entorno, ahora));
  return mantener(db, entorno, ahora);
}

async function mantener(db: DecaDb, entorno: Entorno, ahora: number): Promise<void> {
  if ((await reservasUsablesEnDispositivo(db, ahora)).length >= RESERVA_MINIMO) return;
  const d = await registrado(db, entorno);
  if (!d?.id) return;
  let r: ReservasRespuesta;
  try {
    r = (await llamarApp(f, 'reservar_numeros', { id: d.id, entorno })).data;
  } catch (err) {
    // Revoked (409 conflicto) or unknown (404): release what it held; it issues nothing more offline
    // until its user signs in on it again (a new key, a new device on the account screen).
    if (err instanceof ApiError && (err.status === 404 || err.codigo === 'conflicto')) {
      await db.transaction('rw', db.meta, db.reservas, async () => {
        await guardar(db, { ...d, revocado: true });
        await db.reservas.filter((x) => !x.usada).delete();
      });
      return;
    }
    throw err;
  }
  await db.transaction('rw', db.reservas, async () => {
    // The server's answer is every number the device may use, as far as it knows: the ones used
    // here whose DeCA has not reached it yet stay used (a number is never given twice).
    const usadas = new Set((await db.reservas.filter((x) => Boolean(x.usada)).toArray()).map((x) => x.numero));
    await db.reservas.filter((x) => !x.usada).delete();
    await db.reservas.bulkPut(r.reservas.filter((x) => !usadas.has(x.numero)).map((x) => ({ ...x, dispositivo_id: d.id!, capacidad_sello: r.capacidad_sello })));
  });
}

/**
 * The number a DeCA created here with coverage names (`reserva_dispositivo`),
 * so that this device's series reads 1, 2, 3… online as offline: its next
 * usable one, or null (none held, the device not registered or given up),
 * and the server then gives the account's next number.
 */
export async function reservaParaCrear(db: DecaDb): Promise<{ dispositivo_id: number; numero: string } | null> {
  const d = await dispositivoListo(db);
  const [r] = await reservasUsablesEnDispositivo(db);
  return d && r ? { dispositivo_id: d.id, numero: r.numero } : null;
}

/** This device's key pair and server id, when it may issue with no coverage. */
export async function dispositivoListo(db: DecaDb): Promise<(DispositivoLocal & { id: number }) | null> {
  const d = await leer(db);
  return d && d.id !== null && !d.revocado ? (d as DispositivoLocal & { id: number }) : null;
}

/** At sign-in: a device given up gets a new key, registered as a new device (the old key stays refused). */
export async function olvidarSiRevocado(db: DecaDb): Promise<void> {
  if ((await leer(db))?.revocado) await db.meta.delete(K_DISPOSITIVO);
}

/** SHA-256 (hex) of some bytes, by WebCrypto. */
export async function sha256HexWeb(bytes: Uint8Array): Promise<string> {
  const h = new Uint8Array(await crypto.subtle.digest('SHA-256', new Uint8Array(bytes)));
  return Array.from(h, (b) => b.toString(16).padStart(2, '0')).join('');
}
