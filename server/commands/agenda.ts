import { AgendaEmpresaInput, type AgendaList, AgendaLugarInput, AgendaQuery, AgendaVehiculoInput, type EntradaAgenda, TipoAgenda } from '../../shared/schemas/agenda';
import { z } from '../../shared/schemas/zod';
import { buscarAgenda, guardarEntrada, presentarEntrada } from '../domain/agenda/agenda';
import { escritura } from '../domain/plan';
import { command } from './command';

export const buscarAgendaCommand = command({
  nombre: 'buscar_agenda',
  descripcion:
    'Busca en la agenda de la cuenta (empresas, vehículos o lugares ya usados) por cualquier parte del nombre, NIF, matrícula o lugar, sin importar mayúsculas ni acentos; las más usadas primero.',
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
  AgendaEmpresaInput.extend({ tipo: z.literal('empresas') }),
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
