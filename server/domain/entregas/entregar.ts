/**
 * Proof of delivery (POST /decas/{id}/entregas, an extension): what the
 * driver's phone collected when a shipment was handed over or refused, kept
 * with its DeCA, in its history and out as `deca.entregado` /
 * `deca.entrega_rechazada`. Each shipment is delivered (or refused) once; a
 * delivery of the whole DeCA (`envio` absent) covers every shipment.
 */
import { randomBytes } from 'node:crypto';
import { API_BASE } from '../../../shared/api/rutas';
import { AppError, type Aviso } from '../../../shared/errors';
import { formatMadrid } from '../../../shared/rules/fechas';
import { validarNif } from '../../../shared/rules/nif';
import { BASE64_FOTO_ENTREGA, type Entrega, type EntregaCreada, type EntregaInputParsed, FOTO_ENTREGA_MAXIMA } from '../../../shared/schemas/entrega';
import { claveFoto, errorAlGuardar } from '../../blobs/almacen';
import type { EntregasTable } from '../../db/schema';
import { sha256Hex } from '../../sha256';
import type { Actor } from '../actor';
import { delAmbito } from '../ambito';
import type { DomainContext, Plan } from '../context';
import { cambioRegistrado } from '../decas/escritura';
import { exigirEstado } from '../decas/estado';
import { bloquearDeca, obtenerDeca } from '../decas/queries';
import { presentDeca } from '../presenters/deca';

type FilaEntrega = Omit<{ [K in keyof EntregasTable]: EntregasTable[K] extends import('kysely').ColumnType<infer S, unknown, unknown> ? S : EntregasTable[K] }, never>;

/** The public page that confirms a receipt (its QR): an unguessable token, never the DeCA's id. */
export function verificarEntregaUrl(siteUrl: string, token: string): string {
  return `${siteUrl}/e/${token}`;
}

/** A delivery as the API gives it. */
export function presentEntrega(row: FilaEntrega, siteUrl: string): Entrega {
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
      pdf: row.pdf_sha256 ? `${siteUrl}${API_BASE[row.entorno]}/decas/${row.deca_id}/entregas/${row.n}/pdf` : null,
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
export async function listarEntregas(ctx: Pick<DomainContext, 'db' | 'siteUrl'>, actor: Actor, ref: string): Promise<{ deca: { id: number; numero: string }; entregas: Entrega[] }> {
  const deca = await obtenerDeca(ctx.db, actor, ref);
  const filas = await ctx.db.selectFrom('entregas').selectAll().where('deca_id', '=', deca.id).where(delAmbito(actor)).orderBy('n').execute();
  return { deca: { id: deca.id, numero: deca.numero }, entregas: filas.map((f) => presentEntrega(f, ctx.siteUrl)) };
}

/** One delivery of a DeCA by its number `n` (404 when there is none). */
export async function obtenerEntrega(ctx: Pick<DomainContext, 'db' | 'siteUrl'>, actor: Actor, ref: string, n: number) {
  const deca = await obtenerDeca(ctx.db, actor, ref);
  const fila = await ctx.db.selectFrom('entregas').selectAll().where('deca_id', '=', deca.id).where('n', '=', n).where(delAmbito(actor)).executeTakeFirst();
  if (!fila) throw new AppError('no_encontrado', `La DeCA ${deca.numero} no tiene la entrega ${n}.`);
  return { deca, fila };
}

const queEnvio = (envio: number | null) => (envio === null ? 'la DeCA entera' : `el envío ${envio + 1}`);

/** POST /decas/{id}/entregas. */
export async function prepararEntrega(ctx: DomainContext, actor: Actor, ref: string, input: EntregaInputParsed): Promise<Plan<EntregaCreada>> {
  const row = await obtenerDeca(ctx.db, actor, ref);
  exigirEstado(row, 'entregar');
  const envio = input.envio ?? null;
  if (envio !== null && envio >= row.envios.length) {
    const hay = row.envios.length === 1 ? 'un envío (el 0)' : `${row.envios.length} envíos (del 0 al ${row.envios.length - 1})`;
    throw new AppError('validacion', `La DeCA ${row.numero} tiene ${hay}: no hay envío ${envio}.`, { campos: { envio: `No hay envío ${envio} en esta DeCA` } });
  }
  const avisos: Aviso[] = [];
  if (input.receptor_documento) {
    const v = validarNif(input.receptor_documento);
    if (!v.valido)
      avisos.push({ campo: 'receptor_documento', codigo: 'documento_no_valido', mensaje: `Revise el DNI o NIE ${input.receptor_documento}: ${v.motivo ?? 'no es válido'}. Se ha guardado tal cual.` });
  }
  const fotos = (input.fotos ?? []).map(bytesDeFoto);

  // The photos' bytes go to the blob store first, outside the transaction (like the albarán's photo): a failure changes nothing.
  const guardadas: { clave: string; sha256: string; bytes: number }[] = [];
  const siFalla = async () => {
    await Promise.all(guardadas.map((g) => ctx.blobs.borrar(g.sha256, g.clave)));
  };
  try {
    for (const foto of fotos) {
      const sha256 = sha256Hex(foto);
      const clave = claveFoto(randomBytes(16).toString('hex'), sha256);
      await ctx.blobs.guardar(sha256, foto, clave);
      guardadas.push({ clave, sha256, bytes: foto.byteLength });
    }
  } catch (err) {
    await siFalla().catch(() => undefined);
    throw errorAlGuardar(err, 'las fotos de la entrega');
  }

  return {
    siFalla,
    aplicar: async (trx) => {
      await bloquearDeca(trx, actor, row.id);
      const previas = await trx.selectFrom('entregas').select(['n', 'envio', 'resultado']).where('deca_id', '=', row.id).where(delAmbito(actor)).orderBy('n').execute();
      const choca = previas.find((p) => p.envio === null || envio === null || p.envio === envio);
      if (choca) {
        const hecha = choca.resultado === 'entregada' ? 'ya se entregó' : 'ya se rechazó';
        throw new AppError('entregado', `DeCA ${row.numero}: ${queEnvio(choca.envio)} ${hecha} (entrega ${choca.n}); una entrega no se anota dos veces.`);
      }
      const now = ctx.clock.now();
      const n = (previas.at(-1)?.n ?? 0) + 1;
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
          fotos: JSON.stringify(guardadas),
          posicion: input.posicion ? JSON.stringify(input.posicion) : null,
          registrada_at: new Date(input.registrada_at),
          created_at: now,
          canal: actor.canal,
          user_id: actor.userId,
          api_key_id: actor.keyId,
          token: randomBytes(16).toString('base64url'),
          pdf_sha256: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      const entrega = presentEntrega(fila, ctx.siteUrl);
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
