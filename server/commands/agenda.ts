import {
  AgendaEliminada,
  AgendaEmpresa,
  AgendaEmpresaInput,
  AgendaEmpresaPatch,
  AgendaFusionInput,
  type AgendaList,
  AgendaLugar,
  AgendaLugarInput,
  AgendaLugarPatch,
  AgendaQuery,
  AgendaVehiculo,
  AgendaVehiculoInput,
  AgendaVehiculoPatch,
  type EntradaAgenda,
  TipoAgenda,
} from '../../shared/schemas/agenda';
import { cadena } from '../../shared/schemas/envio';
import { z } from '../../shared/schemas/zod';
import { buscarAgenda, cambiarEntrada, eliminarEntrada, fusionarEntradas, guardarEntrada, idDeEntrada, presentarEntrada } from '../domain/agenda/agenda';
import { escritura } from '../domain/plan';
import { command } from './command';

export const buscarAgendaCommand = command({
  nombre: 'buscar_agenda',
  descripcion:
    'Busca en la agenda de la cuenta (empresas, vehículos o lugares ya usados) por cualquier parte del nombre, NIF, matrícula o lugar, sin importar mayúsculas ni acentos; las más usadas primero. Las entradas con avisos (un NIF con el carácter de control mal) no salen, porque no se sugieren, salvo con con_avisos=1.',
  acceso: 'lectura',
  entrada: AgendaQuery.extend({ tipo: TipoAgenda }),
  preparar: async (ctx, { tipo, ...q }) => {
    const { filas, siguiente } = await buscarAgenda(ctx.db, ctx.quien, tipo, q);
    const valor: AgendaList = { entradas: filas.map(presentarEntrada), siguiente };
    return { valor };
  },
});

/** POST /agenda/{tipo}: the entry's own schema, chosen by the path. */
const GuardarAgenda = z.discriminatedUnion('tipo', [
  AgendaEmpresaInput.safeExtend({ tipo: z.literal('empresas') }),
  AgendaVehiculoInput.extend({ tipo: z.literal('vehiculos') }),
  AgendaLugarInput.extend({ tipo: z.literal('lugares') }),
]);

export const guardarAgendaCommand = command({
  nombre: 'guardar_agenda',
  descripcion: 'Crea una entrada de la agenda o cambia los datos de la que tiene el mismo NIF, matrícula o texto.',
  acceso: 'escritura',
  permiso: 'agenda',
  entrada: GuardarAgenda,
  preparar: async (ctx, { tipo, ...datos }) =>
    escritura(async (trx): Promise<{ entrada: EntradaAgenda }> => ({ entrada: presentarEntrada(await guardarEntrada(trx, ctx.quien, tipo, datos, ctx.clock.now())) })),
});

/** `{id}` of an entry: a whole number; anything else finds nothing (404). */
const id = cadena().max(40).meta({ description: 'Id de la entrada de la agenda' });

/** PATCH /agenda/{tipo}/{id}: the kind's change schema, chosen by the path. */
const CambiarAgenda = z.discriminatedUnion('tipo', [
  AgendaEmpresaPatch.safeExtend({ tipo: z.literal('empresas'), id }),
  AgendaVehiculoPatch.extend({ tipo: z.literal('vehiculos'), id }),
  AgendaLugarPatch.extend({ tipo: z.literal('lugares'), id }),
]);

/** Keys of the request as received (which fields a PATCH sent: null or "" clears, absent keeps). */
function enviados(crudo: unknown): Set<string> {
  return new Set(crudo && typeof crudo === 'object' && !Array.isArray(crudo) ? Object.keys(crudo) : []);
}

/** The answer a repeat of an address-book change gets (same Idempotency-Key): the first one's, as recorded. */
const EntradaRespuesta = z.object({ entrada: z.union([AgendaEmpresa, AgendaVehiculo, AgendaLugar]) });
const repetirEntrada = { repetir: async (_ctx: unknown, anterior: { respuesta: unknown }) => EntradaRespuesta.parse(anterior.respuesta) as { entrada: EntradaAgenda } };

export const cambiarAgendaCommand = command({
  nombre: 'cambiar_agenda',
  descripcion:
    'Cambia los datos de una entrada de la agenda, su NIF, matrícula o texto incluidos (null o "" borra un dato opcional; lo que no se envía se queda). Corregir un NIF con el carácter de control mal quita su aviso y la entrada vuelve a sugerirse. Si el dato nuevo ya es de otra entrada, 422: fusiónelas.',
  acceso: 'escritura',
  permiso: 'agenda',
  entrada: CambiarAgenda,
  idempotencia: repetirEntrada,
  preparar: async (ctx, { tipo, id, ...cambios }) =>
    escritura(
      async (trx): Promise<{ entrada: EntradaAgenda }> => ({
        entrada: presentarEntrada(await cambiarEntrada(trx, ctx.quien, tipo, idDeEntrada(tipo, id), cambios, enviados(ctx.crudo), ctx.clock.now())),
      }),
    ),
});

export const eliminarAgendaCommand = command({
  nombre: 'eliminar_agenda',
  descripcion: 'Borra una entrada de la agenda (deja de sugerirse; una DeCA nueva que la nombre la vuelve a añadir).',
  acceso: 'escritura',
  permiso: 'agenda',
  entrada: z.object({ tipo: TipoAgenda, id }),
  idempotencia: { repetir: async (_ctx, anterior) => AgendaEliminada.parse(anterior.respuesta) },
  preparar: async (ctx, { tipo, id }) =>
    escritura(async (trx): Promise<AgendaEliminada> => {
      const n = idDeEntrada(tipo, id);
      await eliminarEntrada(trx, ctx.quien, tipo, n);
      return { eliminada: true, id: n };
    }),
});

export const fusionarAgendaCommand = command({
  nombre: 'fusionar_agenda',
  descripcion: 'Fusiona dos entradas de la agenda que son lo mismo (p. ej. la misma empresa con un NIF bien y otro mal): queda la del camino con sus datos y desaparece «otra»; sus usos se suman.',
  acceso: 'escritura',
  permiso: 'agenda',
  entrada: AgendaFusionInput.extend({ tipo: TipoAgenda, id }),
  idempotencia: repetirEntrada,
  preparar: async (ctx, { tipo, id, otra }) =>
    escritura(
      async (trx): Promise<{ entrada: EntradaAgenda }> => ({
        entrada: presentarEntrada(await fusionarEntradas(trx, ctx.quien, tipo, idDeEntrada(tipo, id), otra, ctx.clock.now())),
      }),
    ),
});
