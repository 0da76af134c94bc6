import { randomBytes, webcrypto } from 'node:crypto';
import { parse as parseHtml } from 'node-html-parser';
import { describe, expect } from 'vitest';
import { codificarResumen, datosAFirmar, huellaDatos, urlConResumen, type ResumenOffline } from '../../shared/rules/resumen-offline';
import { Dispositivo, ReservasRespuesta, type Reserva } from '../../shared/schemas/dispositivo';
import { fichaUrl } from '../../server/domain/decas/urls';
import type { TestApp } from '../support/app';
import { decaCompleta } from '../support/decas';
import { iniciarSesion } from '../support/decas-helpers';
import { it, type CuentaDePrueba } from '../support/fixtures';

/**
 * The inspector scans the QR of a DeCA issued with no coverage before the
 * driver's phone has synced: the public ficha vouches for the data the
 * device signed, or says it could not verify them, never more.
 */

const CSRF = { 'X-DeCA-CSRF': '1' };

interface Movil {
  id: number;
  privada: CryptoKey;
  cookie: string;
  reservas: Reserva[];
}

/** A device as the app sets it up: a key pair, its public key registered, its numbers reserved. */
async function movil(app: TestApp, c: CuentaDePrueba): Promise<Movil> {
  const cookie = await iniciarSesion(app, c.email, c.password);
  const par = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
  const jwk = await webcrypto.subtle.exportKey('jwk', par.publicKey);
  const reg = await app.request('POST', '/app/api/dispositivos', { cookie, headers: CSRF, body: { nombre: 'Android · Chrome', clave_publica: jwk } });
  expect(reg.status, reg.text).toBe(201);
  const { id } = Dispositivo.parse(reg.body.dispositivo);
  const res = await app.request('POST', `/app/api/dispositivos/${id}/reservas`, { cookie, headers: CSRF, body: { entorno: 'produccion' } });
  expect(res.status, res.text).toBe(200);
  return { id, privada: par.privateKey, cookie, reservas: ReservasRespuesta.parse(res.body).reservas };
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
    peso_kg: 24500.5,
    huella: huellaDatos(d),
    emitida_at: new Date('2026-11-26T07:41:00Z'),
  };
}

/** The QR's URL as the device makes it: the ficha URL of the reserved token, the summary and its signature. */
async function urlFirmada(app: TestApp, clave: CryptoKey, token: string, r: ResumenOffline, retocar = (s: string) => s): Promise<string> {
  const resumen = codificarResumen(r);
  const firma = new Uint8Array(await webcrypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, clave, datosAFirmar(resumen)));
  return urlConResumen(fichaUrl(app.url, token), retocar(resumen), firma);
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
    expect(pagina.main).toContain(`EMITIDA SIN COBERTURA en un dispositivo de ${c.account.nombre} el 26/11/2026 a las 08:41`);
    expect(pagina.main).toContain('el documento completo llegará cuando el dispositivo tenga cobertura');
    for (const dato of ['Frutas Peñalara, S.A.', 'A58818501', 'Transportes Núñez, S.L.', 'B12345674', '1234BCD + R5678BBC', '26/11/2026', 'Lleida', 'Málaga', '24.500,5 kg', 'Android · Chrome']) {
      expect(pagina.main).toContain(dato);
    }
    expect(pagina.text).not.toContain('<script');
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
    };
    const paginas = new Set<string>();
    for (const [caso, url] of Object.entries(casos)) {
      const p = await abrir(url);
      expect(p.status, caso).toBe(404);
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
