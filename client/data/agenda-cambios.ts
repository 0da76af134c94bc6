/**
 * Keeping the device's address book clean (the «Agenda» screen and the
 * form's suggestions): what to revise in an entry, and an entry changed,
 * deleted or merged here at once and sent through the outbox. Apart from
 * agenda.ts, which the list screen loads to refresh the copy, so that
 * screen does not download what only these need (the NIF rule).
 */
import { avisoNif } from '../../shared/rules/nif';
import type { TipoAgenda } from '../../shared/schemas/agenda';
import { claveAgenda, entradasAgenda } from './agenda';
import type { DecaDb, EntradaAgendaLocal } from './db';
import { avisarDeCambio, carrilAgenda, entradaOutbox } from './outbox';

/**
 * What to revise in an entry before it is offered again (the same words as
 * the DeCA form's warning): a company's NIF with a wrong check character.
 * Null when there is nothing.
 */
export function avisoDeEntrada(e: Pick<EntradaAgendaLocal, 'tipo' | 'datos'>): string | null {
  return e.tipo === 'empresas' ? avisoNif(e.datos.nif ?? '') : null;
}

/** What the form suggests: a type's entries without those to revise (a NIF with a wrong check character is never offered). */
export async function sugerenciasAgenda(db: DecaDb, tipo: TipoAgenda): Promise<EntradaAgendaLocal[]> {
  return (await entradasAgenda(db, tipo)).filter((e) => avisoDeEntrada(e) === null);
}

/** Another entry of the type already has this key (NIF, plate, place): the change would make two of one. */
export class ClaveRepetida extends Error {
  constructor(readonly otra: EntradaAgendaLocal) {
    super('Ya hay otra entrada con ese dato: fusiónelas.');
  }
}

/**
 * Change an entry the server has (`antes.id`): here at once — under its new
 * key if the NIF, plate or place changed — and on the server through the
 * outbox (PATCH with only the fields changed, so an entry to revise can have
 * its address fixed without touching its NIF). A key another entry has is
 * refused here (ClaveRepetida), as the server would.
 */
export async function cambiarEnAgenda(
  db: DecaDb,
  antes: EntradaAgendaLocal & { id: number },
  datos: Record<string, string | null>,
  cambios: Record<string, string | null>,
): Promise<EntradaAgendaLocal> {
  const clave = claveAgenda(antes.tipo, datos);
  const despues: EntradaAgendaLocal = { tipo: antes.tipo, clave, datos, usos: antes.usos, ultimo: antes.ultimo, id: antes.id };
  await db.transaction('rw', db.agenda, db.outbox, async () => {
    if (clave !== antes.clave) {
      const otra = await db.agenda.get([antes.tipo, clave]);
      if (otra) throw new ClaveRepetida(otra);
      await db.agenda.delete([antes.tipo, antes.clave]);
    }
    await db.agenda.put(despues);
    await db.outbox.add(entradaOutbox(carrilAgenda(antes.tipo, clave), 'agenda', { id: antes.id, ...cambios }, { agenda: 'cambiar' }));
  });
  avisarDeCambio();
  return despues;
}

/** Delete an entry: gone here at once, on the server through the outbox. One the server never had only goes here. */
export async function eliminarDeAgenda(db: DecaDb, e: EntradaAgendaLocal): Promise<void> {
  await db.transaction('rw', db.agenda, db.outbox, async () => {
    await db.agenda.delete([e.tipo, e.clave]);
    if (e.id !== undefined) await db.outbox.add(entradaOutbox(carrilAgenda(e.tipo, e.clave), 'agenda', { id: e.id }, { agenda: 'eliminar' }));
  });
  avisarDeCambio();
}

/**
 * Merge two entries of one thing: `queda` stays with its data, `va` goes,
 * and the uses add up — here at once, on the server through the outbox.
 */
export async function fusionarEnAgenda(db: DecaDb, queda: EntradaAgendaLocal & { id: number }, va: EntradaAgendaLocal & { id: number }): Promise<void> {
  const ultimo =
    [queda.ultimo, va.ultimo]
      .filter((u): u is string => Boolean(u))
      .sort()
      .pop() ?? null;
  await db.transaction('rw', db.agenda, db.outbox, async () => {
    await db.agenda.delete([va.tipo, va.clave]);
    await db.agenda.put({ ...queda, usos: queda.usos + va.usos, ultimo });
    await db.outbox.add(entradaOutbox(carrilAgenda(queda.tipo, queda.clave), 'agenda', { id: queda.id, otra: va.id }, { agenda: 'fusionar' }));
  });
  avisarDeCambio();
}
