/**
 * Which seal a deployment uses (sello-servicio.ts), on the real database:
 * without SEAL_P12 a self-signed one is made once and kept, so a restart
 * and a second process seal alike; with SEAL_P12 the P12's certificate,
 * chain included; a bad P12 stops the start with a Spanish reason.
 */
import { X509Certificate } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test as base, describe, expect } from 'vitest';
import { loadConfig } from '../../server/config';
import { crearSellador, renderYSellar } from '../../server/documents/sello';
import { cargarSelloDelServicio, SelloError } from '../../server/documents/sello-servicio';
import { createLogger } from '../../server/log';
import { openTestDatabase } from '../support/db';
import { huellaDelSello, P12_PRUEBA, P12_PRUEBA_PASSWORD } from '../support/sello';

const log = createLogger('silent');
const ahora = new Date('2026-11-25T10:00:00Z');
const sujeto = (der: Uint8Array) => new X509Certificate(Buffer.from(der)).subject.replace(/\n/g, ', ');

const it = base
  .extend('dir', async ({}, { onCleanup }) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'deca-sello-'));
    onCleanup(() => rmSync(dir, { recursive: true, force: true }));
    return dir;
  })
  // A database of its own per test: the seal is one row per database.
  .extend('db', async ({}, { onCleanup }) => {
    const database = await openTestDatabase();
    onCleanup(() => database.close());
    return database.db;
  });

describe('the service’s seal', () => {
  it('without SEAL_P12: made once, self-signed, kept in the database, the same at every later start', async ({ db }) => {
    const config = loadConfig({ SITE_URL: 'https://deca.example.es' });
    expect(config.sealP12).toBeNull();
    expect(await db.selectFrom('sello_servicio').selectAll().execute()).toHaveLength(0);

    // Two processes starting at once on an empty database still end up with one seal.
    const [a, b] = await Promise.all([cargarSelloDelServicio({ db, config, ahora, log }), cargarSelloDelServicio({ db, config, ahora, log })]);
    expect(await db.selectFrom('sello_servicio').selectAll().execute()).toHaveLength(1);
    expect(Buffer.from(a.certificados[0]!).equals(Buffer.from(b.certificados[0]!))).toBe(true);
    expect(Buffer.from(a.clavePkcs8).equals(Buffer.from(b.clavePkcs8))).toBe(true);

    const cert = new X509Certificate(Buffer.from(a.certificados[0]!));
    expect(cert.subject).toContain('CN=Sello del servicio DeCA (autofirmado)');
    expect(cert.subject).toContain('O=DeCA (deca.example.es)');
    expect(cert.issuer).toBe(cert.subject);
    expect(cert.verify(cert.publicKey)).toBe(true);
    expect(new Date(cert.validTo).getUTCFullYear()).toBe(2046);

    // A later start reads it back.
    const again = await cargarSelloDelServicio({ db, config, ahora: new Date('2027-01-01T00:00:00Z'), log });
    expect(Buffer.from(again.certificados[0]!).equals(Buffer.from(a.certificados[0]!))).toBe(true);
  });

  it('with SEAL_P12: the P12’s seal, its own certificate first and the CA after it, and documents carry it', async ({ db, dir }) => {
    const p12 = path.join(dir, 'sello.p12');
    copyFileSync(P12_PRUEBA, p12);
    const config = loadConfig({ SEAL_P12: p12, SEAL_P12_PASSWORD: P12_PRUEBA_PASSWORD });
    const material = await cargarSelloDelServicio({ db, config, ahora, log });
    expect(material.certificados.map(sujeto)).toEqual([expect.stringContaining('CN=Sello de pruebas DeCA'), expect.stringContaining('CN=Autoridad de pruebas')]);
    expect(await db.selectFrom('sello_servicio').selectAll().execute(), 'nothing self-signed is made').toHaveLength(0);

    const sellador = crearSellador(material);
    const pdf = await renderYSellar(
      {
        entorno: 'produccion',
        numero: '2026-000001',
        version: 1,
        estado: 'emitido',
        cargador_nombre: 'Cargas SL',
        cargador_nif: 'B12345674',
        cargador_domicilio: 'Calle 1, Madrid',
        transp_nombre: 'Transportes SA',
        transp_nif: 'A58818501',
        transp_domicilio: 'Calle 2, Burgos',
        fecha_transporte: '2026-11-25',
        tipo_vehiculo: 'rigido',
        matricula: '1234 BCD',
        matricula_remolque: null,
        autorizacion_especial: null,
        conductor_nombre: null,
        observaciones: null,
        referencia: null,
        envios: [{ origen: 'Madrid', destino: 'Burgos', naturaleza: 'Palés', peso: 1000, unidad: 'kg', nota: null }],
        emitido_at: '2026-11-25 11:00:00',
        modificado_at: null,
        motivo_modificacion: null,
        sustituye_a: null,
        ficha_url: 'https://deca.example.es/ficha/x?t=y',
      },
      sellador,
    );
    expect(huellaDelSello(pdf)).toBe(sellador.huella);
  });

  it('refuses to start with a wrong password, an unreadable file or a file that is not a P12, saying why in Spanish', async ({ db, dir }) => {
    const p12 = path.join(dir, 'sello.p12');
    copyFileSync(P12_PRUEBA, p12);
    const cargar = (env: Record<string, string>) => cargarSelloDelServicio({ db, config: loadConfig(env), ahora, log });
    await expect(cargar({ SEAL_P12: p12, SEAL_P12_PASSWORD: 'otra' })).rejects.toThrow(SelloError);
    await expect(cargar({ SEAL_P12: p12, SEAL_P12_PASSWORD: 'otra' })).rejects.toThrow(/SEAL_P12: no se pudo abrir el P12 del sello \(¿contraseña equivocada/);
    await expect(cargar({ SEAL_P12: path.join(dir, 'no-existe.p12') })).rejects.toThrow(/SEAL_P12: no se puede leer .*no-existe\.p12 \(ENOENT\)/);
    const basura = path.join(dir, 'basura.p12');
    writeFileSync(basura, 'no es un P12');
    await expect(cargar({ SEAL_P12: basura, SEAL_P12_PASSWORD: 'x' })).rejects.toThrow(/SEAL_P12: no se pudo abrir el P12/);
    expect(() => loadConfig({ SEAL_P12_PASSWORD: 'x' })).toThrow(/SEAL_P12: SEAL_P12_PASSWORD sin SEAL_P12/);
  });
});
