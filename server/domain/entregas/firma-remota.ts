/**
 * «Firmar en su móvil» (an extension of proofs of delivery): instead of
 * signing on the driver's phone, the consignee opens a link (a QR on the
 * driver's screen) on their own phone, with no account, and signs there. The
 * link is valid 30 minutes and spent by the one delivery it records; a newer
 * link for the same shipment voids the older. The delivery it makes is the
 * same as POST /decas/{id}/entregas makes (prepararEntrega: receipt, history,
 * webhooks, the shipper's e-mail), recorded for whoever asked for the link;
 * the driver's phone asks how the link is doing and sees the signature
 * arrive.
 */
import { randomBytes } from 'node:crypto';
import { AppError, type Campos, issuesToCampos } from '../../../shared/errors';
import { formatMadrid } from '../../../shared/rules/fechas';
import { formatPeso } from '../../../shared/rules/peso';
import { hayFirma, normalizarTrazo, type TrazoFirma } from '../../../shared/rules/trazo-firma';
import { type Entrega, type EntregaCreada, EntregaInput, type FirmaRemota, MAX_PUNTOS, MAX_TRAZOS, MINUTOS_FIRMA_REMOTA } from '../../../shared/schemas/entrega';
import type { ValoresFirmaRemota, VistaFirmaRemota } from '../../../shared/schemas/publico';
import type { FirmasRemotasTable } from '../../db/schema';
import { sha256Hex } from '../../sha256';
import type { Actor } from '../actor';
import { delAmbito } from '../ambito';
import type { DomainContext, Plan } from '../context';
import { exigirEstado } from '../decas/estado';
import { type DecaConRefs, obtenerDeca } from '../decas/queries';
import { escritura } from '../plan';

export type { ValoresFirmaRemota, VistaFirmaRemota };

import { exigirEnvio, exigirLibre, leerPrevias, prepararEntrega, presentEntregaDeca } from './entregar';

type Fila = { [K in keyof FirmasRemotasTable]: FirmasRemotasTable[K] extends import('kysely').ColumnType<infer S, unknown, unknown> ? S : FirmasRemotasTable[K] };

/** The consignee's page: short, for a QR that scans at arm's length. */
export function urlFirmaRemota(siteUrl: string, token: string): string {
  return `${siteUrl}/f/${token}`;
}

const huella = (token: string) => sha256Hex(token);

function estadoDe(f: Pick<Fila, 'usada_at' | 'anulada_at' | 'expira_at'>, ahora: Date): FirmaRemota['estado'] {
  if (f.usada_at) return 'firmada';
  if (f.anulada_at) return 'anulada';
  return f.expira_at.getTime() <= ahora.getTime() ? 'caducada' : 'esperando';
}

function presentFirmaRemota(f: Fila, ahora: Date, url: string | null, entrega: Entrega | null): FirmaRemota {
  const estado = estadoDe(f, ahora);
  return {
    id: f.id,
    envio: f.envio,
    estado,
    url,
    expira_at: formatMadrid(f.expira_at),
    segundos_restantes: estado === 'esperando' ? Math.max(0, Math.floor((f.expira_at.getTime() - ahora.getTime()) / 1000)) : 0,
    entrega,
  };
}

/**
 * POST /decas/{id}/entregas/firma-remota: a new link for the shipment (or the
 * whole DeCA), for an issued DeCA whose shipment has no delivery yet. Only its
 * token's digest is kept: the link is in this answer alone.
 */
export async function prepararFirmaRemota(ctx: DomainContext, actor: Actor, ref: string, envioPedido: number | undefined): Promise<Plan<FirmaRemota>> {
  const row = await obtenerDeca(ctx.db, actor, ref);
  exigirEstado(row, 'entregar');
  const envio = exigirEnvio(row, envioPedido);
  exigirLibre(row.numero, await leerPrevias(ctx.db, actor, row.id), envio);
  const token = randomBytes(18).toString('base64url');
  return escritura(async (trx) => {
    const now = ctx.clock.now();
    // One live link per shipment: the one the driver shows now.
    await trx
      .updateTable('firmas_remotas')
      .set({ anulada_at: now })
      .where(delAmbito(actor))
      .where('deca_id', '=', row.id)
      .where((eb) => (envio === null ? eb('envio', 'is', null) : eb('envio', '=', envio)))
      .where('usada_at', 'is', null)
      .where('anulada_at', 'is', null)
      .execute();
    const fila = await trx
      .insertInto('firmas_remotas')
      .values({
        account_id: actor.accountId,
        entorno: actor.entorno,
        deca_id: row.id,
        envio,
        token_sha256: huella(token),
        created_at: now,
        expira_at: new Date(now.getTime() + MINUTOS_FIRMA_REMOTA * 60_000),
        canal: actor.canal,
        user_id: actor.userId,
        api_key_id: actor.keyId,
        etiqueta: actor.etiqueta,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return presentFirmaRemota(fila, now, urlFirmaRemota(ctx.siteUrl, token), null);
  });
}

/** GET /decas/{id}/entregas/firma-remota/{solicitud}: how the link is doing, and the delivery once signed. */
export async function verFirmaRemota(ctx: Pick<DomainContext, 'db' | 'siteUrl' | 'clock'>, actor: Actor, ref: string, texto: string): Promise<FirmaRemota> {
  const deca = await obtenerDeca(ctx.db, actor, ref);
  const id = /^[1-9]\d{0,14}$/.test(texto) ? Number(texto) : 0;
  const fila = await ctx.db.selectFrom('firmas_remotas').selectAll().where(delAmbito(actor)).where('deca_id', '=', deca.id).where('id', '=', id).executeTakeFirst();
  if (!fila) throw new AppError('no_encontrado', `La DeCA ${deca.numero} no tiene el enlace para firmar ${texto.slice(0, 20)}.`);
  // The driver's phone asks every few seconds: the one delivery by its number, not the DeCA's list.
  const hecha =
    fila.entrega_n === null ? undefined : await ctx.db.selectFrom('entregas').selectAll().where(delAmbito(actor)).where('deca_id', '=', deca.id).where('n', '=', fila.entrega_n).executeTakeFirst();
  const entrega = hecha ? presentEntregaDeca(hecha, ctx.siteUrl) : null;
  return presentFirmaRemota(fila, ctx.clock.now(), null, entrega);
}

/**
 * POST …/firma-remota/{solicitud}/anular: the driver takes the signature on
 * their own phone after all, so the link must not take one too. A link
 * already signed is not undone: the answer says so, with its delivery.
 */
export async function prepararAnulacion(ctx: DomainContext, actor: Actor, ref: string, texto: string): Promise<Plan<FirmaRemota>> {
  const actual = await verFirmaRemota(ctx, actor, ref, texto);
  if (actual.estado !== 'esperando') return { valor: actual };
  return escritura(async (trx) => {
    const now = ctx.clock.now();
    await trx.updateTable('firmas_remotas').set({ anulada_at: now }).where(delAmbito(actor)).where('id', '=', actual.id).where('usada_at', 'is', null).where('anulada_at', 'is', null).execute();
    const fila = await trx.selectFrom('firmas_remotas').selectAll().where('id', '=', actual.id).executeTakeFirstOrThrow();
    // Signed in the same instant: its delivery is read once this transaction is over (the driver's phone asks again).
    return presentFirmaRemota(fila, now, null, null);
  });
}

/** A link that can no longer be signed, refused as its state says. */
function exigirVigente(fila: Pick<Fila, 'usada_at' | 'anulada_at' | 'expira_at'>, ahora: Date): void {
  const estado = estadoDe(fila, ahora);
  if (estado === 'firmada') throw new AppError('entregado', 'Esta entrega ya está firmada. Gracias: no hace falta hacer nada más.');
  if (estado !== 'esperando') {
    throw new AppError('enlace_caducado', `Este enlace para firmar ya no vale (dura ${MINUTOS_FIRMA_REMOTA} minutos, y solo el último que se pidió). Pida al conductor un código nuevo.`);
  }
}

interface Abierta {
  fila: Fila;
  actor: Actor;
  row: DecaConRefs;
  vista: VistaFirmaRemota;
}

/**
 * The link's row and its DeCA, for a link that can still be signed: unknown
 * (404), spent (409 `entregado`: the page thanks, it does not ask again) or
 * past its 30 minutes or replaced (410 `enlace_caducado`: ask the driver for
 * a new one). The delivery is recorded for whoever asked for the link.
 */
async function abrir(ctx: Pick<DomainContext, 'db' | 'clock'>, token: string): Promise<Abierta> {
  const fila = await ctx.db.selectFrom('firmas_remotas').selectAll().where('token_sha256', '=', huella(token)).executeTakeFirst();
  if (!fila) throw new AppError('no_encontrado', 'Este enlace para firmar no existe. Pida al conductor que le muestre el código otra vez.');
  const ahora = ctx.clock.now();
  exigirVigente(fila, ahora);
  const cuenta = await ctx.db.selectFrom('accounts').selectAll().where('id', '=', fila.account_id).executeTakeFirstOrThrow();
  const actor: Actor = {
    accountId: fila.account_id,
    cuenta,
    entorno: fila.entorno,
    canal: fila.canal,
    keyId: fila.api_key_id,
    userId: fila.user_id,
    rol: null,
    soloLectura: false,
    etiqueta: `destinatario (firma en su móvil; enlace de ${fila.etiqueta})`,
  };
  const row = await obtenerDeca(ctx.db, actor, String(fila.deca_id));
  const vista: VistaFirmaRemota = {
    numero: row.numero,
    cargador_nombre: row.cargador_nombre,
    transp_nombre: row.transp_nombre,
    matricula: [row.matricula, row.matricula_remolque].filter(Boolean).join(' + ') || null,
    conductor_nombre: row.conductor_nombre,
    envios: row.envios.flatMap((e, indice) =>
      fila.envio === null || fila.envio === indice
        ? [{ indice, origen: e.origen, destino: e.destino, naturaleza: e.naturaleza, cantidad: e.peso === null ? null : `${formatPeso(e.peso)} ${e.unidad}` }]
        : [],
    ),
    todos: fila.envio === null,
    expira_at: formatMadrid(fila.expira_at),
    minutos_restantes: Math.max(1, Math.ceil((fila.expira_at.getTime() - ahora.getTime()) / 60_000)),
  };
  return { fila, actor, row, vista };
}

/** The consignee's page for a link that can be signed. */
export async function abrirFirmaRemota(ctx: Pick<DomainContext, 'db' | 'clock'>, token: string): Promise<VistaFirmaRemota> {
  return (await abrir(ctx, token)).vista;
}

export type PasoFirmaRemota =
  | { tipo: 'formulario'; vista: VistaFirmaRemota; valores: ValoresFirmaRemota; errores: Campos }
  | { tipo: 'firmada'; vista: VistaFirmaRemota; entrega: Entrega; avisos: EntregaCreada['avisos'] };

/**
 * The pad's JSON (`{"w":…,"h":…,"t":[[[x,y],…],…]}`, points in the pad's
 * pixels as the finger went) as the API's signature: each stroke normalised
 * and thinned by the shared rule the driver's pad uses. Anything else is no
 * signature.
 */
export function firmaDelPanel(texto: string | undefined): { proporcion: number; trazos: TrazoFirma[] } | undefined {
  if (!texto || texto.length > 200_000) return undefined;
  let p: unknown;
  try {
    p = JSON.parse(texto);
  } catch {
    return undefined;
  }
  if (typeof p !== 'object' || p === null) return undefined;
  const { w, h, t } = p as { w?: unknown; h?: unknown; t?: unknown };
  if (typeof w !== 'number' || typeof h !== 'number' || !(w > 0 && h > 0) || !Array.isArray(t)) return undefined;
  const trazos: TrazoFirma[] = [];
  for (const trazo of t.slice(0, MAX_TRAZOS)) {
    if (!Array.isArray(trazo)) continue;
    const puntos = trazo
      .slice(0, MAX_PUNTOS)
      .filter((q): q is [number, number] => Array.isArray(q) && Number.isFinite(q[0]) && Number.isFinite(q[1]))
      .map(([x, y]) => ({ x, y }));
    const n = normalizarTrazo(puntos, w, h);
    if (n.length > 0) trazos.push(n);
  }
  return trazos.length > 0 ? { proporcion: Math.min(10, Math.max(0.2, w / h)), trazos } : undefined;
}

/**
 * The consignee's post: checked with the same schema as the API (a clear
 * message per field, the form shown again with what was written), then the
 * delivery recorded as POST /decas/{id}/entregas records it, spending the
 * link in the same transaction: a second post (a double tap, the back
 * button) finds it spent and is told the delivery is signed.
 */
export async function prepararFirmaDelDestinatario(ctx: DomainContext, token: string, valores: ValoresFirmaRemota): Promise<Plan<PasoFirmaRemota>> {
  const { fila, actor, row, vista } = await abrir(ctx, token);
  const entregada = valores.resultado !== 'rechazada';
  const firma = firmaDelPanel(valores.firma);
  const datos = {
    ...(fila.envio !== null ? { envio: fila.envio } : {}),
    resultado: entregada ? 'entregada' : 'rechazada',
    receptor_nombre: valores.receptor_nombre?.trim() || undefined,
    receptor_documento: valores.receptor_documento?.trim() || undefined,
    firma,
    reservas: entregada && !valores.sin_reservas ? valores.reservas?.trim() || undefined : undefined,
    sin_reservas: entregada && valores.sin_reservas ? true : undefined,
    motivo_rechazo: entregada ? undefined : valores.motivo_rechazo?.trim() || undefined,
    registrada_at: ctx.clock.now().toISOString(),
  };
  const r = EntregaInput.safeParse(datos);
  const errores: Campos = r.success ? {} : issuesToCampos(r.error.issues);
  // A stray touch is not a signature (the driver's pad says the same).
  if (entregada && !(firma && hayFirma(firma.trazos))) errores.firma = 'Falta su firma: firme con el dedo en el recuadro.';
  if (!r.success || Object.keys(errores).length > 0) return { valor: { tipo: 'formulario', vista, valores, errores } };
  const entrada = r.data;

  const envolver = (plan: Plan<EntregaCreada>): Plan<PasoFirmaRemota> => {
    if ('valor' in plan) return { valor: { tipo: 'firmada', vista, entrega: plan.valor.entrega, avisos: plan.valor.avisos } };
    return {
      ...(plan.siFalla ? { siFalla: plan.siFalla } : {}),
      reintentar: async () => envolver(await (plan.reintentar?.() ?? prepararEntrega(ctx, actor, String(row.id), entrada))),
      aplicar: async (trx) => {
        const now = ctx.clock.now();
        const gastado = await trx
          .updateTable('firmas_remotas')
          .set({ usada_at: now })
          .where('id', '=', fila.id)
          .where('usada_at', 'is', null)
          .where('anulada_at', 'is', null)
          .where('expira_at', '>', now)
          .returning('id')
          .executeTakeFirst();
        if (!gastado) {
          // Spent or voided meanwhile (a double tap, a newer link): said as opening it would say it.
          const ahora = await trx.selectFrom('firmas_remotas').select(['usada_at', 'anulada_at', 'expira_at']).where('id', '=', fila.id).executeTakeFirstOrThrow();
          exigirVigente(ahora, now);
        }
        const e = await plan.aplicar(trx);
        await trx.updateTable('firmas_remotas').set({ entrega_n: e.valor.entrega.n }).where('id', '=', fila.id).execute();
        return { ...e, valor: { tipo: 'firmada', vista, entrega: e.valor.entrega, avisos: e.valor.avisos } };
      },
    };
  };
  return envolver(await prepararEntrega(ctx, actor, String(row.id), entrada));
}
