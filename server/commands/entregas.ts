import { EntregaCreada, EntregaInput, type EntregasList } from '../../shared/schemas/entrega';
import { cadena } from '../../shared/schemas/envio';
import { z } from '../../shared/schemas/zod';
import type { Plan } from '../domain/context';
import { listarEntregas, prepararEntrega } from '../domain/entregas/entregar';
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
  preparar: async (ctx, { id }): Promise<Plan<EntregasList>> => ({ valor: { data: (await listarEntregas(ctx, ctx.quien, id)).entregas } }),
});
