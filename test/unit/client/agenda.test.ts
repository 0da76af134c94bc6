import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { aprenderEnDispositivo, entradasAgenda, enviarAgenda, leccionDe, refrescarAgenda } from '../../../client/data/agenda';
import { ClaveRepetida, cambiarEnAgenda, eliminarDeAgenda, fusionarEnAgenda, sugerenciasAgenda } from '../../../client/data/agenda-cambios';
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

const empresa = (id: number, nombre: string, nif: string, usos = 1) => ({
  id,
  usos,
  ultimo_uso: '2026-11-20T10:00:00Z',
  avisos: [],
  nombre,
  nif,
  domicilio: null,
  cp: null,
  municipio: null,
  provincia: null,
  pais: null,
  lado: null,
});

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

  describe('keeping it clean: marked NIFs, changes, deletions and merges through the outbox', () => {
    const BUENO = 'B96712344';
    const MALO = 'B96712341';
    const conId = async (clave: string) => {
      const e = (await entradasAgenda(db, 'empresas')).find((x) => x.clave === clave)!;
      return { ...e, id: e.id! };
    };
    /** The server's changes, as the app's API client sends them: method, path, body and Idempotency-Key; answered by `responder`. */
    function apiDeCambios(responder: (metodo: string, path: string, body: Record<string, unknown>) => [number, unknown]) {
      const pedidas: { metodo: string; path: string; body: Record<string, unknown>; clave: string | null }[] = [];
      const servidor = async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
        const path = String(url).replace(/^\/api\/v1/, '');
        const metodo = init?.method ?? 'GET';
        const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
        pedidas.push({ metodo, path, body, clave: new Headers(init?.headers).get('Idempotency-Key') });
        const [status, data] = responder(metodo, path, body);
        return new Response(JSON.stringify(data), { status, headers: { 'Content-Type': 'application/json' } });
      };
      return Object.assign(createApi('produccion', servidor as typeof fetch), { pedidas });
    }

    beforeEach(async () => {
      await refrescarAgenda(apiConAgenda({ empresas: [empresa(1, 'Cítricos La Ribera SL', BUENO, 1), empresa(2, 'Cítricos La Ribera SL', MALO, 2)] }), db);
    });

    it('keeps a company with a wrong NIF on the device, for its screen, but never suggests it', async () => {
      expect((await entradasAgenda(db, 'empresas')).map((e) => [e.clave, e.id])).toEqual([
        [MALO, 2],
        [BUENO, 1],
      ]);
      expect((await sugerenciasAgenda(db, 'empresas')).map((e) => e.clave)).toEqual([BUENO]);
    });

    it('merges here at once, keeps the merged one away from a refresh until sent, and sends ids with the change’s own key', async () => {
      await fusionarEnAgenda(db, await conId(BUENO), await conId(MALO));
      const local = async () => (await entradasAgenda(db, 'empresas')).map((e) => [e.clave, e.usos]);
      expect(await local()).toEqual([[BUENO, 3]]);
      // The server still lists both: the merge waiting here wins.
      await refrescarAgenda(apiConAgenda({ empresas: [empresa(1, 'Cítricos La Ribera SL', BUENO, 1), empresa(2, 'Cítricos La Ribera SL', MALO, 2)] }), db);
      expect(await local()).toEqual([[BUENO, 3]]);

      const [e] = await db.outbox.toArray();
      expect(e).toMatchObject({ tipo: 'agenda', agenda: 'fusionar', clave: `agenda:empresas:${BUENO}`, body: { id: 1, otra: 2 } });
      const api = apiDeCambios(() => [200, { entrada: { ...empresa(1, 'Cítricos La Ribera SL', BUENO, 3), domicilio: 'Sueca' } }]);
      await enviarAgenda(api, db, e!);
      expect(api.pedidas).toEqual([{ metodo: 'POST', path: '/agenda/empresas/1/fusionar', body: { otra: 2 }, clave: e!.idempotencyKey }]);
      expect(await db.outbox.count()).toBe(0);
      expect((await entradasAgenda(db, 'empresas')).map((x) => [x.clave, x.usos, x.datos.domicilio])).toEqual([[BUENO, 3, 'Sueca']]);
    });

    it('changes a NIF here under its new key, sending only what changed; a key another entry has is refused here', async () => {
      const mala = await conId(MALO);
      await expect(cambiarEnAgenda(db, mala, { ...mala.datos, nif: BUENO }, { nif: BUENO })).rejects.toBeInstanceOf(ClaveRepetida);
      expect(await db.outbox.count()).toBe(0);

      const buena = await conId(BUENO);
      await cambiarEnAgenda(db, buena, { ...buena.datos, nif: 'A58818501', domicilio: 'Sueca' }, { nif: 'A58818501', domicilio: 'Sueca' });
      expect((await entradasAgenda(db, 'empresas')).map((x) => x.clave).sort()).toEqual(['A58818501', MALO]);
      const [e] = await db.outbox.toArray();
      const api = apiDeCambios(() => [200, { entrada: { ...empresa(1, 'Cítricos La Ribera SL', 'A58818501', 1), domicilio: 'Sueca' } }]);
      await enviarAgenda(api, db, e!);
      expect(api.pedidas.map((p) => [p.metodo, p.path, p.body])).toEqual([['PATCH', '/agenda/empresas/1', { nif: 'A58818501', domicilio: 'Sueca' }]]);
      expect((await entradasAgenda(db, 'empresas')).map((x) => [x.clave, x.id]).sort()).toEqual([
        ['A58818501', 1],
        [MALO, 2],
      ]);
    });

    it('deletes here at once; a deletion the server had already done (404) is done', async () => {
      await eliminarDeAgenda(db, await conId(MALO));
      expect((await entradasAgenda(db, 'empresas')).map((x) => x.clave)).toEqual([BUENO]);
      const [e] = await db.outbox.toArray();
      const api = apiDeCambios(() => [404, { error: { codigo: 'no_encontrado', mensaje: 'No hay ninguna empresa con ese id.', campos: {}, avisos: [], request_id: 'req_x' } }]);
      await enviarAgenda(api, db, e!);
      expect(api.pedidas.map((p) => [p.metodo, p.path])).toEqual([['DELETE', '/agenda/empresas/2']]);
      expect(await db.outbox.count()).toBe(0);
    });
  });
});
