/**
 * The address book on the device: a copy of the account's agenda (companies,
 * vehicles, places), refreshed while online, and entries learned here from
 * the DeCAs made on this device (also with no coverage, before the server has
 * learned them from the same DeCAs). The form's suggestions read only this
 * copy, so they work in a cab with no network.
 */

import type { EntradaDe } from '../../shared/api/operaciones';
import { normalizarTexto } from '../../shared/rules/busqueda';
import { normalizarMatricula } from '../../shared/rules/matricula';
import type { AgendaEmpresa, AgendaList, AgendaLugar, AgendaVehiculo, TipoAgenda } from '../../shared/schemas/agenda';
import { type Api, ApiError, type Respuesta } from './api';
import type { DatosDeca, DecaDb, EntradaAgendaLocal, EntradaOutbox } from './db';

// The schema module's TIPOS_AGENDA would bring zod into the chunk that refreshes the copy.
const TIPOS: readonly TipoAgenda[] = ['empresas', 'vehiculos', 'lugares'];

/** Entries kept per type: the most used first, as the server orders them. */
export const AGENDA_MAXIMA = 500;

/** The key that makes an entry unique in its type, as the server's agenda does (NIF, plate, text). */
export function claveAgenda(tipo: TipoAgenda, datos: { nif?: string | null; matricula?: string | null; texto?: string | null }): string {
  if (tipo === 'empresas') return (datos.nif ?? '').replace(/[\s.-]/g, '').toUpperCase();
  if (tipo === 'vehiculos') return normalizarMatricula(datos.matricula ?? '');
  return normalizarTexto(datos.texto ?? '');
}

function desdeServidor(tipo: TipoAgenda, e: AgendaEmpresa | AgendaVehiculo | AgendaLugar): EntradaAgendaLocal {
  const { id, usos, ultimo_uso, avisos: _, ...resto } = e;
  const datos = resto as Record<string, string | null>;
  return { tipo, clave: claveAgenda(tipo, datos), datos, usos, ultimo: ultimo_uso, id };
}

/** The ids an address-book change still queued here stands for (the entry, and a merge's other one). */
function idsEnCola(entradas: EntradaOutbox[]): Set<number> {
  return new Set(entradas.flatMap((e) => [e.body.id, e.body.otra]).filter((n): n is number => typeof n === 'number'));
}

/**
 * Replace this device's copy with the server's (up to AGENDA_MAXIMA per
 * type). Entries learned here that the server does not list yet are kept:
 * their DeCA may still be waiting in the outbox.
 */
export async function refrescarAgenda(api: Api, db: DecaDb): Promise<void> {
  for (const tipo of TIPOS) {
    const filas: EntradaAgendaLocal[] = [];
    let despues: string | null = null;
    do {
      // Entries to revise too: this copy is also the address book's own screen, where they are fixed (the form skips them).
      const r: Respuesta<AgendaList> = await api.llamar(`buscar_agenda_${tipo}`, { limite: 100, con_avisos: '1', ...(despues ? { despues_de: despues } : {}) });
      filas.push(...r.data.entradas.map((e) => desdeServidor(tipo, e)));
      despues = r.data.siguiente;
    } while (despues && filas.length < AGENDA_MAXIMA);
    await db.transaction('rw', db.agenda, db.outbox, async () => {
      // An entry edited here and not sent yet keeps the edit: the server's answer to it replaces it. An entry
      // changed, deleted or merged here keeps the server's copy away until the change has gone.
      const cola = await db.outbox.where('clave').startsWith(`agenda:${tipo}:`).toArray();
      const enCola = new Set(cola.map((e) => e.clave.slice(`agenda:${tipo}:`.length)));
      const ids = idsEnCola(cola);
      const delServidor = new Set(filas.map((f) => f.clave));
      await db.agenda
        .where('tipo')
        .equals(tipo)
        .filter((e) => !enCola.has(e.clave) && (!e.local || delServidor.has(e.clave)))
        .delete();
      await db.agenda.bulkPut(filas.slice(0, AGENDA_MAXIMA).filter((f) => !enCola.has(f.clave) && !(f.id !== undefined && ids.has(f.id))));
    });
  }
}

const texto = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

/** What a DeCA's data teaches the address book: both parties, the vehicle, every place. */
export function leccionDe(datos: DatosDeca): EntradaAgendaLocal[] {
  const out: EntradaAgendaLocal[] = [];
  const ahora = new Date().toISOString();
  for (const lado of ['cargador', 'transp'] as const) {
    const nombre = texto(datos[`${lado}_nombre`]);
    const nif = texto(datos[`${lado}_nif`]);
    if (nombre && nif)
      out.push({
        tipo: 'empresas',
        clave: claveAgenda('empresas', { nif }),
        datos: {
          nombre,
          nif: claveAgenda('empresas', { nif }),
          domicilio: texto(datos[`${lado}_domicilio`]),
          cp: texto(datos[`${lado}_cp`]),
          municipio: texto(datos[`${lado}_municipio`]),
          provincia: texto(datos[`${lado}_provincia`]),
          pais: texto(datos[`${lado}_pais`]),
        },
        usos: 1,
        ultimo: ahora,
        local: 1,
      });
  }
  const matricula = texto(datos.matricula);
  if (matricula) {
    const remolque = texto(datos.matricula_remolque);
    out.push({
      tipo: 'vehiculos',
      clave: claveAgenda('vehiculos', { matricula }),
      datos: {
        matricula: normalizarMatricula(matricula),
        matricula_remolque: remolque ? normalizarMatricula(remolque) : null,
        conductor_nombre: texto(datos.conductor_nombre),
        conductor_tel: texto(datos.conductor_tel),
      },
      usos: 1,
      ultimo: ahora,
      local: 1,
    });
  }
  const envios = Array.isArray(datos.envios) ? (datos.envios as Record<string, unknown>[]) : [];
  for (const lugar of new Set(envios.flatMap((e) => [texto(e.origen), texto(e.destino)]).filter((l): l is string => Boolean(l)))) {
    out.push({ tipo: 'lugares', clave: claveAgenda('lugares', { texto: lugar }), datos: { texto: lugar }, usos: 1, ultimo: ahora, local: 1 });
  }
  return out;
}

/** Learn from a DeCA made on this device: new entries are added, known ones count one more use and take the newer data. */
export async function aprenderEnDispositivo(db: DecaDb, datos: DatosDeca): Promise<void> {
  const leccion = leccionDe(datos);
  if (!leccion.length) return;
  await db.transaction('rw', db.agenda, async () => {
    for (const e of leccion) {
      const antes = await db.agenda.get([e.tipo, e.clave]);
      const limpios = Object.fromEntries(Object.entries(e.datos).filter(([, v]) => v !== null));
      await db.agenda.put(antes ? { ...antes, datos: { ...antes.datos, ...limpios }, usos: antes.usos + 1, ultimo: e.ultimo } : e);
    }
  });
}

/** A type's entries, the most used first, then the most recent. */
export async function entradasAgenda(db: DecaDb, tipo: TipoAgenda): Promise<EntradaAgendaLocal[]> {
  const todas = await db.agenda.where('tipo').equals(tipo).toArray();
  return todas.sort((a, b) => b.usos - a.usos || (b.ultimo ?? '').localeCompare(a.ultimo ?? ''));
}

/** The entry an outbox lane `agenda:<tipo>:<clave>` stands for. */
export function deCarril(carril: string): { tipo: TipoAgenda; clave: string } {
  const [, tipo, ...resto] = carril.split(':');
  return { tipo: tipo as TipoAgenda, clave: resto.join(':') };
}

/**
 * Send an address-book entry saved on this device (an outbox entry of its
 * lane): the server keeps it or updates the one with the same key, and its
 * answer replaces the local copy unless a newer edit of it still waits.
 */
export async function enviarAgenda(api: Api, db: DecaDb, e: EntradaOutbox): Promise<void> {
  const { tipo } = deCarril(e.clave);
  const opts = { idempotencyKey: e.idempotencyKey };
  if (e.agenda === 'eliminar') {
    try {
      await api.llamar(`eliminar_agenda_${tipo}`, e.body as EntradaDe<`eliminar_agenda_${typeof tipo}`>, opts);
    } catch (err) {
      // Already gone (deleted or merged elsewhere): the intent is met.
      if (!(err instanceof ApiError && err.status === 404)) throw err;
    }
    await db.outbox.delete(e.seq!);
    return;
  }
  const r =
    e.agenda === 'cambiar'
      ? await api.llamar(`cambiar_agenda_${tipo}`, e.body as EntradaDe<`cambiar_agenda_${typeof tipo}`>, opts)
      : e.agenda === 'fusionar'
        ? await api.llamar(`fusionar_agenda_${tipo}`, e.body as EntradaDe<`fusionar_agenda_${typeof tipo}`>, opts)
        : await api.llamar(`guardar_agenda_${tipo}`, e.body as EntradaDe<`guardar_agenda_${typeof tipo}`>, opts);
  const nueva = desdeServidor(tipo, r.data.entrada);
  await db.transaction('rw', db.agenda, db.outbox, async () => {
    await db.outbox.delete(e.seq!);
    if ((await db.outbox.where('clave').equals(e.clave).count()) > 0) return;
    // The server's copy stands for the entry; an older copy of it under another key (before a change) goes.
    await db.agenda
      .where('tipo')
      .equals(tipo)
      .filter((a) => a.id === nueva.id && a.clave !== nueva.clave)
      .delete();
    await db.agenda.put(nueva);
  });
}

/**
 * Drop a refused address-book change at the user's request: the entry as
 * saved here goes too, and the server's copy (if it has one) comes back with
 * the next refresh, asked for at once when online.
 */
export async function descartarAgenda(api: Api, db: DecaDb, seq: number): Promise<void> {
  await db.transaction('rw', db.agenda, db.outbox, async () => {
    const e = await db.outbox.get(seq);
    if (!e) return;
    await db.outbox.delete(seq);
    if ((await db.outbox.where('clave').equals(e.clave).count()) > 0) return;
    const { tipo, clave } = deCarril(e.clave);
    await db.agenda.delete([tipo, clave]);
  });
  if (navigator.onLine) await refrescarAgenda(api, db).catch(() => {});
}
