import { type Dispositivo, DispositivoInput, ReservasInput, type ReservasRespuesta } from '../../shared/schemas/dispositivo';
import { z } from '../../shared/schemas/zod';
import { mapPlan } from '../domain/context';
import { listarDispositivos, prepararRegistro, prepararReservas, revocarDispositivo } from '../domain/dispositivos/dispositivos';
import { escritura } from '../domain/plan';
import { presentDispositivo, presentReserva } from '../domain/presenters/dispositivo';
import { command } from './command';

const Id = z.coerce.number().int().positive();

export const registrarDispositivoCommand = command({
  nombre: 'registrar_dispositivo',
  descripcion: 'Registra la clave pública (ECDSA P-256) del dispositivo del usuario, para emitir sin cobertura; la misma clave otra vez devuelve el mismo dispositivo.',
  acceso: 'escritura',
  entrada: DispositivoInput,
  preparar: async (ctx, input) =>
    mapPlan(prepararRegistro(ctx.quien, input, ctx.clock.now()), (row): { dispositivo: Dispositivo } => ({ dispositivo: presentDispositivo({ ...row, email: ctx.quien.etiqueta }) })),
});

export const listarDispositivosCommand = command({
  nombre: 'listar_dispositivos',
  descripcion: 'Los dispositivos que emiten sin cobertura: todos los de la cuenta para un administrador, los suyos para los demás.',
  acceso: 'lectura',
  entrada: z.object({}),
  preparar: async (ctx) => {
    const todos = await listarDispositivos(ctx.db, ctx.quien.accountId);
    const visibles = ctx.quien.rol === 'admin' ? todos : todos.filter((d) => d.user_id === ctx.quien.userId);
    const valor: { dispositivos: Dispositivo[] } = { dispositivos: visibles.map(presentDispositivo) };
    return { valor };
  },
});

export const revocarDispositivoCommand = command({
  nombre: 'revocar_dispositivo',
  descripcion: 'Da de baja un dispositivo: no recibe más números, los que tenía sin usar no se darán, y lo que firme después no se verificará.',
  acceso: 'escritura',
  entrada: z.object({ id: Id }),
  // The device's row is locked and who may revoke it checked inside the transaction that writes.
  preparar: async (ctx, { id }) =>
    escritura(async (trx): Promise<{ dispositivo: Dispositivo }> => ({ dispositivo: presentDispositivo(await revocarDispositivo(trx, ctx.quien, id, ctx.clock.now())) })),
});

export const reservarNumerosCommand = command({
  nombre: 'reservar_numeros',
  descripcion: 'Los números y enlaces públicos que el dispositivo guarda para emitir sin cobertura en un entorno, completados cuando quedan pocos.',
  acceso: 'escritura',
  entrada: ReservasInput.extend({ id: Id }),
  preparar: async (ctx, { id, entorno }) =>
    mapPlan(
      prepararReservas(ctx.quien, id, entorno, ctx.clock.now()),
      (rows): ReservasRespuesta => ({ entorno, reservas: rows.map(presentReserva(ctx.siteUrl)), capacidad_sello: ctx.capacidadSello }),
    ),
});
