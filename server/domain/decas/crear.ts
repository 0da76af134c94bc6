import { AppError, validationError, type Aviso, type Campos } from '../../../shared/errors';
import { avisosDeca, faltaParaEmitir } from '../../../shared/rules/emision';
import { CAMPOS_DATOS, DecaInput, type DecaDatos, type DecaInputParsed } from '../../../shared/schemas/deca';
import type { Rol } from '../../../shared/schemas/cuenta';
import type { AccountRow } from '../../db/schema';
import { consumirCuota, limitePlan, obtenerCuota } from '../accounts/cuota';
import { randomToken } from '../accounts/tokens';
import type { Actor } from '../actor';
import type { DomainContext } from '../context';
import { columnasDeDatos, completarDatos, datosDeEntrada, datosDeRow, diffDatos } from './datos';
import { renderVersion } from './documento';
import { guardarVersion, publicar, registrarCambio, type AntesDeConfirmar } from './escritura';
import { conIdempotencia, huella, type Reclamo } from './idempotencia';
import { asignarNumero } from './numeracion';
import { selectDecas, type DecaConRefs } from './queries';

/** Fields of the caller's side that come from the account when left empty. */
const CAMPOS_DE_CUENTA: Record<Rol, readonly (keyof DecaDatos)[]> = {
  cargador: ['cargador_nombre', 'cargador_nif', 'cargador_domicilio'],
  transportista: ['transp_nombre', 'transp_nif'],
};

/** A new DeCA's data, prepared and checked: what create and solo_validar share. */
export interface DecaPreparada {
  emisorRol: Rol;
  datos: DecaDatos;
  faltan: Campos;
  avisos: Aviso[];
}

/**
 * Normalise the input, fill the caller's side from the account, and check it:
 * what is missing to issue, and the soft warnings. Throws nothing: the caller
 * decides whether missing data is an error (issue now) or not (pending).
 */
export function prepararDeca(account: AccountRow, input: DecaInputParsed, desconocidos: string[] = []): DecaPreparada {
  const emisorRol = input.emisor_rol ?? account.rol;
  const datos = completarDatos(datosDeEntrada(input), emisorRol, account);
  const avisos = avisosDeca(datos, { tipo_vehiculo: input.tipo_vehiculo ?? null });
  for (const campo of desconocidos) {
    avisos.push({ campo, codigo: 'campo_desconocido', mensaje: `El campo «${campo}» no existe y se ha ignorado.` });
  }
  return { emisorRol, datos, faltan: faltaParaEmitir(datos), avisos };
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
    throw new AppError(
      'cuenta_incompleta',
      `Su empresa no tiene domicilio en la cuenta y la DeCA lo necesita: añádalo en Cuenta o envíe ${deCuenta.join(', ')}.`,
      { campos: p.faltan },
    );
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
 * Parse the body of POST /decas. When it is invalid and meant to be issued,
 * the answer also names what is missing to issue (spec: «campos names each
 * failing or missing field»), so the caller fixes everything in one round
 * instead of learning of the missing fields only after fixing the invalid ones.
 */
export function leerDecaInput(account: AccountRow, body: unknown): DecaInputParsed {
  const r = DecaInput.safeParse(body);
  if (r.success) return r.data;
  const issues: { path: ReadonlyArray<PropertyKey>; message: string }[] = [...r.error.issues];
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const resto = DecaInput.safeParse(sinValores(body, r.error.issues.map((i) => i.path)));
    if (resto.success && resto.data.emitir) {
      // Invalid fields come first, so their message wins over «missing» for the same path.
      for (const [path, message] of Object.entries(prepararDeca(account, resto.data).faltan)) issues.push({ path: [path], message });
    }
  }
  throw validationError(issues);
}

export interface CrearOpciones {
  /** The Idempotency-Key header, if sent. */
  idempotencyKey?: string | null;
  /** The request body as received, for the idempotency fingerprint. */
  cuerpo: unknown;
  desconocidos?: string[];
  antesDeConfirmar?: AntesDeConfirmar;
}

export interface CrearResultado {
  deca: DecaConRefs;
  avisos: Aviso[];
  /** 201 created; 200 an earlier request's DeCA returned again. */
  status: 201 | 200;
  replayed: boolean;
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
 * POST /decas. The number is taken and the PDF rendered before the
 * transaction opens, so neither the numbering row nor the embedded database's
 * single session is held during a render; the transaction then writes the
 * DeCA, its first version, history, events, quota and idempotency record at once.
 * Repeats (same Idempotency-Key, same ref_externa) return the first DeCA.
 */
export async function crearDeca(ctx: DomainContext, actor: Actor, account: AccountRow, input: DecaInputParsed, opts: CrearOpciones): Promise<CrearResultado> {
  const p = prepararDeca(account, input, opts.desconocidos);
  if (input.emitir) exigirCompleta(p, account);

  const existente = async (filtro: { id: number } | { ref: string }): Promise<DecaConRefs | undefined> => {
    const q = selectDecas(ctx.db, actor);
    return (await ('id' in filtro ? q.where('d.id', '=', filtro.id) : q.where('d.ref_externa', '=', filtro.ref)).executeTakeFirst()) as
      | DecaConRefs
      | undefined;
  };
  const repetida = (row: DecaConRefs): CrearResultado => ({
    deca: row,
    avisos: mismosDatos(row, p) ? [] : [AVISO_DATOS_DISTINTOS],
    status: 200,
    replayed: true,
  });

  const reclamos: Reclamo[] = [];
  if (opts.idempotencyKey) reclamos.push({ clave: `hdr:POST /decas:${opts.idempotencyKey}`, huella: huella(opts.cuerpo) });
  if (input.ref_externa) {
    const ya = await existente({ ref: input.ref_externa });
    if (ya && reclamos.length === 0) return repetida(ya);
    reclamos.push({ clave: `ref:${input.ref_externa}`, huella: huella(opts.cuerpo), esperarSiDistinta: true });
  }

  const r = await conIdempotencia(ctx.db, ctx.clock, actor, reclamos, async (completarTodas) => {
    if (input.ref_externa) {
      const ya = await existente({ ref: input.ref_externa });
      if (ya) return repetida(ya);
    }
    const now = ctx.clock.now();
    // Check the quota before taking a number, so refusals do not burn numbers.
    const cuota = await obtenerCuota(ctx.db, account, actor.entorno, now);
    if (cuota.limite !== null && cuota.restantes === 0) throw limitePlan(cuota.limite, cuota.periodo);

    const numero = await asignarNumero(ctx.db, actor, now);
    const tokenPublico = randomToken(24);
    const emitir = input.emitir;
    const pdf = emitir
      ? await renderVersion(ctx.renderPdf, ctx.siteUrl, p.datos, { numero, version: 1, tokenPublico, emitidoAt: now, modificadoAt: null, motivo: null, sustituyeA: null })
      : null;

    const deca = await ctx.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('decas')
        .values({
          account_id: actor.accountId,
          entorno: actor.entorno,
          numero,
          estado: emitir ? 'emitido' : 'pendiente',
          ref_externa: input.ref_externa ?? null,
          emisor_rol: p.emisorRol,
          canal: actor.canal,
          ...columnasDeDatos(p.datos),
          token_publico: tokenPublico,
          token_completar: emitir ? null : randomToken(24),
          pdf_sha256: pdf?.sha256 ?? null,
          pdf_bytes: pdf?.bytes ?? null,
          emitido_at: emitir ? now : null,
          created_at: now,
          updated_at: now,
          creado_por_key_id: actor.keyId,
          creado_por_user_id: actor.userId,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const campos = CAMPOS_DATOS.filter((c) => c !== 'envios' && p.datos[c] !== null).map((c) => ({ campo: c, antes: null, despues: p.datos[c] }));
      await registrarCambio(trx, actor, row.id, { version: 1, tipo: 'creacion', campos }, now);
      if (pdf) {
        await guardarVersion(trx, actor, row.id, pdf, now);
        await registrarCambio(trx, actor, row.id, { version: 1, tipo: 'emision' }, now);
      }
      await consumirCuota(trx, account, actor.entorno, now);
      await completarTodas(trx, { decaId: row.id, status: 201 });
      await opts.antesDeConfirmar?.(trx, row.id, 201);
      return publicar(trx, actor, row.id, emitir ? ['deca.creado', 'deca.emitido'] : ['deca.creado'], now, ctx.siteUrl);
    });
    return { deca, avisos: p.avisos, status: 201 as const, replayed: false };
  });

  if ('hecho' in r) return r.hecho;
  if (r.repeticion.distinta && !r.reclamo.esperarSiDistinta) {
    throw new AppError(
      'idempotencia_distinta',
      'Esta Idempotency-Key ya se usó con otra petición distinta. Use una clave nueva para cada DeCA.',
      { campos: { 'Idempotency-Key': 'Ya usada con otro cuerpo' } },
    );
  }
  const row = r.repeticion.decaId !== null ? await existente({ id: r.repeticion.decaId }) : undefined;
  if (!row) {
    throw new AppError('no_encontrado', 'La DeCA creada con esta clave ya no existe (se borró cuando estaba pendiente). Use una clave nueva.');
  }
  return repetida(row);
}
