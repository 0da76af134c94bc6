/**
 * «Firmar en su móvil»: the consignee signs for a shipment on their own
 * phone through a 30-minute, single-use link (POST /decas/{id}/entregas/
 * firma-remota), on a server-rendered page that needs no account and, for a
 * refusal, no JavaScript. The delivery it records is the API's; the driver's
 * phone asks for the link's state and sees it signed.
 */
import sharp from 'sharp';
import { describe, expect } from 'vitest';
import { ManualClock } from '../../server/clock';
import { ErrorBody } from '../../shared/errors';
import { CambiosList, type Deca, DecaCreada } from '../../shared/schemas/deca';
import { EntregasList, FirmaRemotaRespuesta } from '../../shared/schemas/entrega';
import { decaCompleta } from '../support/decas';
import { type Fx, it, test } from '../support/fixtures';

const reloj = new ManualClock();
test.override('opcionesApp', { clock: reloj });

async function emitida({ app, c }: Pick<Fx, 'app' | 'c'>, extra: object = {}): Promise<Deca> {
  const res = await app.request('POST', '/api/v1/decas', { key: c.live, body: { ...decaCompleta(), ...extra } });
  expect(res.status, res.text).toBe(201);
  return DecaCreada.parse(res.body).deca;
}

async function pedir({ app, c }: Pick<Fx, 'app' | 'c'>, deca: Deca, body: object = {}) {
  const res = await app.request('POST', `/api/v1/decas/${deca.id}/entregas/firma-remota`, { key: c.live, body });
  expect(res.status, res.text).toBe(201);
  return { ...FirmaRemotaRespuesta.parse(res.body).firma_remota, cacheControl: res.headers.get('cache-control') };
}

async function estado({ app, c }: Pick<Fx, 'app' | 'c'>, deca: Deca, id: number) {
  const res = await app.request('GET', `/api/v1/decas/${deca.id}/entregas/firma-remota/${id}`, { key: c.live });
  expect(res.status, res.text).toBe(200);
  return FirmaRemotaRespuesta.parse(res.body).firma_remota;
}

const pagina = async (app: Fx['app'], url: string) => {
  const res = await fetch(`${app.url}${new URL(url).pathname}`, { headers: { 'user-agent': 'Mozilla/5.0 (Linux; Android 14)' } });
  return { status: res.status, text: await res.text(), headers: res.headers };
};

const firmar = async (app: Fx['app'], url: string, campos: Record<string, string>) => {
  const res = await fetch(`${app.url}${new URL(url).pathname}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'Mozilla/5.0 (Linux; Android 14)' },
    body: new URLSearchParams(campos).toString(),
  });
  return { status: res.status, text: await res.text() };
};

/** The pad's JSON as the page's script writes it: points in CSS px of a 350×140 pad, as the finger went. */
const PANEL = JSON.stringify({
  w: 350,
  h: 140,
  t: [
    Array.from({ length: 40 }, (_, i) => [20 + i * 8, 70 + Math.round(30 * Math.sin(i / 3))]),
    [
      [100, 120],
      [250, 121],
    ],
  ],
});

describe('«Firmar en su móvil»: the consignee signs on their own phone', () => {
  it('a link shown as a QR opens a page that changes nothing; the signature posted there is the delivery, and the driver sees it arrive', async ({ app, c }) => {
    const deca = await emitida({ app, c });
    const link = await pedir({ app, c }, deca);
    expect(link).toMatchObject({ envio: null, estado: 'esperando', entrega: null });
    expect(link.url).toMatch(/^https?:\/\/[^/]+\/f\/[\w-]{24}$/);
    expect(link.segundos_restantes).toBeGreaterThan(29 * 60);
    expect(link.segundos_restantes).toBeLessThanOrEqual(30 * 60);
    expect(link.cacheControl).toBe('no-store');

    // Opening it (a person, a link preview) records nothing; the page says what is signed for, in Spanish, with its pad's script allowed.
    const abierta = await pagina(app, link.url!);
    expect(abierta.status).toBe(200);
    expect(abierta.text).toContain(`DeCA ${deca.numero}`);
    expect(abierta.text).toContain(deca.envios[0]!.naturaleza!);
    expect(abierta.text).toMatch(/quedan (29|30) minutos/);
    expect(abierta.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(abierta.headers.get('x-robots-tag')).toContain('noindex');
    expect((await estado({ app, c }, deca, link.id)).estado).toBe('esperando');

    // Accepting without signing: refused with the form again, what was written kept.
    const sinFirma = await firmar(app, link.url!, { resultado: 'entregada', receptor_nombre: 'María Gómez', sin_reservas: '1' });
    expect(sinFirma.status).toBe(422);
    expect(sinFirma.text).toContain('Falta su firma');
    expect(sinFirma.text).toContain('value="María Gómez"');
    expect((await estado({ app, c }, deca, link.id)).estado).toBe('esperando');

    const ok = await firmar(app, link.url!, { resultado: 'entregada', receptor_nombre: 'María Gómez', receptor_documento: '12345678a', sin_reservas: '1', firma: PANEL });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.text).toContain('Entrega firmada. Gracias, María Gómez.');

    // The driver's phone, asking, sees it signed: the API's delivery, the signature normalised to the pad.
    const firmada = await estado({ app, c }, deca, link.id);
    expect(firmada).toMatchObject({ estado: 'firmada', segundos_restantes: 0, url: null });
    expect(firmada.entrega).toMatchObject({ n: 1, envio: null, resultado: 'entregada', receptor_nombre: 'María Gómez', receptor_documento: '12345678A', sin_reservas: true, canal: 'api' });
    const trazos = firmada.entrega!.firma!.trazos;
    expect(trazos).toHaveLength(2);
    expect(firmada.entrega!.firma!.proporcion).toBeCloseTo(2.5, 5);
    expect(trazos[0]![0]).toEqual([Math.round((20 / 350) * 1e4) / 1e4, Math.round((70 / 140) * 1e4) / 1e4]);
    for (const t of trazos) for (const [x, y] of t) expect(x! >= 0 && x! <= 1 && y! >= 0 && y! <= 1).toBe(true);
    const lista = EntregasList.parse((await app.request('GET', `/api/v1/decas/${deca.id}/entregas`, { key: c.live })).body).data;
    expect(lista).toEqual([firmada.entrega]);
    const { cambios } = CambiosList.parse((await app.request('GET', `/api/v1/decas/${deca.id}/cambios`, { key: c.live })).body);
    expect(cambios.find((x) => x.tipo === 'entrega')).toMatchObject({ autor: { nombre: expect.stringContaining('destinatario (firma en su móvil') } });

    // Spent: a second post (a double tap) and a reopening are told it is signed; nothing more is recorded.
    const otra = await firmar(app, link.url!, { resultado: 'entregada', receptor_nombre: 'Otra', sin_reservas: '1', firma: PANEL });
    expect(otra.status).toBe(409);
    expect(otra.text).toContain('Esta entrega ya está firmada');
    expect((await pagina(app, link.url!)).status).toBe(409);
    expect(EntregasList.parse((await app.request('GET', `/api/v1/decas/${deca.id}/entregas`, { key: c.live })).body).data).toHaveLength(1);
    // A signed link is not undone by voiding it: the answer carries its delivery.
    const tarde = await app.request('POST', `/api/v1/decas/${deca.id}/entregas/firma-remota/${link.id}/anular`, { key: c.live, body: {} });
    expect(tarde.status).toBe(200);
    expect(FirmaRemotaRespuesta.parse(tarde.body).firma_remota).toMatchObject({ estado: 'firmada', entrega: { n: 1, receptor_nombre: 'María Gómez' } });
  });

  it('a refusal needs no JavaScript and no signature; the signature of a delivery is kept as a PNG too', async ({ app, c }) => {
    const deca = await emitida(
      { app, c },
      {
        envios: [
          { origen: 'Lleida', destino: 'Mercamálaga', naturaleza: 'Melocotón', peso: 9000 },
          { origen: 'Lleida', destino: 'Mercasevilla', naturaleza: 'Nectarina', peso: 8000 },
        ],
      },
    );
    const link = await pedir({ app, c }, deca, { envio: 1 });
    const abierta = await pagina(app, link.url!);
    // Only the shipment signed for, and the words for a browser without JavaScript.
    expect(abierta.text).toContain('Nectarina');
    expect(abierta.text).not.toContain('Melocotón');
    expect(abierta.text).toContain('hace falta JavaScript');
    const sinMotivo = await firmar(app, link.url!, { resultado: 'rechazada', receptor_nombre: 'Jefe de muelle' });
    expect(sinMotivo.status).toBe(422);
    expect(sinMotivo.text).toContain('Escriba por qué no se acepta la entrega');
    const rechazo = await firmar(app, link.url!, { resultado: 'rechazada', receptor_nombre: 'Jefe de muelle', motivo_rechazo: 'Cajas aplastadas <b>todas</b>' });
    expect(rechazo.status, rechazo.text).toBe(200);
    expect(rechazo.text).toContain('Rechazo anotado');
    const r = (await estado({ app, c }, deca, link.id)).entrega!;
    expect(r).toMatchObject({ envio: 1, resultado: 'rechazada', firma: null, motivo_rechazo: 'Cajas aplastadas <b>todas</b>', urls: { firma: null } });
    expect((await app.request('GET', `/api/v1/decas/${deca.id}/entregas/${r.n}/firma.png`, { key: c.live })).status).toBe(404);

    // The other shipment signed on the link: its signature as an 800 px PNG, transparent but for the ink.
    const otro = await pedir({ app, c }, deca, { envio: 0 });
    expect((await firmar(app, otro.url!, { resultado: 'entregada', receptor_nombre: 'Ana', reservas: 'Falta un palé', firma: PANEL })).status).toBe(200);
    const e = (await estado({ app, c }, deca, otro.id)).entrega!;
    expect(new URL(e.urls.firma!).pathname).toBe(`/api/v1/decas/${deca.id}/entregas/${e.n}/firma.png`);
    const png = await fetch(`${app.url}${new URL(e.urls.firma!).pathname}`, { headers: { authorization: `Bearer ${c.live}` } });
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    const imagen = sharp(Buffer.from(await png.arrayBuffer()));
    expect(await imagen.metadata()).toMatchObject({ format: 'png', width: 800, height: 320, hasAlpha: true });
    const { data, info } = await imagen.raw().toBuffer({ resolveWithObject: true });
    let tinta = 0;
    for (let i = 3; i < data.length; i += info.channels) if (data[i]! > 128) tinta++;
    // A line of a few pixels along two strokes: some ink, most of the image clear.
    expect(tinta).toBeGreaterThan(2000);
    expect(tinta).toBeLessThan(0.1 * info.width * info.height);
    // Another account's key never gets it.
    const ajena = await app.request('GET', new URL(e.urls.firma!).pathname, { key: c.test });
    expect(ajena.status).toBe(401);
  });

  it('a link lasts 30 minutes and only the newest of a shipment is valid', async ({ app, c }) => {
    const deca = await emitida({ app, c });
    const primero = await pedir({ app, c }, deca);
    const segundo = await pedir({ app, c }, deca);
    expect(primero.url).not.toBe(segundo.url);
    expect((await estado({ app, c }, deca, primero.id)).estado).toBe('anulada');
    const vieja = await pagina(app, primero.url!);
    expect(vieja.status).toBe(410);
    expect(vieja.text).toContain('Pida al conductor un código nuevo');

    reloj.advance(30 * 60_000 + 1000);
    try {
      expect((await estado({ app, c }, deca, segundo.id)).estado).toBe('caducada');
      expect((await pagina(app, segundo.url!)).status).toBe(410);
      const tarde = await firmar(app, segundo.url!, { resultado: 'entregada', receptor_nombre: 'Tarde', sin_reservas: '1', firma: PANEL });
      expect(tarde.status).toBe(410);
    } finally {
      reloj.advance(-(30 * 60_000 + 1000));
    }
    // The driver takes the signature on their own phone after all: the link is voided, and says so.
    const anular = (id: number) => app.request('POST', `/api/v1/decas/${deca.id}/entregas/firma-remota/${id}/anular`, { key: c.live, body: {} });
    const tercero = await pedir({ app, c }, deca);
    const anulado = await anular(tercero.id);
    expect(anulado.status, anulado.text).toBe(200);
    expect(FirmaRemotaRespuesta.parse(anulado.body).firma_remota).toMatchObject({ estado: 'anulada', segundos_restantes: 0 });
    expect((await pagina(app, tercero.url!)).status).toBe(410);
    expect((await firmar(app, tercero.url!, { resultado: 'entregada', receptor_nombre: 'Tarde', sin_reservas: '1', firma: PANEL })).status).toBe(410);

    expect(EntregasList.parse((await app.request('GET', `/api/v1/decas/${deca.id}/entregas`, { key: c.live })).body).data).toEqual([]);
  });

  it('two posts at once on one link record one delivery; a forged pad, an unknown link and an oversized post are refused', async ({ app, c }) => {
    const deca = await emitida({ app, c });
    const link = await pedir({ app, c }, deca);
    const campos = { resultado: 'entregada', receptor_nombre: 'Lucía', sin_reservas: '1', firma: PANEL };
    const [a, b, d] = await Promise.all([firmar(app, link.url!, campos), firmar(app, link.url!, campos), firmar(app, link.url!, campos)]);
    expect([a.status, b.status, d.status].sort()).toEqual([200, 409, 409]);
    expect(EntregasList.parse((await app.request('GET', `/api/v1/decas/${deca.id}/entregas`, { key: c.live })).body).data).toHaveLength(1);

    const otra = await emitida({ app, c });
    const l2 = await pedir({ app, c }, otra);
    for (const firma of ['{"w":0,"h":0,"t":[]}', 'no es json', '{"w":300,"h":100,"t":[[["a","b"]]]}', '[]']) {
      const r = await firmar(app, l2.url!, { resultado: 'entregada', receptor_nombre: 'X', sin_reservas: '1', firma });
      expect(r.status, firma).toBe(422);
      expect(r.text).toContain('Falta su firma');
    }
    const grande = await firmar(app, l2.url!, { resultado: 'entregada', receptor_nombre: 'X', firma: 'x'.repeat(300 * 1024) });
    expect(grande.status).toBe(413);
    expect((await pagina(app, `${app.url}/f/NoExisteEsteEnlace0000000`)).status).toBe(404);
    expect((await estado({ app, c }, otra, l2.id)).estado).toBe('esperando');
  });

  it('asking for a link: a read-only key, another account, a pending DeCA, a delivered or missing shipment are refused', async ({ app, c, cuentaNueva }) => {
    const deca = await emitida({ app, c });
    const ro = await app.request('POST', `/api/v1/decas/${deca.id}/entregas/firma-remota`, { key: c.liveReadOnly, body: {} });
    expect(ErrorBody.parse(ro.body).error.codigo).toBe('solo_lectura');
    expect((await app.request('POST', `/api/v1/decas/${deca.id}/entregas/firma-remota`, { key: cuentaNueva.live, body: {} })).status).toBe(404);
    const link = await pedir({ app, c }, deca);
    expect((await app.request('GET', `/api/v1/decas/${deca.id}/entregas/firma-remota/${link.id}`, { key: cuentaNueva.live })).status).toBe(404);
    // A read-only key may follow a link's state.
    expect((await app.request('GET', `/api/v1/decas/${deca.id}/entregas/firma-remota/${link.id}`, { key: c.liveReadOnly })).status).toBe(200);

    const pendiente = await app.request('POST', '/api/v1/decas', { key: c.live, body: { emitir: false } });
    const p = await app.request('POST', `/api/v1/decas/${pendiente.body.deca.id}/entregas/firma-remota`, { key: c.live, body: {} });
    expect(ErrorBody.parse(p.body).error.codigo).toBe('pendiente');

    const fuera = await app.request('POST', `/api/v1/decas/${deca.id}/entregas/firma-remota`, { key: c.live, body: { envio: 3 } });
    expect(fuera.status).toBe(422);
    expect(ErrorBody.parse(fuera.body).error.mensaje).toContain('no hay envío 3');

    await firmar(app, link.url!, { resultado: 'entregada', receptor_nombre: 'Lucía', sin_reservas: '1', firma: PANEL });
    const otra = await app.request('POST', `/api/v1/decas/${deca.id}/entregas/firma-remota`, { key: c.live, body: {} });
    expect(otra.status).toBe(409);
    expect(ErrorBody.parse(otra.body).error.codigo).toBe('entregado');
  });
});
