import { EntregaCreada, EntregaInput, type EntregasList, FirmaRemotaInput, type FirmaRemotaRespuesta } from '../../shared/schemas/entrega';
import { cadena } from '../../shared/schemas/envio';
import { z } from '../../shared/schemas/zod';
import { mapPlan, type Plan } from '../domain/context';
import { leerFirmaPng, leerJustificante, listarEntregasDeca, prepararEntrega } from '../domain/entregas/entregar';
import { prepararAnulacion, prepararFirmaRemota, verFirmaRemota } from '../domain/entregas/firma-remota';
import { command } from './command';

const Ref = z.object({ id: cadena().max(40).meta({ description: 'Id numérico o número AAAA-NNNNNN de la DeCA' }) });

export const entregarDecaCommand = command({
  nombre: 'entregar_deca',
  descripcion:
    'Anota la entrega de un envío de una DeCA emitida (o de todos), con el nombre y la firma de quien recibe y sus reservas, o su rechazo con el motivo (extensión): queda en el historial y sale el evento deca.entregado o deca.entrega_rechazada.',
  acceso: 'escritura',
  entrada: EntregaInput.and(Ref),
  idempotencia: { repetir: async (_ctx, anterior) => EntregaCreada.parse(anterior.respuesta) },
  preparar: (ctx, { id, ...entrega }) => prepararEntrega(ctx, ctx.quien, id, entrega),
});

export const verEntregasCommand = command({
  nombre: 'ver_entregas',
  descripcion: 'Las entregas (o rechazos) anotadas de una DeCA, de la primera a la última (extensión).',
  acceso: 'lectura',
  entrada: Ref,
  preparar: async (ctx, { id }): Promise<Plan<EntregasList>> => ({ valor: { data: (await listarEntregasDeca(ctx, ctx.quien, id)).entregas } }),
});

export const pdfEntregaCommand = command({
  nombre: 'pdf_entrega',
  descripcion: 'El justificante de una entrega (PDF/A sellado), con la firma y las fotos: solo para la cuenta (extensión).',
  acceso: 'lectura',
  entrada: Ref.extend({ n: cadena().max(10).meta({ description: 'Número de la entrega en su DeCA' }) }),
  preparar: async (ctx, { id, n }) => ({ valor: await leerJustificante(ctx, ctx.quien, id, n) }),
});

export const firmaEntregaCommand = command({
  nombre: 'firma_entrega',
  descripcion: 'La firma de una entrega como imagen PNG, dibujada de sus trazos: solo para la cuenta (extensión).',
  acceso: 'lectura',
  entrada: Ref.extend({ n: cadena().max(10).meta({ description: 'Número de la entrega en su DeCA' }) }),
  preparar: async (ctx, { id, n }) => ({ valor: await leerFirmaPng(ctx, ctx.quien, id, n) }),
});

export const pedirFirmaRemotaCommand = command({
  nombre: 'pedir_firma_remota',
  descripcion:
    'Un enlace (para un QR) con el que el destinatario firma la entrega de un envío en su propio móvil, sin cuenta: vale 30 minutos y una sola firma, y la entrega queda como si la anotara el conductor (extensión).',
  acceso: 'escritura',
  entrada: FirmaRemotaInput.and(Ref),
  preparar: async (ctx, { id, envio }) => mapPlan(await prepararFirmaRemota(ctx, ctx.quien, id, envio), (firma_remota): FirmaRemotaRespuesta => ({ firma_remota })),
});

export const verFirmaRemotaCommand = command({
  nombre: 'ver_firma_remota',
  descripcion: 'Cómo va un enlace para firmar en el móvil del destinatario: esperando, firmada (con la entrega), caducada o anulada (extensión).',
  acceso: 'lectura',
  entrada: Ref.extend({ solicitud: cadena().max(20).meta({ description: 'Id del enlace' }) }),
  preparar: async (ctx, { id, solicitud }): Promise<Plan<FirmaRemotaRespuesta>> => ({ valor: { firma_remota: await verFirmaRemota(ctx, ctx.quien, id, solicitud) } }),
});

export const anularFirmaRemotaCommand = command({
  nombre: 'anular_firma_remota',
  descripcion: 'Anula un enlace para firmar en el móvil del destinatario que aún espera (se firma en el del conductor); uno ya firmado no se deshace (extensión).',
  acceso: 'escritura',
  entrada: Ref.extend({ solicitud: cadena().max(20).meta({ description: 'Id del enlace' }) }),
  preparar: async (ctx, { id, solicitud }) => mapPlan(await prepararAnulacion(ctx, ctx.quien, id, solicitud), (firma_remota): FirmaRemotaRespuesta => ({ firma_remota })),
});
