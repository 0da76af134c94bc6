/**
 * The address book of an account and environment: searched by any part of a
 * name, NIF, plate or place (case, accents and spacing aside), most used
 * first; written by hand (`guardarEntrada`) and learnt from every DeCA
 * created, modified or completed, inside that change's transaction
 * (`aprenderDeDeca`).
 */
import { type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import { AppError } from '../../../shared/errors';
import { compactar, normalizarTexto, textoDeBusqueda } from '../../../shared/rules/busqueda';
import { normalizarMatricula } from '../../../shared/rules/matricula';
import { avisoNif, normalizarNif, validarNif } from '../../../shared/rules/nif';
import type { AgendaQuery, EntradaAgenda, TipoAgenda } from '../../../shared/schemas/agenda';
import type { DecaDatos } from '../../../shared/schemas/deca';
import type { AgendaTable, DB } from '../../db/schema';
import { type Ambito, delAmbito } from '../ambito';
import { type Parte, unaSentencia } from '../sentencia';

/** An entry's data as stored: every field of its kind, null when unknown. */
export type DatosAgenda = Record<string, string | null>;
type Fila = Selectable<AgendaTable>;

const CAMPOS: Record<TipoAgenda, readonly string[]> = {
  empresas: ['nombre', 'nif', 'domicilio', 'cp', 'municipio', 'provincia', 'pais', 'lado'],
  vehiculos: ['matricula', 'matricula_remolque', 'tipo_vehiculo', 'autorizacion_especial', 'conductor_nombre', 'conductor_tel'],
  lugares: ['texto'],
};

/** Every field of the kind, null where `datos` has none. */
function completar(tipo: TipoAgenda, datos: Record<string, unknown>): DatosAgenda {
  return Object.fromEntries(CAMPOS[tipo].map((c) => [c, typeof datos[c] === 'string' && datos[c] !== '' ? (datos[c] as string) : null]));
}

/**
 * The key an entry is one by (normalised NIF, plate or text), the text it is
 * found by, and whether it has something to revise: a company whose NIF has
 * a wrong check character (learnt from a DeCA issued with that warning, by
 * any door) is `dudosa`, and no search offers it until it is fixed.
 */
function indexar(tipo: TipoAgenda, d: DatosAgenda): { clave: string; busqueda: string; dudosa: boolean } {
  switch (tipo) {
    case 'empresas':
      return { clave: normalizarNif(d.nif ?? ''), busqueda: textoDeBusqueda([d.nombre, d.nif, d.domicilio]), dudosa: !validarNif(d.nif ?? '').valido };
    case 'vehiculos':
      return { clave: normalizarMatricula(d.matricula ?? ''), busqueda: textoDeBusqueda([d.matricula, d.matricula_remolque, d.conductor_nombre]), dudosa: false };
    case 'lugares':
      return { clave: normalizarTexto(d.texto ?? ''), busqueda: textoDeBusqueda([d.texto]), dudosa: false };
  }
}

/** The one representation of an entry, whatever front door asks. */
export function presentarEntrada(fila: Fila): EntradaAgenda {
  const datos = completar(fila.tipo, fila.datos as Record<string, unknown>);
  const aviso = fila.tipo === 'empresas' ? avisoNif(datos.nif ?? '') : null;
  return {
    id: fila.id,
    usos: fila.usos,
    ultimo_uso: fila.ultimo_uso_at ? fila.ultimo_uso_at.toISOString() : null,
    avisos: aviso ? [{ campo: 'nif', codigo: 'nif_dudoso', mensaje: aviso }] : [],
    ...datos,
  } as EntradaAgenda;
}

/** POST /agenda/{tipo}: creates the entry, or replaces the data of the one with the same key; its use count stays. */
export async function guardarEntrada(db: Kysely<DB>, actor: Ambito, tipo: TipoAgenda, entrada: Record<string, unknown>, now: Date): Promise<Fila> {
  const datos = completar(tipo, entrada);
  const { clave, busqueda, dudosa } = indexar(tipo, datos);
  return db
    .insertInto('agenda')
    .values({ account_id: actor.accountId, entorno: actor.entorno, tipo, clave, datos: JSON.stringify(datos), busqueda, dudosa, usos: 0, created_at: now, updated_at: now })
    .onConflict((oc) =>
      oc
        .constraint('agenda_clave_unica')
        .doUpdateSet((eb) => ({ datos: eb.ref('excluded.datos'), busqueda: eb.ref('excluded.busqueda'), dudosa: eb.ref('excluded.dudosa'), updated_at: eb.ref('excluded.updated_at') })),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The book's company with this NIF (normalised), if it holds one. */
export async function empresaPorNif(db: Kysely<DB>, actor: Ambito, nif: string): Promise<DatosAgenda | null> {
  const fila = await db.selectFrom('agenda').select('datos').where(delAmbito(actor)).where('tipo', '=', 'empresas').where('clave', '=', normalizarNif(nif)).executeTakeFirst();
  return fila ? completar('empresas', fila.datos as Record<string, unknown>) : null;
}

/** What one DeCA teaches: its parties (by NIF), its vehicle with its driver, and each place of its shipments. */
function lecciones(d: DecaDatos): { tipo: TipoAgenda; datos: DatosAgenda }[] {
  const empresas = new Map<string, DatosAgenda>();
  for (const [lado, p] of [
    ['cargador', 'cargador'],
    ['transportista', 'transp'],
  ] as const) {
    const nombre = d[`${p}_nombre`];
    const nif = d[`${p}_nif`];
    if (!nombre || !nif) continue;
    const clave = normalizarNif(nif);
    const ya = empresas.get(clave);
    const direccion = { domicilio: d[`${p}_domicilio`], cp: d[`${p}_cp`], municipio: d[`${p}_municipio`], provincia: d[`${p}_provincia`], pais: d[`${p}_pais`] };
    // The same company on both sides of one DeCA (an own-account transport) is both.
    empresas.set(clave, ya ? { ...ya, lado: 'ambos' } : { nombre, nif: clave, ...direccion, lado });
  }
  const out: { tipo: TipoAgenda; datos: DatosAgenda }[] = [...empresas.values()].map((datos) => ({ tipo: 'empresas', datos }));
  if (d.matricula) {
    out.push({
      tipo: 'vehiculos',
      datos: completar('vehiculos', {
        matricula: d.matricula,
        matricula_remolque: d.matricula_remolque,
        tipo_vehiculo: d.tipo_vehiculo,
        autorizacion_especial: d.autorizacion_especial,
        conductor_nombre: d.conductor_nombre,
        conductor_tel: d.conductor_tel,
      }),
    });
  }
  const lugares = new Map<string, string>();
  for (const e of d.envios) for (const texto of [e.origen, e.destino]) if (texto && !lugares.has(normalizarTexto(texto))) lugares.set(normalizarTexto(texto), texto);
  for (const texto of lugares.values()) out.push({ tipo: 'lugares', datos: { texto } });
  return out;
}

/** What a DeCA will teach, merged with what the book knew: read before the DeCA's transaction. */
export interface Leccion {
  filas: { tipo: TipoAgenda; clave: string; datos: DatosAgenda; busqueda: string; dudosa: boolean }[];
}

/**
 * What the book knows of everything `d` names, merged with the DeCA's data:
 * what the DeCA leaves empty keeps what the book knew (a usual driver's
 * phone is not forgotten because one DeCA lacks it); a company seen on the
 * other side too becomes «ambos». Read before the DeCA's transaction, so
 * that transaction only writes; as a part of a statement (`leccionLeida`),
 * so the read costs no round trip of its own.
 */
export function leccionLeida(actor: Ambito, d: DecaDatos): Parte & { leer(valor: unknown): Leccion } {
  const nuevas = lecciones(d).map(({ tipo, datos }) => ({ tipo, datos, ...indexar(tipo, datos) }));
  const claves = nuevas.map((n) => sql`(${n.tipo}::text, ${n.clave}::text)`);
  return {
    nombre: 'agenda',
    valor: nuevas.length
      ? sql`(select coalesce(json_agg(json_build_array(a.tipo, a.clave, a.datos)), '[]'::json) from agenda a
          where a.account_id = ${actor.accountId} and a.entorno = ${actor.entorno} and (a.tipo, a.clave) in (${sql.join(claves)}))`
      : sql`'[]'::json`,
    leer(valor) {
      const existentes = (typeof valor === 'string' ? JSON.parse(valor) : valor) as [TipoAgenda, string, Record<string, unknown>][];
      const previas = new Map(existentes.map(([tipo, clave, datos]) => [`${tipo}\u0000${clave}`, datos]));
      const filas = nuevas
        .map((n) => {
          const antes = previas.get(`${n.tipo}\u0000${n.clave}`);
          const datos = antes ? mezclar(n.tipo, completar(n.tipo, antes), n.datos) : n.datos;
          const { busqueda, dudosa } = indexar(n.tipo, datos);
          return { ...n, datos, busqueda, dudosa };
        })
        .sort((a, b) => (a.tipo === b.tipo ? (a.clave < b.clave ? -1 : a.clave > b.clave ? 1 : 0) : a.tipo < b.tipo ? -1 : 1));
      return { filas };
    },
  };
}

/** What the book knows of everything `d` names, merged with it, in a statement of its own: see leccionLeida. */
export async function prepararLeccion(db: Kysely<DB>, actor: Ambito, d: DecaDatos): Promise<Leccion> {
  const parte = leccionLeida(actor, d);
  return parte.leer((await unaSentencia(db, [parte])).agenda);
}

/**
 * Counts one use of everything the DeCA names, as a part of the DeCA's
 * transaction's last statement. Rows are written in key order, so two DeCAs
 * naming the same entries never wait on each other in a circle; the use
 * count is added in the database, so concurrent DeCAs each count.
 */
export function leccionAprendida(trx: Transaction<DB>, actor: Ambito, leccion: Leccion, now: Date): Parte[] {
  if (leccion.filas.length === 0) return [];
  return [
    {
      nombre: 'agenda_aprendida',
      sentencia: trx
        .insertInto('agenda')
        .values(
          leccion.filas.map((f) => ({
            account_id: actor.accountId,
            entorno: actor.entorno,
            tipo: f.tipo,
            clave: f.clave,
            datos: JSON.stringify(f.datos),
            busqueda: f.busqueda,
            dudosa: f.dudosa,
            usos: 1,
            ultimo_uso_at: now,
            created_at: now,
            updated_at: now,
          })),
        )
        .onConflict((oc) =>
          oc.constraint('agenda_clave_unica').doUpdateSet((eb) => ({
            datos: eb.ref('excluded.datos'),
            busqueda: eb.ref('excluded.busqueda'),
            dudosa: eb.ref('excluded.dudosa'),
            usos: sql<number>`agenda.usos + 1`,
            ultimo_uso_at: eb.ref('excluded.ultimo_uso_at'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
        ),
    },
  ];
}

/** A DeCA's data over what the book knew: its values win, its blanks keep the old ones; sides merge. */
function mezclar(tipo: TipoAgenda, antes: DatosAgenda, ahora: DatosAgenda): DatosAgenda {
  const out: DatosAgenda = { ...antes };
  for (const [k, v] of Object.entries(ahora)) if (v !== null) out[k] = v;
  if (tipo === 'empresas' && antes.lado && ahora.lado && antes.lado !== ahora.lado) out.lado = 'ambos';
  return out;
}

/** The opaque `siguiente` cursor: the last entry's place in the order (uses, last use, id). */
function cursor(f: Fila): string {
  return Buffer.from(JSON.stringify({ v: 1, u: f.usos, t: f.ultimo_uso_at ? f.ultimo_uso_at.getTime() : 0, id: f.id })).toString('base64url');
}

function leerCursor(s: string): { u: number; t: number; id: number } {
  try {
    const c = JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (c.v === 1 && [c.u, c.t, c.id].every((n) => typeof n === 'number' && Number.isInteger(n) && n >= 0)) return c as { u: number; t: number; id: number };
  } catch {
    /* fall through */
  }
  throw new AppError('validacion', 'El cursor «despues_de» no es válido: use el valor «siguiente» de la página anterior.', { campos: { despues_de: 'Cursor no válido' } });
}

const comoLike = (s: string) => `%${s.replace(/[\\%_]/g, '\\$&')}%`;

/** GET /agenda/{tipo}: most used first, then most recently used, keyset-paginated like the DeCA list. */
export async function buscarAgenda(
  db: Kysely<DB>,
  actor: Ambito,
  tipo: TipoAgenda,
  q: Omit<AgendaQuery, 'con_avisos'> & { con_avisos?: boolean },
): Promise<{ filas: Fila[]; siguiente: string | null }> {
  const ultimo = sql<Date>`coalesce(ultimo_uso_at, 'epoch'::timestamptz)`;
  let query = db.selectFrom('agenda').selectAll().where(delAmbito(actor)).where('tipo', '=', tipo);
  // What is searched is what is suggested: an entry to revise only when asked for (the address book's own screen).
  if (!q.con_avisos) query = query.where('dudosa', '=', false);
  const texto = q.q ? normalizarTexto(q.q) : '';
  if (texto) {
    const compacto = compactar(texto);
    query = query.where((eb) => eb.or([eb('busqueda', 'like', comoLike(texto)), ...(compacto ? [eb('busqueda', 'like', comoLike(compacto))] : [])]));
  }
  if (q.despues_de) {
    const c = leerCursor(q.despues_de);
    query = query.where(sql<boolean>`(usos, ${ultimo}, id) < (${c.u}, ${new Date(c.t)}::timestamptz, ${c.id})`);
  }
  const filas = await query
    .orderBy('usos', 'desc')
    .orderBy(ultimo, 'desc')
    .orderBy('id', 'desc')
    .limit(q.limite + 1)
    .execute();
  const mas = filas.length > q.limite;
  const pagina = mas ? filas.slice(0, q.limite) : filas;
  const ultima = pagina[pagina.length - 1];
  return { filas: pagina, siguiente: mas && ultima ? cursor(ultima) : null };
}

/** The field that is an entry's key, as its kind's form names it. */
const CAMPO_CLAVE: Record<TipoAgenda, string> = { empresas: 'nif', vehiculos: 'matricula', lugares: 'texto' };
/** How a message names an entry of each kind: «ninguna empresa», «otro vehículo». */
const NINGUNA: Record<TipoAgenda, string> = { empresas: 'ninguna empresa', vehiculos: 'ningún vehículo', lugares: 'ningún lugar' };
const OTRA: Record<TipoAgenda, string> = { empresas: 'otra empresa', vehiculos: 'otro vehículo', lugares: 'otro lugar' };

function noEncontrada(tipo: TipoAgenda): AppError {
  return new AppError('no_encontrado', `No hay ${NINGUNA[tipo]} con ese id en la agenda de esta cuenta.`);
}

/** An entry's id from the path: anything but a whole number finds nothing (404, like a DeCA's). */
export function idDeEntrada(tipo: TipoAgenda, id: string | number): number {
  const s = String(id);
  if (!/^[1-9]\d{0,14}$/.test(s)) throw noEncontrada(tipo);
  return Number(s);
}

/**
 * PATCH /agenda/{tipo}/{id}: the fields sent replace the entry's (null or ""
 * clears an optional one); its key may change too — a NIF corrected, which
 * lifts its mark — but never to another entry's (422 on the key's field:
 * merge them instead). The row is locked, so a merge at the same time either
 * sees this change or makes this a 404.
 */
export async function cambiarEntrada(trx: Transaction<DB>, actor: Ambito, tipo: TipoAgenda, id: number, cambios: Record<string, unknown>, enviados: ReadonlySet<string>, now: Date): Promise<Fila> {
  const fila = await trx.selectFrom('agenda').selectAll().where(delAmbito(actor)).where('tipo', '=', tipo).where('id', '=', id).forUpdate().executeTakeFirst();
  if (!fila) throw noEncontrada(tipo);
  const datos = completar(tipo, fila.datos as Record<string, unknown>);
  for (const campo of CAMPOS[tipo]) {
    if (!enviados.has(campo)) continue;
    const v = cambios[campo];
    datos[campo] = typeof v === 'string' && v !== '' ? v : null;
  }
  const { clave, busqueda, dudosa } = indexar(tipo, datos);
  if (clave !== fila.clave) {
    const otra = await trx.selectFrom('agenda').select(['id', 'datos']).where(delAmbito(actor)).where('tipo', '=', tipo).where('clave', '=', clave).executeTakeFirst();
    if (otra) {
      const nombre = titulo(tipo, completar(tipo, otra.datos as Record<string, unknown>));
      throw new AppError('validacion', `Ya hay en la agenda ${OTRA[tipo]} con ese dato («${nombre}», id ${otra.id}): fusione las dos entradas en vez de repetirla.`, {
        campos: { [CAMPO_CLAVE[tipo]]: `Ya es de «${nombre}»: fusiónelas` },
      });
    }
  }
  return trx
    .updateTable('agenda')
    .set({ clave, datos: JSON.stringify(datos), busqueda, dudosa, updated_at: now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** How an entry is named in a message: the company's name, the plate, the place. */
function titulo(tipo: TipoAgenda, d: DatosAgenda): string {
  return (tipo === 'empresas' ? d.nombre : tipo === 'vehiculos' ? d.matricula : d.texto) ?? '';
}

/** DELETE /agenda/{tipo}/{id}: the entry goes (a later DeCA that names it again teaches it again). */
export async function eliminarEntrada(trx: Transaction<DB>, actor: Ambito, tipo: TipoAgenda, id: number): Promise<void> {
  const borrada = await trx.deleteFrom('agenda').where(delAmbito(actor)).where('tipo', '=', tipo).where('id', '=', id).returning('id').executeTakeFirst();
  if (!borrada) throw noEncontrada(tipo);
}

/**
 * POST /agenda/{tipo}/{id}/fusionar: two entries of the same thing become
 * one. The one of the path stays with its data (the one chosen), `otra`
 * goes; their uses add up, the last use is the later one, and a company seen
 * on both sides is «ambos». Both rows are locked in id order (two merges of
 * the same pair, or a merge and an edit, never wait in a circle): whatever
 * runs at the same time, exactly one of the two is left.
 */
export async function fusionarEntradas(trx: Transaction<DB>, actor: Ambito, tipo: TipoAgenda, id: number, otraId: number, now: Date): Promise<Fila> {
  if (id === otraId) throw new AppError('validacion', 'Elija otra entrada: una entrada no se fusiona consigo misma.', { campos: { otra: 'Es la misma entrada' } });
  const filas = await trx.selectFrom('agenda').selectAll().where(delAmbito(actor)).where('tipo', '=', tipo).where('id', 'in', [id, otraId]).orderBy('id').forUpdate().execute();
  const queda = filas.find((f) => f.id === id);
  const va = filas.find((f) => f.id === otraId);
  if (!queda) throw noEncontrada(tipo);
  if (!va) throw new AppError('no_encontrado', `No hay ${NINGUNA[tipo]} con el id ${otraId} en la agenda de esta cuenta (¿ya se fusionó o se borró?).`, { campos: { otra: 'No existe' } });
  const datos = completar(tipo, queda.datos as Record<string, unknown>);
  const suyos = completar(tipo, va.datos as Record<string, unknown>);
  if (tipo === 'empresas' && suyos.lado) datos.lado = datos.lado && datos.lado !== suyos.lado ? 'ambos' : suyos.lado;
  const ultimo = [queda.ultimo_uso_at, va.ultimo_uso_at].filter((d): d is Date => d !== null).sort((a, b) => b.getTime() - a.getTime())[0] ?? null;
  await trx.deleteFrom('agenda').where('id', '=', otraId).execute();
  return trx
    .updateTable('agenda')
    .set({ datos: JSON.stringify(datos), usos: queda.usos + va.usos, ultimo_uso_at: ultimo, updated_at: now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}
