import { describe, expect } from 'vitest';
import { ErrorBody } from '../../shared/errors';
import { CambiosList, ControlRegistrado, type Deca, DecaCreada } from '../../shared/schemas/deca';
import { WebhookPayload } from '../../shared/schemas/webhook';
import { decaCompleta } from '../support/decas';
import { type Fx, it, test } from '../support/fixtures';
import { crearWebhookOk, entregarTodo } from '../support/webhooks';

test.override('opcionesApp', { env: { WEBHOOK_ALLOW_INSECURE: '1', SEDE_CONTROL_URL: 'https://sede.ejemplo.gob.es/control' } });

async function emitida({ app, c }: Fx, extra: object = {}): Promise<Deca> {
  const res = await app.request('POST', '/api/v1/decas', { key: c.live, body: { ...decaCompleta(), ...extra } });
  expect(res.status, res.text).toBe(201);
  return DecaCreada.parse(res.body).deca;
}

describe('a roadside check (extension: POST /decas/{id}/control)', () => {
  it('records the agent’s code in the history, answers where to send the PDF/A, and sends deca.control with the code', async ({ app, c, rx }) => {
    const wh = await crearWebhookOk(app, c.live, { url: `${rx.url}/control`, eventos: ['deca.control'] });
    expect(wh.eventos).toEqual(['deca.control']);
    const deca = await emitida({ app, c });
    const res = await app.request('POST', `/api/v1/decas/${deca.numero}/control`, { key: c.live, body: { codigo: ' 20261124 ' } });
    expect(res.status, res.text).toBe(200);
    const r = ControlRegistrado.parse(res.body);
    expect(r.control).toMatchObject({ codigo: '20261124', version: 1 });
    expect(r.control.registrado_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(r.sede_url).toBe('https://sede.ejemplo.gob.es/control');
    expect(r.deca).toMatchObject({ id: deca.id, version: 1, pdf_sha256: deca.pdf_sha256 }); // the document itself is unchanged

    const cambios = CambiosList.parse((await app.request('GET', `/api/v1/decas/${deca.id}/cambios`, { key: c.live })).body).cambios;
    const control = cambios.find((x) => x.tipo === 'control');
    expect(control?.campos).toEqual([{ campo: 'control_codigo', antes: null, despues: '20261124' }]);

    await entregarTodo(app);
    const llegadas = rx.recibidos.filter((x) => x.path === '/control');
    expect(llegadas).toHaveLength(1);
    const body = WebhookPayload.parse(llegadas[0]!.body);
    expect(body.evento).toBe('deca.control');
    expect(llegadas[0]!.body.data.control).toEqual(r.control);
    expect(body.data.deca?.id).toBe(deca.id);
  });

  it('replays with the same Idempotency-Key as a replay, never a second entry', async ({ app, c }) => {
    const deca = await emitida({ app, c });
    const enviar = () => app.request('POST', `/api/v1/decas/${deca.id}/control`, { key: c.live, body: { codigo: '4455' }, headers: { 'Idempotency-Key': `control-${deca.id}` } });
    const a = await enviar();
    const b = await enviar();
    expect(b.status).toBe(200);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    expect(b.body).toEqual(a.body);
    const cambios = CambiosList.parse((await app.request('GET', `/api/v1/decas/${deca.id}/cambios`, { key: c.live })).body).cambios;
    expect(cambios.filter((x) => x.tipo === 'control')).toHaveLength(1);
  });

  it('refuses a code that is not digits (422 naming codigo), a pending DeCA and a replaced one (409)', async ({ app, c }) => {
    const deca = await emitida({ app, c });
    const malo = await app.request('POST', `/api/v1/decas/${deca.id}/control`, { key: c.live, body: { codigo: 'A-12' } });
    expect(malo.status).toBe(422);
    expect(ErrorBody.parse(malo.body).error.campos.codigo).toMatch(/solo cifras/);

    const pendiente = await app.request('POST', '/api/v1/decas', { key: c.live, body: { emitir: false } });
    const p = await app.request('POST', `/api/v1/decas/${pendiente.body.deca.id}/control`, { key: c.live, body: { codigo: '1234' } });
    expect(p.status).toBe(409);
    expect(ErrorBody.parse(p.body).error.codigo).toBe('pendiente');

    await app.request('POST', `/api/v1/decas/${deca.id}/sustituir`, {
      key: c.live,
      body: { motivo: 'Otro destino', envios: [{ origen: 'Lleida', destino: 'Cádiz', naturaleza: 'Fruta', peso: 1000 }] },
    });
    const s = await app.request('POST', `/api/v1/decas/${deca.id}/control`, { key: c.live, body: { codigo: '1234' } });
    expect(s.status).toBe(409);
    expect(ErrorBody.parse(s.body).error.codigo).toBe('sustituido');

    const soloLectura = await app.request('POST', `/api/v1/decas/${deca.id}/control`, { key: c.liveReadOnly, body: { codigo: '1234' } });
    expect(soloLectura.status).toBe(403);
  });
});
