/**
 * The data of an account, taken away before it is closed: one ZIP with every
 * DeCA in the CSV of `GET /decas.csv` (the import's columns), every issued
 * PDF exactly as stored, the delivery-note photos as received, and the
 * account's own data in JSON. Built outside
 * any transaction (it only reads), a page of DeCAs at a time and streamed
 * to the export store, so a year of DeCAs never sits in memory.
 */
import { strToU8, Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import type { Kysely } from 'kysely';
import { formatMadrid } from '../../../shared/rules/fechas';
import { CONSERVACION_DECA_TEXTO, DIAS_EXPORTACION } from '../../../shared/rules/privacidad';
import type { Entorno } from '../../../shared/schemas/cuenta';
import type { AlmacenExportaciones } from '../../blobs/exportaciones';
import type { AccountRow, DB, ExportacionRow } from '../../db/schema';
import { sha256Hex } from '../../sha256';
import type { DomainContext } from '../context';
import { lineasCsv } from '../decas/exportar';
import { leerPdf, listarDecas } from '../decas/listar';
import type { Alcance } from '../decas/queries';
import { fechaHora, presentClave } from '../presenters/cuenta';
import { formaDeToken } from './tokens';

/** What building an export needs: the DeCA reads (database, blob store, site) and where the ZIP goes. */
export interface ExportacionDeps extends DomainContext {
  exportaciones: AlmacenExportaciones;
}

/** A written export: its file in the store and what it holds. */
export interface ExportacionHecha {
  archivo: string;
  bytes: number;
  /** DeCAs in the CSVs (both environments) and PDFs in the ZIP. */
  decas: number;
  pdfs: number;
  /** Delivery-note photos in the ZIP. */
  fotos: number;
}

/** What the ZIP holds, counted as it is written. */
interface Cuentas {
  decas: number;
  pdfs: number;
  fotos: number;
}

/** Each environment's DeCAs under their own folder: the test environment's are marked by the path. */
const CARPETA: Record<Entorno, string> = { produccion: '', pruebas: 'pruebas/' };
const PAGINA = 100;
/** A photo's file name ending, from the media type it was kept with. */
const EXTENSION: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp', 'image/heif': 'heic', 'image/avif': 'avif' };

const LEAME = (a: AccountRow, ahora: Date) => `Datos de la cuenta de ${a.nombre} (NIF ${a.nif}) en DeCA, exportados el ${formatMadrid(ahora)} (hora de Madrid).

decas.csv          Todas las DeCA reales, una fila por envío, con las columnas de la importación
                   (separador «;», UTF-8): se pueden importar en otra cuenta.
pdf/               Cada versión emitida de cada DeCA, tal como se emitió y selló
                   (DeCA-AAAA-NNNNNN-vN.pdf).
fotos/             Las fotos de albaranes leídas, tal como se enviaron: la de cada DeCA con su
                   número (DeCA-AAAA-NNNNNN.jpg), las que no llegaron a DeCA con el suyo.
pruebas/           Lo mismo del entorno de pruebas (sin validez).
cuenta.json        La empresa, los usuarios, las claves de API (nombre y prefijo, nunca el
                   secreto), los webhooks (URL y eventos), los dispositivos y la agenda.

Las DeCA emitidas, sus versiones y su historial se conservan en el servicio ${CONSERVACION_DECA_TEXTO}
(Orden FOM/2861/2012, art. 6), y sus enlaces públicos siguen funcionando. Este archivo lleva
datos personales (nombres, teléfonos y DNI/NIE de conductores, correos): guárdelo con cuidado.
`;

/** The account's own data, as the person who closes it takes it away (never a secret: no key, password or webhook secret). */
async function datosDeCuenta(db: Kysely<DB>, a: AccountRow, ahora: Date, cuentas: Cuentas): Promise<unknown> {
  const [usuarios, invitaciones, claves, webhooks, dispositivos, agenda] = await Promise.all([
    db.selectFrom('users').select(['id', 'email', 'rol', 'created_at', 'email_confirmado_at', 'matriculas']).where('account_id', '=', a.id).orderBy('id').execute(),
    db.selectFrom('invitaciones').select(['email', 'rol', 'created_at', 'expires_at', 'aceptada_at']).where('account_id', '=', a.id).orderBy('id').execute(),
    db.selectFrom('api_keys').selectAll().where('account_id', '=', a.id).orderBy('id').execute(),
    db.selectFrom('webhooks').select(['url', 'entorno', 'eventos', 'descripcion', 'activo', 'created_at']).where('account_id', '=', a.id).orderBy('id').execute(),
    db
      .selectFrom('dispositivos as d')
      .innerJoin('users as u', 'u.id', 'd.user_id')
      .select(['d.nombre', 'u.email as usuario', 'd.huella', 'd.created_at', 'd.revocado_at'])
      .where('d.account_id', '=', a.id)
      .orderBy('d.id')
      .execute(),
    db.selectFrom('agenda').select(['entorno', 'tipo', 'datos', 'usos', 'ultimo_uso_at', 'created_at']).where('account_id', '=', a.id).orderBy('id').execute(),
  ]);
  return {
    exportada_at: formatMadrid(ahora),
    empresa: { nombre: a.nombre, nif: a.nif, domicilio: a.domicilio, rol: a.rol, plan: a.plan, created_at: formatMadrid(a.created_at), confirmada_at: fechaHora(a.confirmada_at) },
    usuarios: usuarios.map((u) => ({ email: u.email, rol: u.rol, created_at: formatMadrid(u.created_at), email_confirmado_at: fechaHora(u.email_confirmado_at), matriculas: u.matriculas })),
    invitaciones: invitaciones.map((i) => ({ email: i.email, rol: i.rol, created_at: formatMadrid(i.created_at), expires_at: formatMadrid(i.expires_at), aceptada_at: fechaHora(i.aceptada_at) })),
    claves: claves.map((k) => {
      const { id: _id, ...c } = presentClave(k);
      return c;
    }),
    webhooks: webhooks.map((w) => ({ url: w.url, entorno: w.entorno, eventos: w.eventos, descripcion: w.descripcion, activo: w.activo, created_at: formatMadrid(w.created_at) })),
    dispositivos: dispositivos.map((d) => ({ nombre: d.nombre, usuario: d.usuario, huella: d.huella, created_at: formatMadrid(d.created_at), revocado_at: fechaHora(d.revocado_at) })),
    agenda: agenda.map((e) => ({ entorno: e.entorno, tipo: e.tipo, datos: e.datos, usos: e.usos, ultimo_uso_at: fechaHora(e.ultimo_uso_at), created_at: formatMadrid(e.created_at) })),
    decas: {
      archivo: 'decas.csv',
      total: cuentas.decas,
      pdf: cuentas.pdfs,
      fotos: cuentas.fotos,
      conservacion: `Las DeCA emitidas, sus versiones y su historial se conservan ${CONSERVACION_DECA_TEXTO}.`,
    },
  };
}

/** The ZIP's bytes, in order, as fflate makes them: each file is finished before the next one starts. */
async function* zipDeCuenta(deps: DomainContext, a: AccountRow, ahora: Date, cuentas: Cuentas): AsyncGenerator<Uint8Array> {
  const listos: Uint8Array[] = [];
  let fallo: Error | null = null;
  const zip = new Zip((err, datos) => {
    if (err) fallo = err;
    else listos.push(datos);
  });
  const sacar = (): Uint8Array[] => {
    if (fallo) throw fallo;
    return listos.splice(0);
  };
  const texto = (nombre: string, contenido: string) => {
    const f = new ZipDeflate(nombre, { level: 6 });
    zip.add(f);
    f.push(strToU8(contenido), true);
  };

  texto('LEAME.txt', LEAME(a, ahora));
  yield* sacar();
  for (const entorno of ['produccion', 'pruebas'] as const) {
    // An account's own reads: every DeCA, whoever made it (rol null: an API key's view).
    const alcance: Alcance = { accountId: a.id, entorno, rol: null, userId: null };
    const csv = new ZipDeflate(`${CARPETA[entorno]}decas.csv`, { level: 6 });
    zip.add(csv);
    for await (const trozo of lineasCsv(deps, alcance, {})) {
      csv.push(strToU8(trozo));
      yield* sacar();
    }
    csv.push(new Uint8Array(0), true);
    yield* sacar();

    let despues: string | undefined;
    do {
      const { rows, siguiente } = await listarDecas(deps.db, alcance, { limite: PAGINA, despues_de: despues });
      cuentas.decas += rows.length;
      const emitidas = rows.filter((r) => r.estado !== 'pendiente');
      const versiones = emitidas.length
        ? await deps.db
            .selectFrom('deca_versiones')
            .select(['deca_id', 'version'])
            .where('account_id', '=', a.id)
            .where('entorno', '=', entorno)
            .where(
              'deca_id',
              'in',
              emitidas.map((r) => r.id),
            )
            .orderBy('deca_id')
            .orderBy('version')
            .execute()
        : [];
      for (const v of versiones) {
        const deca = emitidas.find((r) => r.id === v.deca_id)!;
        const { pdf } = await leerPdf(deps, alcance, deca, v.version);
        const f = new ZipPassThrough(`${CARPETA[entorno]}pdf/DeCA-${deca.numero}-v${v.version}.pdf`);
        zip.add(f);
        f.push(pdf, true);
        cuentas.pdfs++;
        yield* sacar();
      }
      despues = siguiente ?? undefined;
    } while (despues);

    // The delivery-note photos read for the account, as received: a DeCA's under its number, the others by their id.
    let desdeFoto = 0;
    for (;;) {
      const fotos = await deps.db
        .selectFrom('fotos as f')
        .leftJoin('decas as d', 'd.id', 'f.deca_id')
        .select(['f.id', 'f.sha256', 'f.clave', 'f.tipo', 'd.numero'])
        .where('f.account_id', '=', a.id)
        .where('f.entorno', '=', entorno)
        .where('f.id', '>', desdeFoto)
        .orderBy('f.id')
        .limit(PAGINA)
        .execute();
      for (const foto of fotos) {
        const bytes = await deps.blobs.leer(foto.sha256, foto.clave);
        const nombre = foto.numero ? `DeCA-${foto.numero}` : `foto-${foto.id}`;
        const f = new ZipPassThrough(`${CARPETA[entorno]}fotos/${nombre}.${EXTENSION[foto.tipo] ?? 'bin'}`);
        zip.add(f);
        f.push(bytes, true);
        cuentas.fotos++;
        yield* sacar();
      }
      if (fotos.length < PAGINA) break;
      desdeFoto = fotos.at(-1)!.id;
    }
  }
  texto('cuenta.json', `${JSON.stringify(await datosDeCuenta(deps.db, a, ahora, cuentas), null, 2)}\n`);
  zip.end();
  yield* sacar();
}

/**
 * Write the ZIP of the account's data to the export store, before the
 * transaction that closes it (this only reads). A PDF that cannot be read
 * (the blob store out of reach, a damaged blob) fails the export, and so the
 * closure: nothing is deleted that the person could not take away.
 */
export async function exportarCuenta(deps: ExportacionDeps, account: AccountRow): Promise<ExportacionHecha> {
  const cuentas: Cuentas = { decas: 0, pdfs: 0, fotos: 0 };
  const { archivo, bytes } = await deps.exportaciones.escribir(zipDeCuenta(deps, account, deps.clock.now(), cuentas));
  return { archivo, bytes, ...cuentas };
}

/** Until when a new export's link works. */
export function caducidadExportacion(ahora: Date): Date {
  return new Date(ahora.getTime() + DIAS_EXPORTACION * 86_400_000);
}

/** The link e-mailed (and printed by the operator's CLI): a page whose button downloads the ZIP. */
export function urlExportacion(siteUrl: string, token: string): string {
  return `${siteUrl}/p/exportacion/${token}`;
}

/** An export as its link finds it, with the company's name. */
export type ExportacionEncontrada = ExportacionRow & { empresa: string };

/** The export of a link's token, whatever its state (used, expired), or null for a token that is no link. */
export async function exportacionPorToken(db: Kysely<DB>, token: string): Promise<ExportacionEncontrada | null> {
  if (!formaDeToken(token)) return null;
  const row = await db
    .selectFrom('exportaciones as e')
    .innerJoin('accounts as a', 'a.id', 'e.account_id')
    .selectAll('e')
    .select('a.nombre as empresa')
    .where('e.token_hash', '=', sha256Hex(token))
    .executeTakeFirst();
  return row ?? null;
}

/** The link has been downloaded whole: it works no more. False when another download got there first. */
export async function marcarExportacionDescargada(db: Kysely<DB>, id: number, now: Date): Promise<boolean> {
  const r = await db.updateTable('exportaciones').set({ descargada_at: now }).where('id', '=', id).where('descargada_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/**
 * Delete the exports whose link expired (file and row), and files no row
 * names that are older than a day (a closure whose transaction did not
 * commit). Returns how many files went.
 */
export async function borrarExportacionesCaducadas(deps: { db: Kysely<DB>; exportaciones: AlmacenExportaciones }, now: Date): Promise<number> {
  const caducadas = await deps.db.selectFrom('exportaciones').select(['id', 'archivo']).where('caduca_at', '<=', now).execute();
  for (const e of caducadas) {
    await deps.exportaciones.borrar(e.archivo);
    await deps.db.deleteFrom('exportaciones').where('id', '=', e.id).execute();
  }
  const viejos = await deps.exportaciones.anteriores(new Date(now.getTime() - 86_400_000));
  const conFila = viejos.length ? new Set((await deps.db.selectFrom('exportaciones').select('archivo').where('archivo', 'in', viejos).execute()).map((r) => r.archivo)) : new Set<string>();
  const sueltos = viejos.filter((n) => !conFila.has(n));
  for (const n of sueltos) await deps.exportaciones.borrarSuelto(n);
  return caducadas.length + sueltos.length;
}
