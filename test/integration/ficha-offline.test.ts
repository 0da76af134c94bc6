import { createHash, randomBytes, webcrypto } from 'node:crypto';
import { parse as parseHtml } from 'node-html-parser';
import { describe, expect } from 'vitest';
import { fichaUrl } from '../../server/domain/decas/urls';
import { ErrorBody } from '../../shared/errors';
import { isoMadrid } from '../../shared/rules/fechas';
import { codificarResumen, huellaDatos, type ResumenOffline, urlConResumen } from '../../shared/rules/resumen-offline';
import { type Reserva, ReservasRespuesta } from '../../shared/schemas/dispositivo';
import '../../server/documents/deca-pdf';
import { runMailOnce } from '../../server/jobs/mail-delivery';
import { emitirEnDispositivo } from '../../shared/pdf/emision-dispositivo';
import { qrModules } from '../../shared/pdf/qr';
import { sinSello } from '../../shared/pdf/sin-sello';
import { DecaCreada, DecaInput } from '../../shared/schemas/deca';
import { WebhookPayload } from '../../shared/schemas/webhook';
import type { TestApp } from '../support/app';
import { decaCompleta } from '../support/decas';
import { getBytes, iniciarSesion } from '../support/decas-helpers';
import { movilConReservas } from '../support/dispositivos';
import { type CuentaDePrueba, it, test } from '../support/fixtures';
import { RESUMEN_PEOR_CASO } from '../support/resumen-peor-caso';
import { codificarResumenV1 } from '../support/resumen-v1';
import { mailDeps, startSmtp } from '../support/smtp';
import { crearWebhookOk, entregarTodo } from '../support/webhooks';

/**
 * The inspector scans the QR of a DeCA issued with no coverage before the
 * driver's phone has synced: the public ficha vouches for the data the
 * device signed, or says it could not verify them, never more.
 */

const CSRF = { 'X-DeCA-CSRF': '1' };
test.override('opcionesApp', { env: { WEBHOOK_ALLOW_INSECURE: '1' } });

interface Movil {
  id: number;
  privada: CryptoKey;
  cookie: string;
  reservas: Reserva[];
  capacidadSello: number;
}

/** A device as the app sets it up: a key pair, its public key registered, its numbers reserved. */
async function movil(app: TestApp, c: CuentaDePrueba): Promise<Movil> {
  const cookie = await iniciarSesion(app, c.email, c.password);
  const { id, privada, reservas, capacidad_sello } = await movilConReservas(app, cookie, 'produccion');
  // A phone holds numbers reserved before it goes out of coverage (a DeCA is never dated before its
  // number's reservation): here, since 1 January of their year.
  const reservadaAt = new Date(`${reservas[0]!.numero.slice(0, 4)}-01-01T00:00:00+01:00`);
  await app.database.db.updateTable('reservas').set({ created_at: reservadaAt }).where('dispositivo_id', '=', id).execute();
  return { id, privada, cookie, reservas: reservas.map((r) => ({ ...r, reservada_at: isoMadrid(reservadaAt) })), capacidadSello: capacidad_sello };
}

function resumenDe(numero: string): ResumenOffline {
  const d = decaCompleta();
  return {
    numero,
    cargador_nombre: 'Frutas Peñalara, S.A.',
    cargador_nif: 'A58818501',
    transp_nombre: 'Transportes Núñez, S.L.',
    transp_nif: 'B12345674',
    fecha: '2026-11-26',
    matricula: '1234BCD',
    remolque: 'R5678BBC',
    origen: 'Lleida',
    destino: 'Málaga',
    naturaleza: 'Piñones y ñoras',
    envios: 1,
    peso: { valor: 24500.5, unidad: 'kg' },
    conductor: 'José Ángel Muñoz',
    huella: huellaDatos(d),
    emitida_at: new Date('2026-11-26T07:41:00Z'),
    cortados: [],
    formato: 2,
  };
}

/** The QR's URL as the device makes it: the ficha URL of the reserved token, the summary and its signature. */
async function urlFirmada(app: TestApp, clave: CryptoKey, token: string, r: ResumenOffline, retocar = (b: Uint8Array) => b): Promise<string> {
  const resumen = codificarResumen(r);
  const firma = new Uint8Array(await webcrypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, clave, resumen));
  return urlConResumen(fichaUrl(app.url, token), retocar(resumen), firma);
}

/** The QR's URL as phones made it before the compact format: base64url text, a dot, the signature of that text. */
async function urlFirmadaV1(app: TestApp, clave: CryptoKey, token: string, r: ResumenOffline): Promise<string> {
  const texto = codificarResumenV1(r);
  const firma = new Uint8Array(await webcrypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, clave, new TextEncoder().encode(texto)));
  return `${fichaUrl(app.url, token)}?o=${texto}.${Buffer.from(firma).toString('base64url')}`;
}

async function abrir(url: string) {
  const res = await fetch(url, { headers: { 'user-agent': 'Mozilla/5.0 (Linux; Android 14) Chrome/126.0 Mobile' } });
  const text = await res.text();
  return { status: res.status, text, main: parseHtml(text).querySelector('main')?.textContent.replace(/\s+/g, ' ') ?? '' };
}

describe('the ficha of a DeCA issued with no coverage, before it arrives', () => {
  it('shows the data the device signed, whose device it was and when, with no JavaScript', async ({ app, cuentaNueva: c }) => {
    const m = await movil(app, c);
    const [r] = m.reservas;
    const pagina = await abrir(await urlFirmada(app, m.privada, r!.token, resumenDe(r!.numero)));
    expect(pagina.status).toBe(200);
    expect(pagina.main).toContain(`Nº ${r!.numero}`);
    // The verdict first, large, before the data it vouches for.
    const veredicto = parseHtml(pagina.text).querySelector('.banner.ok .veredicto');
    expect(veredicto?.textContent).toBe('✓ Firma del dispositivo verificada');
    expect(pagina.main.indexOf('✓ Firma del dispositivo verificada')).toBeLessThan(pagina.main.indexOf('1234BCD'));
    expect(pagina.main).toContain(`EMITIDA SIN COBERTURA en un dispositivo de ${c.account.nombre} el 26/11/2026 a las 08:41`);
    expect(pagina.main).toContain('el documento completo llegará cuando el dispositivo tenga cobertura');
    for (const dato of [
      'Frutas Peñalara, S.A.',
      'A58818501',
      'Transportes Núñez, S.L.',
      'B12345674',
      '1234BCD + R5678BBC',
      '26/11/2026',
      'José Ángel Muñoz',
      'Piñones y ñoras · 24.500,5 kg',
      'Lleida → Málaga',
      'Android · Chrome',
    ]) {
      expect(pagina.main).toContain(dato);
    }
    expect(pagina.text).not.toContain('<script');
    expect(pagina.main).not.toContain('…');
  });

  it('carries the longest realistic names whole, and cuts only what does not fit, saying so', async ({ app, cuentaNueva: c }) => {
    const m = await movil(app, c);
    const [r] = m.reservas;
    const largo = { ...RESUMEN_PEOR_CASO, numero: r!.numero, emitida_at: new Date('2026-11-26T07:41:00Z') };
    const pagina = await abrir(await urlFirmada(app, m.privada, r!.token, largo));
    expect(pagina.status).toBe(200);
    // Places, plates and weight whole; names and goods to 40 characters, marked.
    for (const dato of [`${largo.origen} → ${largo.destino}`, '24.500,5 kg', '1234BCD + R5678BBC', 'Frutas y hortalizas frescas en cajas ref…', 'Cooperativa Agrícola San Isidro de Almer…']) {
      expect(pagina.main).toContain(dato);
    }
    expect(pagina.main).toContain('Carga (3 envíos)');
    expect(pagina.main).toContain('Peso total: 24.500,5 kg');
    expect(pagina.main).toContain('El QR lleva la mercancía y los lugares del primer envío.');

    // Texts far longer than anyone writes: cut to fit, each marked «…», and said what that means.
    const enorme = { ...largo, origen: `${largo.origen}, ${largo.origen}`, cargador_nombre: `${largo.cargador_nombre} ${largo.cargador_nombre}`, conductor: 'Ana' };
    const cortada = await abrir(await urlFirmada(app, m.privada, r!.token, enorme));
    expect(cortada.status).toBe(200);
    expect(cortada.main).toMatch(/Cargador ?Cooperativa Agrícola San Isidro de Alm[^…]*…/);
    expect(cortada.main).toMatch(/Polígono Industrial La Redonda[^…]*…/);
    expect(cortada.main).toContain('«…»: el QR no lleva entero ese texto; el documento completo sí.');
    expect(cortada.main).not.toContain('Ana…');
  });

  it('still verifies the summaries of the first format, which phones in the field carry, and refuses one tampered with', async ({ app, cuentaNueva: c }) => {
    const m = await movil(app, c);
    const [r] = m.reservas;
    const antiguo = { ...resumenDe(r!.numero), cargador_nombre: 'Quesos del Valle de Benasque SL', origen: 'Benasque (Huesca), polígono' };
    const url = await urlFirmadaV1(app, m.privada, r!.token, antiguo);
    expect(new URL(url).searchParams.get('o')).toMatch(/^[\w-]+\.[\w-]+$/);
    const pagina = await abrir(url);
    expect(pagina.status).toBe(200);
    expect(pagina.main).toContain('✓ Firma del dispositivo verificada');
    // That format carried names to 24 characters and places to 20, and no goods.
    for (const dato of ['Quesos del Valle de Bena…', 'Benasque (Huesca), p… → Málaga', '24.500,5 kg', '1234BCD + R5678BBC', 'no consta en este QR']) expect(pagina.main).toContain(dato);
    const o = new URL(url).searchParams.get('o')!;
    const retocado = `${fichaUrl(app.url, r!.token)}?o=${codificarResumenV1({ ...antiguo, matricula: '9999ZZZ' })}.${o.split('.')[1]}`;
    const rechazada = await abrir(retocado);
    expect(rechazada.status).toBe(404);
    expect(rechazada.main).toContain('✗ Firma no verificada');
  });

  it('cannot be verified when anything does not hold, and says only that, the same way each time', async ({ app, cuentaNueva: c }) => {
    const m = await movil(app, c);
    const [r1, r2] = m.reservas;
    const bueno = resumenDe(r1!.numero);
    const otraClave = (await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign'])).privateKey;
    const casos: Record<string, string> = {
      // One field changed after signing (another plate).
      retocado: await urlFirmada(app, m.privada, r1!.token, bueno, () => codificarResumen({ ...bueno, matricula: '9999ZZZ' })),
      'otra clave': await urlFirmada(app, otraClave, r1!.token, bueno),
      'otro número que el reservado con el token': await urlFirmada(app, m.privada, r1!.token, resumenDe(r2!.numero)),
      'un token no reservado': await urlFirmada(app, m.privada, randomBytes(24).toString('base64url'), bueno),
      'firma cortada': (await urlFirmada(app, m.privada, r1!.token, bueno)).slice(0, -4),
      'resumen ilegible': `${fichaUrl(app.url, r1!.token)}?o=no-es-un-resumen.${'A'.repeat(86)}`,
      'emitida después de caducar su número': await urlFirmada(app, m.privada, r1!.token, { ...bueno, emitida_at: new Date(Date.parse(r1!.caduca_at) + 60_000) }),
      'emitida antes de reservarse su número': await urlFirmada(app, m.privada, r1!.token, { ...bueno, emitida_at: new Date('1970-01-02T08:00:00Z') }),
      'emitida 20 días en el futuro': await urlFirmada(app, m.privada, r1!.token, { ...bueno, emitida_at: new Date(app.clock.now().getTime() + 20 * 86_400_000) }),
    };
    const paginas = new Set<string>();
    for (const [caso, url] of Object.entries(casos)) {
      const p = await abrir(url);
      expect(p.status, caso).toBe(404);
      expect(parseHtml(p.text).querySelector('.banner.bad .veredicto')?.textContent, caso).toBe('✗ Firma no verificada');
      expect(p.main, caso).toContain('No se ha podido verificar este documento');
      paginas.add(p.main);
    }
    expect(paginas.size).toBe(1);
    // The good one still verifies; and once its device is revoked, it does not.
    const url = await urlFirmada(app, m.privada, r1!.token, bueno);
    expect((await abrir(url)).status).toBe(200);
    expect((await app.request('DELETE', `/app/api/dispositivos/${m.id}`, { cookie: m.cookie, headers: CSRF })).status).toBe(200);
    expect((await abrir(url)).main).toContain('No se ha podido verificar este documento');
  });

  it('without the signed summary, a reserved token is as unknown as any; a DeCA’s own ficha ignores a summary', async ({ app, cuentaNueva: c }) => {
    const m = await movil(app, c);
    const reservado = await abrir(fichaUrl(app.url, m.reservas[0]!.token));
    const inventado = await abrir(fichaUrl(app.url, randomBytes(24).toString('base64url')));
    expect(reservado.status).toBe(404);
    expect(reservado.text).toBe(inventado.text);

    const creada = await app.request('POST', '/api/v1/decas', { key: c.live, body: decaCompleta() });
    expect(creada.status, creada.text).toBe(201);
    const ficha = await abrir(`${app.url}${new URL(creada.body.deca.urls.ficha).pathname}?o=${'A'.repeat(40)}.${'B'.repeat(86)}`);
    expect(ficha.status).toBe(200);
    expect(ficha.main).toContain(`Nº ${creada.body.deca.numero}`);
    expect(ficha.main).toContain('EMITIDA y en vigor');
  });
});

describe('a DeCA issued with no coverage, when its device syncs', () => {
  const crearDesde = (app: TestApp, cookie: string, emision: Record<string, unknown>, clave: string, cuerpo: Record<string, unknown> = decaCompleta()) =>
    app.request('POST', '/api/v1/decas', { cookie, headers: { ...CSRF, 'Idempotency-Key': clave }, body: { ...cuerpo, emitir: true, emision_offline: emision } });

  it('is issued with the reserved number and token at the device’s time, once, and marked as such everywhere', async ({ app, cuentaNueva: c }) => {
    const m = await movil(app, c);
    const [r] = m.reservas;
    const emision = { dispositivo_id: m.id, numero: r!.numero, token: r!.token, emitida_at: '2026-11-26T08:41:00+01:00' };
    // The inspector scanned it before the sync: the signed summary.
    const qr = await urlFirmada(app, m.privada, r!.token, resumenDe(r!.numero));
    expect((await abrir(qr)).main).toContain('EMITIDA SIN COBERTURA');

    const res = await crearDesde(app, m.cookie, emision, 'offline-1');
    expect(res.status, res.text).toBe(201);
    const deca = res.body.deca;
    expect(deca).toMatchObject({ numero: r!.numero, estado: 'emitido', emitido_at: '2026-11-26 08:41:00' });
    expect(deca.urls.ficha).toBe(fichaUrl('http://localhost:8080', r!.token));
    expect(deca.emision_offline).toMatchObject({ dispositivo: 'Android · Chrome', emitida_at: '2026-11-26 08:41:00' });
    expect(deca.emision_offline.recibida_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(deca.pdf_sha256).toMatch(/^[0-9a-f]{64}$/);

    // The sync repeated (the answer was lost): the same DeCA, not a second one.
    const otra = await crearDesde(app, m.cookie, emision, 'offline-1');
    expect(otra.status).toBe(200);
    expect(otra.body.deca.id).toBe(deca.id);
    // The list and the detail carry the mark; the ficha is now the usual one and says how it was issued.
    const lista = await app.request('GET', '/api/v1/decas', { key: c.live });
    expect(lista.body.decas.find((d: { id: number }) => d.id === deca.id).emision_offline).toEqual(deca.emision_offline);
    const ficha = await abrir(qr);
    expect(ficha.status).toBe(200);
    expect(ficha.main).toContain('EMITIDA y en vigor');
    expect(ficha.main).toContain('Emitida sin cobertura en un dispositivo (Android · Chrome); recibida el');
    // The number is not given again.
    const despues = await app.request('POST', `/app/api/dispositivos/${m.id}/reservas`, { cookie: m.cookie, headers: CSRF, body: { entorno: 'produccion' } });
    expect(ReservasRespuesta.parse(despues.body).reservas.map((x) => x.numero)).not.toContain(r!.numero);
  });

  it('keeps the QR the device signed: the server’s PDF, unsealed, is the device’s byte for byte; a QR signed for other data or by another key is refused', async ({ app, cuentaNueva: c }) => {
    const m = await movil(app, c);
    const [r1, r2] = m.reservas;
    const firmar = (clave: CryptoKey) => async (datos: Uint8Array) => new Uint8Array(await webcrypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, clave, datos));
    const enDispositivo = (r: Reserva, cuerpo: Record<string, unknown>, clave = m.privada) =>
      emitirEnDispositivo(DecaInput.parse(cuerpo), c.account, { ...r, entorno: 'produccion', dispositivo_id: m.id, capacidad_sello: m.capacidadSello }, new Date(Date.now() - 90_000), firmar(clave));

    const cuerpo = decaCompleta({ observaciones: 'Descarga por la puerta trasera' });
    const local = await enDispositivo(r1!, cuerpo);
    expect(local.qrUrl.startsWith(`${r1!.ficha_url}?o=`)).toBe(true);
    expect((qrModules(local.qrUrl).size - 17) / 4).toBeLessThanOrEqual(13);
    // Before the sync the inspector's phone verifies it (the test server is not at the site's URL).
    expect((await abrir(local.qrUrl.replace('http://localhost:8080', app.url))).main).toContain('EMITIDA SIN COBERTURA');

    const res = await crearDesde(app, m.cookie, local.emision, 'firmada', cuerpo);
    expect(res.status, res.text).toBe(201);
    const sellado = (await getBytes(app, c.live, `/api/v1/decas/${res.body.deca.id}/pdf`)).bytes;
    expect(createHash('sha256').update(sellado).digest('hex')).toBe(res.body.deca.pdf_sha256);
    expect(Buffer.from(sinSello(sellado)!).equals(Buffer.from(local.pdf))).toBe(true);

    // Signed for other data than it sends, or by a key that is not the device's: refused, naming the QR.
    const otros = await enDispositivo(r2!, cuerpo);
    const cambiada = await crearDesde(app, m.cookie, otros.emision, 'otros-datos', decaCompleta({ observaciones: 'Otra cosa' }));
    const ajena = await enDispositivo(r2!, cuerpo, (await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])).privateKey);
    const deOtraClave = await crearDesde(app, m.cookie, ajena.emision, 'otra-clave', cuerpo);
    for (const rechazo of [cambiada, deOtraClave]) {
      expect(rechazo.status, rechazo.text).toBe(422);
      expect(ErrorBody.parse(rechazo.body).error.campos).toHaveProperty(['emision_offline.qr']);
    }
    // Neither spent the number: the right QR still issues it.
    expect((await crearDesde(app, m.cookie, otros.emision, 'bien', cuerpo)).status).toBe(201);
  });

  it('refuses, saying why, a number used already, expired, another device’s, one issued after its device was revoked, a clock far ahead, a number of another year, and an API key', async ({
    app,
    cuentaNueva: c,
  }) => {
    const m = await movil(app, c);
    const [r1, r2] = m.reservas;
    const bien = { dispositivo_id: m.id, numero: r1!.numero, token: r1!.token, emitida_at: new Date().toISOString() };
    expect((await crearDesde(app, m.cookie, bien, 'a')).status).toBe(201);

    const otro = await movil(app, c); // a second device of the same user
    // A number whose 30 days ran out an hour ago, used now (the device's clock or a tampered app).
    const caducada = m.reservas[2]!;
    await app.database.db
      .updateTable('reservas')
      .set({ caduca_at: new Date(Date.now() - 3_600_000) })
      .where('account_id', '=', c.account.id)
      .where('entorno', '=', 'produccion')
      .where('numero', '=', caducada.numero)
      .execute();
    const r4 = m.reservas[3]!;
    const deAnioPasado = `${Number(r4.numero.slice(0, 4)) - 1}-999999`;
    await app.database.db
      .updateTable('reservas')
      .set({ numero: deAnioPasado, created_at: new Date(`${deAnioPasado.slice(0, 4)}-12-30T12:00:00+01:00`) })
      .where('account_id', '=', c.account.id)
      .where('entorno', '=', 'produccion')
      .where('numero', '=', r4.numero)
      .execute();
    const casos: [string, Record<string, unknown>, number, RegExp][] = [
      ['used', bien, 409, /ya lo usó otra DeCA/],
      ['another device', { ...bien, numero: r2!.numero, token: r2!.token, dispositivo_id: otro.id }, 409, /no estaba reservado para este dispositivo/],
      ['wrong token', { ...bien, numero: r2!.numero, token: otro.reservas[0]!.token }, 409, /no estaba reservado/],
      ['expired', { ...bien, numero: caducada.numero, token: caducada.token }, 409, /ya no era de este dispositivo cuando se emitió \(caducó/],
      ['clock ahead', { ...bien, numero: r2!.numero, token: r2!.token, emitida_at: new Date(Date.now() + 3_600_000).toISOString() }, 422, /hora del dispositivo/],
      // A number of this year's series on a DeCA the device says it issued last year (its clock was wrong): before the number was reserved.
      ['another year', { ...bien, numero: r2!.numero, token: r2!.token, emitida_at: `${Number(r2!.numero.slice(0, 4)) - 1}-12-31T12:00:00+01:00` }, 422, /es anterior a la reserva del número/],
      // A number reserved on 30 December, used in the new year: of last year's series.
      ['last year’s number', { ...bien, numero: deAnioPasado, token: r4.token }, 409, /es de la serie de \d{4}: no vale para una DeCA emitida el \d{2}\/\d{2}\/\d{4}/],
    ];
    for (const [i, [caso, emision, status, mensaje]] of casos.entries()) {
      const res = await crearDesde(app, m.cookie, emision, `k-${i}`);
      expect(res.status, caso).toBe(status);
      expect(ErrorBody.parse(res.body).error.mensaje, caso).toMatch(mensaje);
    }
    const conClave = await app.request('POST', '/api/v1/decas', { key: c.live, body: { ...decaCompleta(), emision_offline: { ...bien, numero: r2!.numero, token: r2!.token } } });
    expect(conClave.status).toBe(403);

    // The device is revoked: what it issued before still arrives; what it says it issued after, not.
    const antes = new Date(Date.now() - 60_000).toISOString();
    expect((await app.request('DELETE', `/app/api/dispositivos/${m.id}`, { cookie: m.cookie, headers: CSRF })).status).toBe(200);
    const tarde = await crearDesde(app, m.cookie, { ...bien, numero: r2!.numero, token: r2!.token, emitida_at: new Date(Date.now() + 120_000).toISOString() }, 'tarde');
    expect(tarde.status).toBe(409);
    expect(ErrorBody.parse(tarde.body).error.mensaje).toMatch(/ya no era de este dispositivo/);
    expect((await crearDesde(app, m.cookie, { ...bien, numero: r2!.numero, token: r2!.token, emitida_at: antes }, 'a-tiempo')).status).toBe(201);
    // None of them took a number: the next DeCA made online gets the next free one.
    const online = await app.request('POST', '/api/v1/decas', { key: c.live, body: decaCompleta() });
    expect(online.body.deca.numero).toBe(`${r1!.numero.slice(0, 5)}${String(Number(otro.reservas.at(-1)!.numero.slice(5)) + 1).padStart(6, '0')}`);
  });

  it('from the server’s receipt on, sends its webhooks and its e-mail as for any issued DeCA', async ({ app, cuentaNueva: c, rx }) => {
    const path = `/offline-${Math.random().toString(36).slice(2)}`;
    await crearWebhookOk(app, c.live, { url: `${rx.url}${path}`, eventos: ['deca.emitido'], descripcion: 'oficina' });
    const m = await movil(app, c);
    const [r] = m.reservas;
    const emitidaAt = new Date(Date.now() - 45 * 60_000); // issued in the valley three quarters of an hour ago
    const antesDeRecibir = Date.now();
    const res = await crearDesde(app, m.cookie, { dispositivo_id: m.id, numero: r!.numero, token: r!.token, emitida_at: emitidaAt.toISOString() }, 'sincronizada');
    expect(res.status, res.text).toBe(201);
    const deca = DecaCreada.parse(res.body).deca;

    // The office's integration hears of it when the server receives it, with the mark and the device's time.
    await entregarTodo(app);
    const recibidos = rx.recibidos.filter((x) => x.path === path).map((x) => WebhookPayload.parse(JSON.parse(x.raw.toString('utf8'))));
    expect(recibidos.map((p) => [p.evento, p.data.deca?.numero])).toEqual([['deca.emitido', r!.numero]]);
    const evento = recibidos[0]!;
    expect(evento.data.deca?.emision_offline).toEqual(deca.emision_offline);
    expect(evento.data.deca?.emitido_at).toBe(deca.emitido_at);
    expect(new Date(evento.creado_at).getTime()).toBeGreaterThanOrEqual(Math.floor(antesDeRecibir / 1000) * 1000);

    // Sent by e-mail like any other: the PDF attached is the one whose hash the server answered.
    const smtp = await startSmtp();
    try {
      const envio = await app.request('POST', `/api/v1/decas/${deca.id}/enviar`, { key: c.live, body: { email: 'valle@example.com' } });
      expect(envio.status, envio.text).toBe(200);
      await runMailOnce(mailDeps(app, smtp.url));
      const mail = smtp.mails.find((x) => x.subject?.includes(r!.numero));
      const pdf = mail?.attachments.find((a) => a.contentType === 'application/pdf');
      expect(
        createHash('sha256')
          .update(pdf?.content ?? Buffer.alloc(0))
          .digest('hex'),
      ).toBe(deca.pdf_sha256);
    } finally {
      await smtp.close();
    }
  });
});
