import { createHash } from 'node:crypto';
import { describe, expect } from 'vitest';
import { Deca, DecaCreada } from '../../shared/schemas/deca';
import { decaCompleta } from '../support/decas';
import { it } from '../support/fixtures';

describe('DeCA smoke', () => {
  it('creates, issues, reads and serves the PDF', async ({ app, c }) => {
    const res = await app.request('POST', '/api/v1/decas', { key: c.live, body: decaCompleta() });
    expect(res.status, res.text).toBe(201);
    const { deca, avisos } = DecaCreada.parse(res.body);
    expect(deca.estado).toBe('emitido');
    expect(deca.numero).toMatch(/^\d{4}-000001$/);
    expect(deca.matricula).toBe('1234BCD');
    expect(deca.envios[0]).toEqual({ origen: 'Lleida', destino: 'Málaga', naturaleza: 'Piñones y ñoras', peso: 24500.5, unidad: 'kg', nota: null, destinatario_nombre: null, destinatario_nif: null });
    expect(avisos).toEqual([]);
    const get = await app.request('GET', `/api/v1/decas/${deca.numero}`, { key: c.live });
    expect(Deca.parse(get.body.deca).id).toBe(deca.id);
    const pdf = await fetch(`${app.url}/api/v1/decas/${deca.id}/pdf`, { headers: { authorization: `Bearer ${c.live}` } });
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(deca.pdf_sha256);
    expect(bytes.length).toBe(deca.pdf_bytes);
    const patch = await app.request('PATCH', `/api/v1/decas/${deca.id}`, { key: c.live, body: { matricula: '5678 FGH', motivo: 'Cambio de camión' } });
    expect(patch.status, patch.text).toBe(200);
    expect(patch.body.deca.version).toBe(2);
    const cambios = await app.request('GET', `/api/v1/decas/${deca.id}/cambios`, { key: c.live });
    expect(cambios.body.cambios.map((x: { tipo: string }) => x.tipo)).toEqual(['creacion', 'emision', 'modificacion']);
    const sus = await app.request('POST', `/api/v1/decas/${deca.id}/sustituir`, { key: c.live, body: { motivo: 'Otro cargador', cargador_nombre: 'Otro SA' } });
    expect(sus.status, sus.text).toBe(200);
    expect(sus.body.deca.sustituye_a.numero).toBe(deca.numero);
    const old = await app.request('GET', `/api/v1/decas/${deca.id}`, { key: c.live });
    expect(old.body.deca.estado).toBe('sustituido');
    const list = await app.request('GET', '/api/v1/decas?limite=1', { key: c.live });
    expect(list.body.decas).toHaveLength(1);
    expect(list.body.siguiente).toBeTruthy();
  });
});
