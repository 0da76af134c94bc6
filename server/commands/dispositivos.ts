import { type Dispositivo, DispositivoInput, ReservasInput, type ReservasRespuesta } from '../../shared/schemas/dispositivo';
import { z } from '../../shared/schemas/zod';
import { listarDispositivos, registrarDispositivo, reservarNumeros, revocarDispositivo } from '../domain/dispositivos/dispositivos';
import { presentDispositivo, presentReserva } from '../domain/presenters/dispositivo';
import { command } from './command';

const Id = z.coerce.number().int().positive();

export const registrarDispositivoCommand = command({
  nombre: 'registrar_dispositivo',
  descripcion: 'Registra la clave pública (ECDSA P-256) del dispositivo del usuario, para emitir sin cobertura; la misma clave otra vez devuelve el mismo dispositivo.',
  acceso: 'escritura',
  entrada: DispositivoInput,
  run: async (ctx, input): Promise<{ dispositivo: Dispositivo }> => {
    const row = await ctx.db.transaction().execute((trx) => registrarDispositivo(trx, ctx.quien, input, ctx.clock.now()));
    return { dispositivo: presentDispositivo({ ...row, email: ctx.quien.etiqueta }) };
  },
});

export const listarDispositivosCommand = command({
  nombre: 'listar_dispositivos',
  descripcion: 'Los dispositivos que emiten sin cobertura: todos los de la cuenta para un administrador, los suyos para los demás.',
  acceso: 'lectura',
  entrada: z.object({}),
  run: async (ctx): Promise<{ dispositivos: Dispositivo[] }> => {
    const todos = await listarDispositivos(ctx.db, ctx.quien.accountId);
    const visibles = ctx.quien.rol === 'admin' ? todos : todos.filter((d) => d.user_id === ctx.quien.userId);
    return { dispositivos: visibles.map(presentDispositivo) };
  },
});

export const revocarDispositivoCommand = command({
  nombre: 'revocar_dispositivo',
  descripcion: 'Da de baja un dispositivo: no recibe más números, los que tenía sin usar no se darán, y lo que firme después no se verificará.',
  acceso: 'escritura',
  entrada: z.object({ id: Id }),
  run: async (ctx, { id }): Promise<{ dispositivo: Dispositivo }> => ({
    dispositivo: presentDispositivo(await ctx.db.transaction().execute((trx) => revocarDispositivo(trx, ctx.quien, id, ctx.clock.now()))),
  }),
});

export const reservarNumerosCommand = command({
  nombre: 'reservar_numeros',
  descripcion: 'Los números y enlaces públicos que el dispositivo guarda para emitir sin cobertura en un entorno, completados cuando quedan pocos.',
  acceso: 'escritura',
  entrada: ReservasInput.extend({ id: Id }),
  run: async (ctx, { id, entorno }): Promise<ReservasRespuesta> => ({
    entorno,
    reservas: (await reservarNumeros(ctx.db, ctx.quien, id, entorno, ctx.clock.now())).map(presentReserva(ctx.siteUrl)),
    capacidad_sello: ctx.capacidadSello,
  }),
});
