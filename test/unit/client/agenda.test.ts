import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { aprenderEnDispositivo, entradasAgenda, leccionDe, refrescarAgenda } from '../../../client/data/agenda';
import { type Api, createApi } from '../../../client/data/api';
import { type DecaDb, openDecaDb } from '../../../client/data/db';
import type { AgendaList } from '../../../shared/schemas/agenda';

/** The server's agenda as GET /agenda/{tipo} pages it (two entries a page, to cross a page), behind the app's own API client. */
function apiConAgenda(porTipo: Record<string, AgendaList['entradas']>): Api & { pedidas: string[] } {
  const pedidas: string[] = [];
  const servidor = async (url: string | URL | Request): Promise<Response> => {
    const path = String(url).replace(/^\/api\/v1/, '');
    pedidas.push(path);
    const [, tipo, despues] = /^\/agenda\/(\w+)\?limite=100&con_avisos=1(?:&despues_de=(\d+))?$/.exec(path)!;
    const desde = Number(despues ?? 0);
    const todas = porTipo[tipo!] ?? [];
    const data: AgendaList = { entradas: todas.slice(desde, desde + 2), siguiente: desde + 2 < todas.length ? String(desde + 2) : null };
    return new Response(JSON.stringify(data), { status: 200, headers: { 'Content-Type': 'application/json' } });
  };
  return Object.assign(createApi('produccion', servidor as typeof fetch), { pedidas });
}

const empresa = (id: number, nombre: string, nif: string, usos = 1) => ({ id, usos, ultimo_uso: '2026-11-20T10:00:00Z', avisos: [], nombre, nif, domicilio: null, lado: null });

describe('address book on the device', () => {
  let db: DecaDb;
  beforeEach(() => {
    db = openDecaDb(`agenda-${Math.random()}`);
  });
  afterEach(async () => {
    db.close();
    await db.delete();
  });

  it('learns both parties, the vehicle and each place of a DeCA, normalised as the server keys them', () => {
    const l = leccionDe({
      cargador_nombre: 'Frutas Peñalara, S.A.',
      cargador_nif: 'a-58818501',
      transp_nombre: ' ',
      transp_nif: 'B12345674',
      matricula: '1234 bcd',
      matricula_remolque: 'r-5678-bbc',
      conductor_nombre: 'José',
      envios: [
        { origen: 'Lleida', destino: 'Málaga' },
        { origen: 'Lleida', destino: 'Cádiz' },
      ],
    });
    expect(l.map((e) => [e.tipo, e.clave])).toEqual([
      ['empresas', 'A58818501'],
      ['vehiculos', '1234BCD'],
      ['lugares', 'lleida'],
      ['lugares', 'malaga'],
      ['lugares', 'cadiz'],
    ]);
    expect(l[1]!.datos).toEqual({ matricula: '1234BCD', matricula_remolque: 'R5678BBC', conductor_nombre: 'José', conductor_tel: null });
  });

  it('counts a known entry once more and keeps data the DeCA did not carry', async () => {
    await aprenderEnDispositivo(db, { cargador_nombre: 'Frutas Peñalara', cargador_nif: 'A58818501', cargador_domicilio: 'Lleida' });
    await aprenderEnDispositivo(db, { transp_nombre: 'Frutas Peñalara, S.A.', transp_nif: 'A58818501' });
    const [e] = await entradasAgenda(db, 'empresas');
    expect(e).toMatchObject({ usos: 2, local: 1, datos: { nombre: 'Frutas Peñalara, S.A.', domicilio: 'Lleida' } });
  });

  it('replaces its copy with the server’s, page after page, and keeps what was learned here until the server has it', async () => {
    await aprenderEnDispositivo(db, { cargador_nombre: 'Sin Red, S.L.', cargador_nif: 'B12345674', transp_nombre: 'Ya Sabida', transp_nif: 'A58818501' });
    const api = apiConAgenda({ empresas: [empresa(1, 'Ya Sabida, S.A.', 'A58818501', 9), empresa(2, 'Otra', 'F12345671', 3), empresa(3, 'Tercera', 'G04317764')] });
    await refrescarAgenda(api, db);
    expect(api.pedidas.filter((p) => p.startsWith('/agenda/empresas'))).toHaveLength(2);
    const empresas = await entradasAgenda(db, 'empresas');
    expect(empresas.map((e) => [e.clave, e.usos, e.local ?? 0])).toEqual([
      ['A58818501', 9, 0],
      ['F12345671', 3, 0],
      ['B12345674', 1, 1],
      ['G04317764', 1, 0],
    ]);
    // Once the server lists it, the local copy gives way.
    await refrescarAgenda(apiConAgenda({ empresas: [empresa(4, 'Sin Red, S.L.', 'B12345674', 1)] }), db);
    expect((await entradasAgenda(db, 'empresas')).map((e) => [e.clave, e.local ?? 0])).toEqual([['B12345674', 0]]);
  });
});
