import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect } from 'vitest';
import { ErrorBody } from '../../shared/errors';
import { CambiosList, type Deca, DecaCreada } from '../../shared/schemas/deca';
import { EntregaCreada, type EntregaInput, EntregasList } from '../../shared/schemas/entrega';
import { WebhookPayload } from '../../shared/schemas/webhook';
import { decaCompleta } from '../support/decas';
import { type Fx, it, test } from '../support/fixtures';
import { crearWebhookOk, entregarTodo } from '../support/webhooks';

test.override('opcionesApp', { env: { WEBHOOK_ALLOW_INSECURE: '1' } });

async function emitida({ app, c }: Pick<Fx, 'app' | 'c'>, extra: object = {}): Promise<Deca> {
  const res = await app.request('POST', '/api/v1/decas', { key: c.live, body: { ...decaCompleta(), ...extra } });
  expect(res.status, res.text).toBe(201);
  return DecaCreada.parse(res.body).deca;
}

/** The start of a JPEG: what the phone sends after shrinking a photo. */
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2000, 7), Buffer.from([0xff, 0xd9])]);

const ENTREGADA: EntregaInput = {
  resultado: 'entregada',
  receptor_nombre: 'Lucía Fernández',
  receptor_documento: '12345678Z',
  firma: {
    proporcion: 2.5,
    trazos: [
      [
        [0.1, 0.5],
        [0.3, 0.2],
        [0.5, 0.6],
      ],
      [
        [0.6, 0.4],
        [0.9, 0.45],
      ],
    ],
  },
  reservas: 'Un palé con el film roto',
  fotos: [`data:image/jpeg;base64,${JPEG.toString('base64')}`],
  registrada_at: '2026-11-25T10:15:00+01:00',
  posicion: { lat: 36.7, lon: -4.45, precision_m: 12 },
};

const dosEnvios = [
  { origen: 'Lleida', destino: 'Mercamálaga, Málaga', naturaleza: 'Fruta', peso: 9000 },
  { origen: 'Lleida', destino: 'Mercasevilla, Sevilla', naturaleza: 'Fruta', peso: 8000 },
];

describe('proof of delivery (extension: POST /decas/{id}/entregas)', () => {
  it('records a delivery with its signature, photo and position, in the history, as deca.entregado, and lists it', async ({ app, c, rx }) => {
    await crearWebhookOk(app, c.live, { url: `${rx.url}/entregas`, eventos: ['deca.entregado', 'deca.entrega_rechazada'] });
    const deca = await emitida({ app, c }, { envios: dosEnvios });
    const res = await app.request('POST', `/api/v1/decas/${deca.numero}/entregas`, { key: c.live, body: { ...ENTREGADA, envio: 1, receptor_documento: '12345678A' } });
    expect(res.status, res.text).toBe(200);
    const { entrega, avisos } = EntregaCreada.parse(res.body);
    expect(entrega).toMatchObject({
      n: 1,
      envio: 1,
      resultado: 'entregada',
      receptor_nombre: 'Lucía Fernández',
      receptor_documento: '12345678A',
      reservas: 'Un palé con el film roto',
      sin_reservas: false,
      fotos: 1,
      registrada_at: '2026-11-25 10:15:00',
      posicion: { lat: 36.7, lon: -4.45, precision_m: 12 },
      canal: 'api',
    });
    expect(entrega.firma?.trazos).toHaveLength(2);
    expect(entrega.urls.verificar).toMatch(/\/e\/[\w-]{22}$/);
    // A wrong DNI letter is kept, with a warning, never refused.
    expect(avisos).toEqual([expect.objectContaining({ campo: 'receptor_documento', codigo: 'documento_no_valido' })]);
    expect(avisos[0]!.mensaje).toMatch(/debería ser Z/);

    const cambios = CambiosList.parse((await app.request('GET', `/api/v1/decas/${deca.id}/cambios`, { key: c.live })).body).cambios;
    expect(cambios.find((x) => x.tipo === 'entrega')?.campos).toEqual([{ campo: 'envios[1].entrega', antes: null, despues: 'entregada a Lucía Fernández' }]);

    await entregarTodo(app);
    const llegadas = rx.recibidos.filter((x) => x.path === '/entregas');
    expect(llegadas).toHaveLength(1);
    const body = WebhookPayload.parse(llegadas[0]!.body);
    expect(body.evento).toBe('deca.entregado');
    expect(body.data.deca?.id).toBe(deca.id);
    // The subscriber learns that it was signed, never the strokes or where the phone was.
    expect(llegadas[0]!.body.data.entrega).toMatchObject({ n: 1, envio: 1, resultado: 'entregada', firma: true, fotos: 1 });
    expect(llegadas[0]!.body.data.entrega.posicion).toBeUndefined();

    const lista = await app.request('GET', `/api/v1/decas/${deca.id}/entregas`, { key: c.liveReadOnly });
    expect(lista.status, lista.text).toBe(200);
    expect(EntregasList.parse(lista.body).data).toEqual([entrega]);
  });

  it('records a refusal with its reason as deca.entrega_rechazada, and asks for the reason when it is missing', async ({ app, c, rx }) => {
    await crearWebhookOk(app, c.live, { url: `${rx.url}/rechazos`, eventos: ['deca.entrega_rechazada'] });
    const deca = await emitida({ app, c });
    const sinMotivo = await app.request('POST', `/api/v1/decas/${deca.id}/entregas`, { key: c.live, body: { resultado: 'rechazada', registrada_at: '2026-11-25T10:15:00+01:00' } });
    expect(sinMotivo.status).toBe(422);
    expect(ErrorBody.parse(sinMotivo.body).error.campos.motivo_rechazo).toMatch(/por qué/);
    const sinFirma = await app.request('POST', `/api/v1/decas/${deca.id}/entregas`, { key: c.live, body: { ...ENTREGADA, firma: undefined } });
    expect(sinFirma.status).toBe(422);
    expect(ErrorBody.parse(sinFirma.body).error.campos.firma).toMatch(/firma/);

    const res = await app.request('POST', `/api/v1/decas/${deca.id}/entregas`, {
      key: c.live,
      body: { resultado: 'rechazada', motivo_rechazo: 'Mercancía fuera de temperatura', registrada_at: '2026-11-25T10:15:00+01:00' },
    });
    expect(res.status, res.text).toBe(200);
    expect(EntregaCreada.parse(res.body).entrega).toMatchObject({ n: 1, envio: null, resultado: 'rechazada', motivo_rechazo: 'Mercancía fuera de temperatura', firma: null, fotos: 0 });
    await entregarTodo(app);
    const llegadas = rx.recibidos.filter((x) => x.path === '/rechazos');
    expect(llegadas.map((x) => x.body.evento)).toEqual(['deca.entrega_rechazada']);
  });

  it('replays with the same Idempotency-Key, refuses a second delivery of the same shipment, and takes another shipment', async ({ app, c }) => {
    const deca = await emitida({ app, c }, { envios: dosEnvios });
    const enviar = (body: object, clave: string) => app.request('POST', `/api/v1/decas/${deca.id}/entregas`, { key: c.live, body, headers: { 'Idempotency-Key': clave } });
    const a = await enviar({ ...ENTREGADA, envio: 0 }, 'entrega-0');
    expect(a.status, a.text).toBe(200);
    const b = await enviar({ ...ENTREGADA, envio: 0 }, 'entrega-0');
    expect(b.status).toBe(200);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    expect(b.body).toEqual(a.body);

    const otra = await enviar({ ...ENTREGADA, envio: 0 }, 'entrega-0-bis');
    expect(otra.status).toBe(409);
    expect(ErrorBody.parse(otra.body).error).toMatchObject({ codigo: 'entregado' });
    expect(ErrorBody.parse(otra.body).error.mensaje).toMatch(/envío 1 ya se entregó/);
    // The whole DeCA overlaps the shipment already delivered.
    const todo = await enviar({ ...ENTREGADA }, 'entrega-todo');
    expect(todo.status).toBe(409);
    const noHay = await enviar({ ...ENTREGADA, envio: 2 }, 'entrega-2');
    expect(noHay.status).toBe(422);
    expect(ErrorBody.parse(noHay.body).error.campos.envio).toBeDefined();

    const segunda = await enviar({ ...ENTREGADA, envio: 1, reservas: undefined, sin_reservas: true }, 'entrega-1');
    expect(segunda.status, segunda.text).toBe(200);
    expect(EntregaCreada.parse(segunda.body).entrega).toMatchObject({ n: 2, envio: 1, sin_reservas: true, reservas: null });
    const lista = EntregasList.parse((await app.request('GET', `/api/v1/decas/${deca.id}/entregas`, { key: c.live })).body).data;
    expect(lista.map((e) => [e.n, e.envio])).toEqual([
      [1, 0],
      [2, 1],
    ]);
  });

  it('refuses a read-only key (403), a pending DeCA (409 in Spanish) and another account’s DeCA (404)', async ({ app, c, cuentaNueva }) => {
    const deca = await emitida({ app, c });
    const ro = await app.request('POST', `/api/v1/decas/${deca.id}/entregas`, { key: c.liveReadOnly, body: ENTREGADA });
    expect(ro.status).toBe(403);
    expect(ErrorBody.parse(ro.body).error.codigo).toBe('solo_lectura');

    const pendiente = await app.request('POST', '/api/v1/decas', { key: c.live, body: { emitir: false } });
    const p = await app.request('POST', `/api/v1/decas/${pendiente.body.deca.id}/entregas`, { key: c.live, body: ENTREGADA });
    expect(p.status).toBe(409);
    expect(ErrorBody.parse(p.body).error).toMatchObject({ codigo: 'pendiente', mensaje: expect.stringMatching(/pendiente.*Emítala/) });

    const ajena = await app.request('POST', `/api/v1/decas/${deca.id}/entregas`, { key: cuentaNueva.live, body: ENTREGADA });
    expect(ajena.status).toBe(404);
    expect((await app.request('GET', `/api/v1/decas/${deca.id}/entregas`, { key: cuentaNueva.live })).status).toBe(404);
    expect(EntregasList.parse((await app.request('GET', `/api/v1/decas/${deca.id}/entregas`, { key: c.live })).body).data).toEqual([]);
  });

  it('MCP: ver_entregas gives the same list as the REST door, to a read-only key too', async ({ app, c }) => {
    const deca = await emitida({ app, c });
    await app.request('POST', `/api/v1/decas/${deca.id}/entregas`, { key: c.live, body: ENTREGADA });
    const client = new Client({ name: 'prueba', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${c.liveReadOnly}` } } }));
    const r = await client.callTool({ name: 'ver_entregas', arguments: { id: deca.numero } });
    const rest = await app.request('GET', `/api/v1/decas/${deca.id}/entregas`, { key: c.live });
    expect(r.structuredContent).toEqual(rest.body);
    expect(EntregasList.parse(r.structuredContent).data).toHaveLength(1);
    await client.close();
  });
});
