import { sql } from 'kysely';
import { AppError, type Aviso, type Campos, validationError } from '../../../shared/errors';
import { datosParaEmitir } from '../../../shared/rules/datos-deca';
import { avisosDeca } from '../../../shared/rules/emision';
import type { Rol } from '../../../shared/schemas/cuenta';
import { type Deca, type DecaDatos, DecaInput, type DecaInputParsed, type DecaValidada } from '../../../shared/schemas/deca';
import type { AccountRow, DecaRow } from '../../db/schema';
import { contarSinConfirmar, cuotaConsumida, exigirCuentaConfirmada } from '../accounts/cuota';
import { randomToken } from '../accounts/tokens';
import type { Actor } from '../actor';
import { leccionAprendida, leccionLeida } from '../agenda/agenda';
import type { DomainContext, Plan } from '../context';
import { comprobarReserva, tomarReservaEnLinea, usarReserva, usarReservaEnLinea } from '../dispositivos/dispositivos';
import { datasetIdDe } from '../efti/uil';
import { comprobarFotoLibre, unirFoto } from '../fotos/unir';
import type { ClaveCliente } from '../idempotencia';
import { presentDeca } from '../presenters/deca';
import { comprobarResumenFirmado } from '../publico/offline';
import { unaSentencia } from '../sentencia';
import { camposDeCreacion, columnasDeDatos, datosDeRow, diffDatos } from './datos';
import { renderVersion } from './documento';
import { type CambioNuevo, conEventos, filasCambio, filaVersion } from './escritura';
import { numeroTomado } from './numeracion';
import { type DecaConRefs, obtenerDeca, sinRefs } from './queries';
import { exigirRefLibre } from './ref-externa';

/** Fields of the caller's side that come from the account when left empty. */
const CAMPOS_DE_CUENTA: Record<Rol, readonly (keyof DecaDatos)[]> = {
  cargador: ['cargador_nombre', 'cargador_nif', 'cargador_domicilio'],
  transportista: ['transp_nombre', 'transp_nif', 'transp_domicilio'],
};

const CAMPOS_ENTRADA = new Set(Object.keys(DecaInput.shape));

/** A new DeCA's data, prepared and checked: what create and solo_validar share. */
export interface DecaPreparada {
  emisorRol: Rol;
  datos: DecaDatos;
  faltan: Campos;
  avisos: Aviso[];
}

/** Top-level fields of a body that the DeCA input does not have (answered as warnings, never stored). */
export function camposDesconocidos(body: unknown): string[] {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return [];
  return Object.keys(body).filter((k) => !CAMPOS_ENTRADA.has(k));
}

/**
 * Normalise the input, fill the caller's side from the account, and check it:
 * what is missing to issue, and the soft warnings. Throws nothing: the caller
 * decides whether missing data is an error (issue now) or not (pending).
 */
export function prepararDeca(account: AccountRow, input: DecaInputParsed, desconocidos: string[] = []): DecaPreparada {
  const { emisorRol, datos, faltan } = datosParaEmitir(input, account, account.rol);
  const avisos = avisosDeca(datos, { tipo_vehiculo: input.tipo_vehiculo ?? null, emisorRol });
  for (const campo of desconocidos) {
    avisos.push({ campo, codigo: 'campo_desconocido', mensaje: `El campo «${campo}» no existe y se ha ignorado.` });
  }
  return { emisorRol, datos, faltan, avisos };
}

/**
 * Refuse to issue incomplete data: 409 `cuenta_incompleta` when what is
 * missing would come from the account's own company, else 422 naming each field.
 */
export function exigirCompleta(p: Pick<DecaPreparada, 'faltan' | 'emisorRol'>, account: AccountRow): void {
  const faltan = Object.keys(p.faltan);
  if (faltan.length === 0) return;
  const deCuenta = faltan.filter((c) => (CAMPOS_DE_CUENTA[p.emisorRol] as readonly string[]).includes(c));
  if (deCuenta.length > 0 && faltan.length === deCuenta.length && deCuenta.some((c) => c.endsWith('_domicilio')) && !account.domicilio) {
    throw new AppError('cuenta_incompleta', `Su empresa no tiene domicilio en la cuenta y la DeCA lo necesita: añádalo en Cuenta o envíe ${deCuenta.join(', ')}.`, { campos: p.faltan });
  }
  throw validationError(Object.entries(p.faltan).map(([path, message]) => ({ path: [path], message })));
}

/** A copy of a JSON value without the values at `paths` (the ones that failed the schema). */
export function sinValores(body: unknown, paths: ReadonlyArray<ReadonlyArray<PropertyKey>>): unknown {
  const copia: unknown = structuredClone(body);
  for (const path of paths) {
    let at: unknown = copia;
    for (const part of path.slice(0, -1)) at = at && typeof at === 'object' ? (at as Record<PropertyKey, unknown>)[part] : undefined;
    const last = path[path.length - 1];
    if (last !== undefined && at && typeof at === 'object' && !Array.isArray(at)) delete (at as Record<PropertyKey, unknown>)[last];
  }
  return copia;
}

/**
 * The issues of an invalid create body, plus, when it is meant to be issued,
 * what is missing to issue (spec: «campos names each failing or missing
 * field»), so the caller fixes everything in one round instead of learning of
 * the missing fields only after fixing the invalid ones.
 */
export function problemasDeCreacion(
  account: AccountRow,
  body: unknown,
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>,
): { path: ReadonlyArray<PropertyKey>; message: string }[] {
  const out = [...issues];
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const resto = DecaInput.safeParse(
      sinValores(
        body,
        issues.map((i) => i.path),
      ),
    );
    if (resto.success && resto.data.emitir) {
      // Invalid fields come first, so their message wins over «missing» for the same path.
      for (const [path, message] of Object.entries(prepararDeca(account, resto.data).faltan)) out.push({ path: [path], message });
    }
  }
  return out;
}

/** POST /decas with `solo_validar`: what would be created and what is missing; nothing is stored. */
export function validarDeca(account: AccountRow, input: DecaInputParsed, desconocidos: string[]): DecaValidada {
  const p = prepararDeca(account, input, desconocidos);
  if (input.emitir) exigirCompleta(p, account);
  return {
    valida: true,
    lista_para_emitir: Object.keys(p.faltan).length === 0,
    faltan: p.faltan,
    datos: { emisor_rol: p.emisorRol, ...p.datos },
    avisos: p.avisos,
  };
}

export interface CrearOpciones {
  desconocidos?: string[];
  /**
   * The client's reference of this create (the Idempotency-Key, a CSV
   * file's rows) and its fingerprint: kept on the DeCA for good, so the same
   * create replayed after any time returns this DeCA, never a second one
   * (the command layer's claim looks for it: see idempotencia.ts).
   */
  cliente?: ClaveCliente | null;
}

export interface CrearResultado {
  deca: Deca;
  avisos: Aviso[];
  /** false: an earlier request (same client key or ref_externa) created it; it is returned, not created again. */
  nueva: boolean;
}

function mismosDatos(row: DecaConRefs, p: DecaPreparada): boolean {
  return row.emisor_rol === p.emisorRol && diffDatos(datosDeRow(row), p.datos).length === 0;
}

const AVISO_DATOS_DISTINTOS: Aviso = {
  campo: 'ref_externa',
  codigo: 'ref_externa_repetida',
  mensaje: 'Ya existía una DeCA con esta ref_externa y datos distintos: se devuelve la existente y no se ha cambiado nada. Para corregirla use PATCH.',
};

/**
 * A create seen before (same client key, or same `ref_externa`): that DeCA
 * as it is now. Found by its `ref_externa` with other data, it says so in an
 * aviso (spec: the existing DeCA is returned and nothing changes).
 */
export async function creacionRepetida(ctx: DomainContext, actor: Actor, decaId: number, input: DecaInputParsed, porRef: boolean): Promise<CrearResultado> {
  const row = await obtenerDeca(ctx.db, actor, String(decaId));
  const avisos = porRef && !mismosDatos(row, prepararDeca(actor.cuenta, input)) ? [AVISO_DATOS_DISTINTOS] : [];
  return { deca: presentDeca(row, ctx.siteUrl), avisos, nueva: false };
}

/**
 * POST /decas. Everything but the writes happens here, outside any
 * transaction: the checks, the number (taken in its own statement, so the
 * numbering row is never held during a render), the PDF rendered and sealed,
 * what the address book knows. `aplicar` then writes the DeCA, its first
 * version, history, quota and address book in the command's transaction.
 * Repeats (same key, same `ref_externa`) never reach this: the command
 * layer's claim answers them.
 */
export async function prepararCreacion(ctx: DomainContext, actor: Actor, input: DecaInputParsed, opts: CrearOpciones = {}): Promise<Plan<CrearResultado>> {
  const account = actor.cuenta;
  const p = prepararDeca(account, input, opts.desconocidos);
  if (input.emision_offline && !input.emitir) {
    throw validationError([{ path: ['emision_offline'], message: 'Una DeCA emitida sin cobertura se envía con emitir true' }]);
  }
  if (input.emitir) exigirCompleta(p, account);
  const cliente = opts.cliente ?? null;

  const now = ctx.clock.now();
  // Refusals come before the number is taken, so they never burn numbers.
  await exigirCuentaConfirmada(ctx.db, actor);
  // Made from a photo (extension): the photo is the account's, still kept, and no other DeCA's.
  const fotoId = input.foto_id ?? null;
  if (fotoId !== null) await comprobarFotoLibre(ctx, actor, fotoId);

  // Issued on a device with no coverage: its reserved number and token, at the device's time.
  const offline = input.emision_offline ? await comprobarReserva(ctx.db, actor, input.emision_offline, now) : null;
  // Made by the app with coverage: the device's next reserved number, so that its series has no jumps (README: numbering).
  const enLinea = !offline && input.reserva_dispositivo ? await tomarReservaEnLinea(ctx.db, actor, input.reserva_dispositivo, now) : null;
  // Else the account's next number, and what the address book knows, in one statement.
  const tomado = offline || enLinea ? null : numeroTomado(actor, now);
  const leida = leccionLeida(actor, p.datos);
  const fila = await unaSentencia(ctx.db, tomado ? [tomado, leida] : [leida]);
  const numero = offline?.numero ?? enLinea?.numero ?? tomado!.leer(fila.numero);
  const leccion = leida.leer(fila.agenda);
  const tokenPublico = offline?.token ?? enLinea?.token ?? randomToken(24);
  const emitidoAt = offline?.emitidaAt ?? now;
  const resumenOffline = input.emision_offline?.qr;
  if (offline && resumenOffline) await comprobarResumenFirmado(ctx.db, offline, resumenOffline, p.datos);
  const emitir = input.emitir;
  const pdf = emitir
    ? await renderVersion(ctx, p.datos, {
        entorno: actor.entorno,
        numero,
        version: 1,
        tokenPublico,
        emitidoAt,
        modificadoAt: null,
        motivo: null,
        sustituyeA: null,
        resumenOffline,
      })
    : null;

  return {
    aplicar: async (trx) => {
      if (input.ref_externa) await exigirRefLibre(trx, actor, input.ref_externa, null);
      const insertar = trx
        .insertInto('decas')
        .values({
          account_id: actor.accountId,
          entorno: actor.entorno,
          numero,
          estado: emitir ? 'emitido' : 'pendiente',
          ref_externa: input.ref_externa ?? null,
          clave_cliente: cliente?.clave ?? null,
          huella_cliente: cliente?.huella ?? null,
          emisor_rol: p.emisorRol,
          canal: actor.canal,
          ...columnasDeDatos(p.datos),
          token_publico: tokenPublico,
          efti_dataset_id: datasetIdDe(tokenPublico),
          token_completar: emitir ? null : randomToken(24),
          pdf_sha256: pdf?.sha256 ?? null,
          pdf_bytes: pdf?.bytes ?? null,
          emitido_at: emitir ? emitidoAt : null,
          dispositivo_id: offline?.dispositivoId ?? null,
          dispositivo_nombre: offline?.dispositivoNombre ?? null,
          recibida_at: offline ? now : null,
          modificado_at: now,
          created_at: now,
          updated_at: now,
          creado_por_key_id: actor.keyId,
          creado_por_user_id: actor.userId,
        })
        .returningAll();
      // Issued now, its fields are version 1's data, which the DeCA holds: rebuilt when read, not stored twice. A pending
      // one keeps them: issuing it later may fill its data from the account with no entry of its own (emitir.ts).
      const historia: CambioNuevo[] = [{ version: 1, tipo: 'creacion', campos: emitir ? null : camposDeCreacion(p.datos) }];
      if (pdf) historia.push({ version: 1, tipo: 'emision' });
      // The DeCA, its first version and its history in one statement: the later parts take the new id from the first.
      const nueva = sql<number>`(select id from d)`;
      const partes = [sql`d as (${insertar})`, sql`c as (${trx.insertInto('deca_cambios').values(filasCambio(actor, nueva, historia, now))})`];
      if (pdf) partes.push(sql`v as (${trx.insertInto('deca_versiones').values(filaVersion(actor, nueva, pdf, now))})`);
      const { rows } = await sql<DecaRow>`with ${sql.join(partes)} select * from d`.execute(trx);
      const row = rows[0]!;
      if (offline) await usarReserva(trx, offline, row.id, now);
      if (enLinea) await usarReservaEnLinea(trx, enLinea, row.id);
      const { deca, eventos } = conEventos(actor, sinRefs(row), emitir ? ['deca.creado', 'deca.emitido'] : ['deca.creado'], now, ctx.siteUrl);
      await contarSinConfirmar(trx, actor);
      // The rows every DeCA of the account shares (the address book, the month's count) are written in the
      // transaction's last statement: concurrent creates then wait on each other for little more than the commit.
      const ultimas = [...leccionAprendida(trx, actor, leccion, now), cuotaConsumida(trx, actor, now)];
      if (fotoId !== null) ultimas.push(unirFoto(trx, actor, fotoId, row.id, now));
      return { valor: { deca, avisos: p.avisos, nueva: true }, registro: { decaId: row.id }, eventos, partes: ultimas, tocadas: [row.id] };
    },
  };
}
