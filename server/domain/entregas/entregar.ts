/**
 * Proof of delivery (POST /decas/{id}/entregas, an extension): what the
 * driver's phone collected when a shipment was handed over or refused, kept
 * with its DeCA, in its history and out as `deca.entregado` /
 * `deca.entrega_rechazada`. Each shipment is delivered (or refused) once; a
 * delivery of the whole DeCA (`envio` absent) covers every shipment.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { API_BASE } from '../../../shared/api/rutas';
import { AppError, type Aviso } from '../../../shared/errors';
import type { JustificantePdfData } from '../../../shared/pdf/justificante-pdf';
import { formatMadrid } from '../../../shared/rules/fechas';
import { validarNif } from '../../../shared/rules/nif';
import { BASE64_FOTO_ENTREGA, type Entrega, type EntregaCreada, type EntregaInputParsed, FOTO_ENTREGA_MAXIMA } from '../../../shared/schemas/entrega';
import { claveFoto, errorAlGuardar, errorDeBlob } from '../../blobs/almacen';
import type { DB, EntregasTable } from '../../db/schema';
import { sha256Hex } from '../../sha256';
import type { Actor } from '../actor';
import { delAmbito } from '../ambito';
import { type DomainContext, type Plan, RevisionCambiada } from '../context';
import { enqueueCorreo, mensajeJustificante } from '../correo/correos';
import { cambioRegistrado } from '../decas/escritura';
import { exigirEstado } from '../decas/estado';
import { bloquearDeca, type DecaConRefs, obtenerDeca } from '../decas/queries';
import { presentDeca } from '../presenters/deca';
import { firmaPng, miniatura } from './miniaturas';

type FilaEntrega = Omit<{ [K in keyof EntregasTable]: EntregasTable[K] extends import('kysely').ColumnType<infer S, unknown, unknown> ? S : EntregasTable[K] }, never>;

/** The public page that confirms a receipt (its QR): an unguessable token, never the DeCA's id. */
export function verificarEntregaUrl(siteUrl: string, token: string): string {
  return `${siteUrl}/e/${token}`;
}

/** A delivery as the API gives it. */
export function presentEntregaDeca(row: FilaEntrega, siteUrl: string): Entrega {
  return {
    n: row.n,
    envio: row.envio,
    resultado: row.resultado,
    receptor_nombre: row.receptor_nombre,
    receptor_documento: row.receptor_documento,
    firma: row.firma,
    reservas: row.reservas,
    sin_reservas: row.sin_reservas,
    motivo_rechazo: row.motivo_rechazo,
    fotos: row.fotos.length,
    posicion: row.posicion,
    registrada_at: formatMadrid(row.registrada_at),
    recibida_at: formatMadrid(row.created_at),
    canal: row.canal,
    pdf_sha256: row.pdf_sha256,
    urls: {
      pdf: `${siteUrl}${API_BASE[row.entorno]}/decas/${row.deca_id}/entregas/${row.n}/pdf`,
      firma: row.firma_png ? `${siteUrl}${API_BASE[row.entorno]}/decas/${row.deca_id}/entregas/${row.n}/firma.png` : null,
      verificar: verificarEntregaUrl(siteUrl, row.token),
    },
  };
}

/** What the webhooks and the history carry: the delivery without the signature's strokes or position (the account's, not every subscriber's). */
function paraEvento(e: Entrega): Omit<Entrega, 'firma' | 'posicion'> & { firma: boolean } {
  const { firma, posicion: _posicion, ...resto } = e;
  return { ...resto, firma: firma !== null };
}

const fotoNoValida = (i: number, motivo: string) => new AppError('validacion', `La foto ${i + 1} de la entrega ${motivo}.`, { campos: { [`fotos[${i}]`]: motivo } });

/** A photo's bytes from its base64 text (with or without its `data:` prefix): JPEG only, at most 1 MB. */
function bytesDeFoto(texto: string, i: number): Uint8Array {
  const b64 = texto.replace(/^data:image\/[\w.+-]+;base64,/, '').replace(/\s+/g, '');
  if (b64.length > BASE64_FOTO_ENTREGA || !/^[A-Za-z0-9+/]*={0,2}$/.test(b64)) throw fotoNoValida(i, 'no está en base64');
  const bytes = new Uint8Array(Buffer.from(b64, 'base64'));
  if (bytes.byteLength > FOTO_ENTREGA_MAXIMA) throw fotoNoValida(i, 'supera 1 MB: redúzcala');
  if (!(bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff)) throw fotoNoValida(i, 'no es un JPEG');
  return bytes;
}

/** The deliveries of a DeCA, first to last. */
export async function listarEntregasDeca(ctx: Pick<DomainContext, 'db' | 'siteUrl'>, actor: Actor, ref: string): Promise<{ deca: { id: number; numero: string }; entregas: Entrega[] }> {
  const deca = await obtenerDeca(ctx.db, actor, ref);
  const filas = await ctx.db.selectFrom('entregas').selectAll().where('deca_id', '=', deca.id).where(delAmbito(actor)).orderBy('n').execute();
  return { deca: { id: deca.id, numero: deca.numero }, entregas: filas.map((f) => presentEntregaDeca(f, ctx.siteUrl)) };
}

/** One delivery of a DeCA by its number `n` (404 when there is none). */
export async function obtenerEntrega(ctx: Pick<DomainContext, 'db' | 'siteUrl'>, actor: Actor, ref: string, texto: string) {
  const deca = await obtenerDeca(ctx.db, actor, ref);
  // Not a number as the path gives it (`1`, `2`…): no such delivery, as for a DeCA's id.
  const n = /^[1-9]\d{0,8}$/.test(texto) ? Number(texto) : 0;
  const fila = await ctx.db.selectFrom('entregas').selectAll().where('deca_id', '=', deca.id).where('n', '=', n).where(delAmbito(actor)).executeTakeFirst();
  if (!fila) throw new AppError('no_encontrado', `La DeCA ${deca.numero} no tiene la entrega ${texto.slice(0, 10)}.`);
  return { deca, fila };
}

type Previa = { n: number; envio: number | null; resultado: 'entregada' | 'rechazada' };

export async function leerPrevias(db: Kysely<DB>, actor: Actor, decaId: number): Promise<Previa[]> {
  return db.selectFrom('entregas').select(['n', 'envio', 'resultado']).where('deca_id', '=', decaId).where(delAmbito(actor)).orderBy('n').execute();
}

/** 409 `entregado` when the shipment (or, for the whole DeCA, any shipment) already has its delivery or refusal. */
export function exigirLibre(numero: string, previas: readonly Previa[], envio: number | null): void {
  const choca = previas.find((p) => p.envio === null || envio === null || p.envio === envio);
  if (!choca) return;
  const hecha = choca.resultado === 'entregada' ? 'ya se entregó' : 'ya se rechazó';
  throw new AppError('entregado', `DeCA ${numero}: ${queEnvio(choca.envio)} ${hecha} (entrega ${choca.n}); una entrega no se anota dos veces.`);
}

/** A delivery's sealed receipt, read from the blob store. */
export async function leerJustificante(
  ctx: Pick<DomainContext, 'db' | 'siteUrl' | 'blobs'>,
  actor: Actor,
  ref: string,
  texto: string,
): Promise<{ numero: string; n: number; sha256: string; pdf: Uint8Array }> {
  const { deca, fila } = await obtenerEntrega(ctx, actor, ref, texto);
  const n = fila.n;
  const pdf = await ctx.blobs.leer(fila.pdf_sha256, fila.pdf_clave).catch((err: unknown) => {
    throw errorDeBlob(err, `El justificante de la entrega ${n} de la DeCA ${deca.numero}`);
  });
  return { numero: deca.numero, n, sha256: fila.pdf_sha256, pdf };
}

/** A delivery's signature as the PNG kept with it (404 when it has none: a refusal left unsigned). */
export async function leerFirmaPng(
  ctx: Pick<DomainContext, 'db' | 'siteUrl' | 'blobs'>,
  actor: Actor,
  ref: string,
  texto: string,
): Promise<{ numero: string; n: number; sha256: string; png: Uint8Array }> {
  const { deca, fila } = await obtenerEntrega(ctx, actor, ref, texto);
  const n = fila.n;
  if (!fila.firma_png) throw new AppError('no_encontrado', `La entrega ${n} de la DeCA ${deca.numero} no tiene firma.`);
  const { sha256, clave } = fila.firma_png;
  const png = await ctx.blobs.leer(sha256, clave).catch((err: unknown) => {
    throw errorDeBlob(err, `La firma de la entrega ${n} de la DeCA ${deca.numero}`);
  });
  return { numero: deca.numero, n, sha256, png };
}

/**
 * The shipper's e-mail the DeCA has, if any: when the carrier issued it, the
 * address its completion link was last sent to (the shipper's, asked for its
 * data with POST /decas/{id}/pedir-datos). A DeCA the shipper issued itself
 * has none: the receipt is in its account.
 */
async function correoDelCargador(db: Kysely<DB>, actor: Actor, row: Pick<DecaConRefs, 'id' | 'emisor_rol'>): Promise<string | null> {
  if (row.emisor_rol !== 'transportista') return null;
  const c = await db.selectFrom('correos').select('destinatario').where(delAmbito(actor)).where('deca_id', '=', row.id).where('tipo', '=', 'pedir_datos').orderBy('id', 'desc').executeTakeFirst();
  return c?.destinatario ?? null;
}

/** The shipment asked for (null: all of them), refused (422) when the DeCA has no such shipment. */
export function exigirEnvio(row: Pick<DecaConRefs, 'numero' | 'envios'>, envio: number | undefined): number | null {
  if (envio === undefined) return null;
  if (envio >= row.envios.length) {
    const hay = row.envios.length === 1 ? 'un envío (el 0)' : `${row.envios.length} envíos (del 0 al ${row.envios.length - 1})`;
    throw new AppError('validacion', `La DeCA ${row.numero} tiene ${hay}: no hay envío ${envio}.`, { campos: { envio: `No hay envío ${envio} en esta DeCA` } });
  }
  return envio;
}

const queEnvio = (envio: number | null) => (envio === null ? 'la DeCA entera' : `el envío ${envio + 1}`);

/** POST /decas/{id}/entregas. */
export async function prepararEntrega(ctx: DomainContext, actor: Actor, ref: string, input: EntregaInputParsed): Promise<Plan<EntregaCreada>> {
  const row = await obtenerDeca(ctx.db, actor, ref);
  exigirEstado(row, 'entregar');
  const envio = exigirEnvio(row, input.envio);
  const avisos: Aviso[] = [];
  if (input.receptor_documento) {
    const v = validarNif(input.receptor_documento);
    if (!v.valido)
      avisos.push({ campo: 'receptor_documento', codigo: 'documento_no_valido', mensaje: `Revise el DNI o NIE ${input.receptor_documento}: ${v.motivo ?? 'no es válido'}. Se ha guardado tal cual.` });
  }
  const fotos = (input.fotos ?? []).map(bytesDeFoto);
  const [miniaturas, png] = await Promise.all([Promise.all(fotos.map(miniatura)), input.firma ? firmaPng(input.firma) : null]);

  // Refused at once, before rendering anything, when the shipment already has its delivery (checked again under the lock).
  const previas = await leerPrevias(ctx.db, actor, row.id);
  exigirLibre(row.numero, previas, envio);
  const n = (previas.at(-1)?.n ?? 0) + 1;
  const now = ctx.clock.now();
  const token = randomBytes(16).toString('base64url');

  // The photos and the sealed receipt go to the blob store first, outside the transaction (like the albarán's photo): a failure changes nothing.
  const guardadas: { clave: string; sha256: string; bytes: number }[] = [];
  const siFalla = async () => {
    await Promise.all(guardadas.map((g) => ctx.blobs.borrar(g.sha256, g.clave)));
  };
  const guardar = async (bytes: Uint8Array) => {
    const sha256 = sha256Hex(bytes);
    const clave = claveFoto(randomBytes(16).toString('hex'), sha256);
    await ctx.blobs.guardar(sha256, bytes, clave);
    const g = { clave, sha256, bytes: bytes.byteLength };
    guardadas.push(g);
    return g;
  };
  const datos: JustificantePdfData = {
    tipo: 'justificante',
    entorno: actor.entorno,
    numero: row.numero,
    n,
    envios: row.envios.flatMap((e, indice) => (envio === null || envio === indice ? [{ indice, origen: e.origen, destino: e.destino, naturaleza: e.naturaleza }] : [])),
    todos: envio === null,
    cargador_nombre: row.cargador_nombre,
    transp_nombre: row.transp_nombre,
    matricula: row.matricula,
    conductor_nombre: row.conductor_nombre,
    resultado: input.resultado,
    receptor_nombre: input.receptor_nombre ?? null,
    receptor_documento: input.receptor_documento ?? null,
    reservas: input.reservas ?? null,
    sin_reservas: input.sin_reservas === true,
    motivo_rechazo: input.motivo_rechazo ?? null,
    registrada_at: formatMadrid(new Date(input.registrada_at)),
    recibida_at: formatMadrid(now),
    posicion: input.posicion ?? null,
    firma: input.firma ?? null,
    fotos: miniaturas,
    verificar_url: verificarEntregaUrl(ctx.siteUrl, token),
  };
  const pdf = await ctx.renderPdf(datos);
  const cargador = await correoDelCargador(ctx.db, actor, row);
  let fotosGuardadas: typeof guardadas;
  let justificante: (typeof guardadas)[number];
  let firmaGuardada: (typeof guardadas)[number] | null;
  try {
    fotosGuardadas = [];
    for (const foto of fotos) fotosGuardadas.push(await guardar(foto));
    firmaGuardada = png ? await guardar(png) : null;
    justificante = await guardar(pdf);
  } catch (err) {
    await siFalla().catch(() => undefined);
    throw errorAlGuardar(err, 'el justificante de la entrega');
  }

  return {
    siFalla,
    aplicar: async (trx) => {
      await bloquearDeca(trx, actor, row.id);
      const ahora = await leerPrevias(trx, actor, row.id);
      exigirLibre(row.numero, ahora, envio);
      // Another delivery of this DeCA came in meanwhile: its number is taken, so the receipt is made again.
      if ((ahora.at(-1)?.n ?? 0) + 1 !== n) throw new RevisionCambiada();
      const fila = await trx
        .insertInto('entregas')
        .values({
          account_id: actor.accountId,
          entorno: actor.entorno,
          deca_id: row.id,
          n,
          envio,
          resultado: input.resultado,
          receptor_nombre: input.receptor_nombre ?? null,
          receptor_documento: input.receptor_documento ?? null,
          firma: input.firma ? JSON.stringify(input.firma) : null,
          reservas: input.reservas ?? null,
          sin_reservas: input.sin_reservas === true,
          motivo_rechazo: input.motivo_rechazo ?? null,
          fotos: JSON.stringify(fotosGuardadas),
          posicion: input.posicion ? JSON.stringify(input.posicion) : null,
          registrada_at: new Date(input.registrada_at),
          created_at: now,
          canal: actor.canal,
          user_id: actor.userId,
          api_key_id: actor.keyId,
          token,
          pdf_sha256: justificante.sha256,
          pdf_clave: justificante.clave,
          firma_png: firmaGuardada ? JSON.stringify(firmaGuardada) : null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      const entrega = presentEntregaDeca(fila, ctx.siteUrl);
      if (cargador) {
        await enqueueCorreo(
          trx,
          actor,
          {
            tipo: 'justificante_entrega',
            decaId: row.id,
            destinatario: cargador,
            adjuntos: [{ deca_id: row.id, entrega: n, filename: `DeCA-${row.numero}-entrega-${n}.pdf` }],
            ...mensajeJustificante(actor.cuenta, row, ctx.siteUrl, { ...fila, registrada_at: datos.registrada_at }),
          },
          now,
        );
      }
      const valor: EntregaCreada = { entrega, avisos };
      const evento = input.resultado === 'entregada' ? 'deca.entregado' : 'deca.entrega_rechazada';
      const resumen = input.resultado === 'entregada' ? `entregada a ${input.receptor_nombre ?? ''}` : `rechazada: ${input.motivo_rechazo ?? ''}`;
      return {
        valor,
        registro: { decaId: row.id, respuesta: valor },
        eventos: [{ scope: actor, eventos: [evento], decaId: row.id, data: { deca: presentDeca(row, ctx.siteUrl), entrega: paraEvento(entrega) }, now }],
        partes: cambioRegistrado(
          trx,
          actor,
          row.id,
          { version: row.version, tipo: 'entrega', campos: [{ campo: envio === null ? 'entrega' : `envios[${envio}].entrega`, antes: null, despues: resumen }] },
          now,
        ),
      };
    },
  };
}
