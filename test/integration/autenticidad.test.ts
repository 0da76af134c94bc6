import { createHash } from 'node:crypto';
import { parse as parseHtml } from 'node-html-parser';
import { describe, expect } from 'vitest';
import { type Deca, DecaCreada } from '../../shared/schemas/deca';
import { decaCompleta } from '../support/decas';
import { type Fx, it, test } from '../support/fixtures';

// Checks are limited per IP: each test comes from its own address (through a trusted proxy).
test.override('opcionesApp', { env: { TRUST_PROXY: '1' } });
let ip = 0;
const otraIp = () => `198.51.100.${++ip}`;

const texto = (html: string) => parseHtml(html).querySelector('main')?.textContent.replace(/\s+/g, ' ') ?? '';

async function emitida({ app, c }: Fx): Promise<Deca> {
  const res = await app.request('POST', '/api/v1/decas', { key: c.live, body: decaCompleta() });
  expect(res.status, res.text).toBe(201);
  return DecaCreada.parse(res.body).deca;
}

/** The current PDF, downloaded from the public link as an inspector or a driver gets it. */
async function pdfPublico({ app }: Fx, deca: Deca): Promise<Buffer> {
  const res = await fetch(`${app.url}${new URL(deca.urls.pdf).pathname}`);
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

/** Upload through the page's form, as a browser sends it (multipart/form-data). */
async function comprobar({ app }: Fx, bytes: Buffer, desde = otraIp()): Promise<{ status: number; texto: string; html: string }> {
  const form = new FormData();
  form.append('pdf', new Blob([new Uint8Array(bytes)], { type: 'application/pdf' }), 'deca.pdf');
  const res = await fetch(`${app.url}/verificar`, { method: 'POST', body: form, headers: { 'X-Forwarded-For': desde } });
  const html = await res.text();
  return { status: res.status, texto: texto(html), html };
}

describe('the public authenticity check', () => {
  it('the ficha shows the current PDF’s SHA-256 and links the check, which is a form needing no script', async ({ app, c }) => {
    const deca = await emitida({ app, c });
    const pdf = await pdfPublico({ app, c }, deca);
    const ficha = parseHtml(await (await fetch(`${app.url}${new URL(deca.urls.ficha).pathname}`)).text());
    expect(ficha.querySelector('[data-huella]')?.textContent).toBe(createHash('sha256').update(pdf).digest('hex'));
    expect(ficha.querySelector('a[href="/verificar"]')).not.toBeNull();
    const pagina = await fetch(`${app.url}/verificar`);
    expect(pagina.status).toBe(200);
    const doc = parseHtml(await pagina.text());
    expect(doc.querySelectorAll('script')).toHaveLength(0);
    expect(doc.querySelector('form')?.getAttribute('enctype')).toBe('multipart/form-data');
    expect(doc.querySelector('input[type=file][name=pdf]')).not.toBeNull();
  });

  it('current PDF → authentic and in force; an earlier version → authentic, not current; one byte changed → not authentic', async ({ app, c }) => {
    const deca = await emitida({ app, c });
    const v1 = await pdfPublico({ app, c }, deca);
    const patch = await app.request('PATCH', `/api/v1/decas/${deca.id}`, { key: c.live, body: { matricula: '9999 ZZZ', motivo: 'Avería' } });
    expect(patch.status, patch.text).toBe(200);
    const v2 = await pdfPublico({ app, c }, deca);

    const actual = await comprobar({ app, c }, v2);
    expect(actual.status).toBe(200);
    expect(actual.texto).toContain('AUTÉNTICO y VIGENTE');
    expect(actual.texto).toContain(`DeCA ${deca.numero}`);
    expect(actual.texto).toContain('Este archivo es la versión 2');
    expect(actual.texto).toContain(createHash('sha256').update(v2).digest('hex'));

    const anterior = await comprobar({ app, c }, v1);
    expect(anterior.texto).toContain('AUTÉNTICO, pero NO es la versión vigente');
    expect(anterior.texto).toContain('Este archivo es la versión 1');
    expect(anterior.texto).toContain('hoy vale la versión 2');

    const alterado = Buffer.from(v2);
    const i = alterado.indexOf('/Producer');
    expect(i).toBeGreaterThan(0);
    alterado.write('/Producxr', i, 'latin1'); // one byte of the document information changed
    const falso = await comprobar({ app, c }, alterado);
    expect(falso.status).toBe(200);
    expect(falso.texto).toContain('NO AUTÉNTICO');
    expect(falso.texto).not.toContain(deca.numero);
  });

  it('says plainly when the DeCA was replaced or its service ended', async ({ app, c }) => {
    const fin = await emitida({ app, c });
    await app.request('POST', `/api/v1/decas/${fin.id}/fin`, { key: c.live, body: {} });
    expect((await comprobar({ app, c }, await pdfPublico({ app, c }, fin))).texto).toMatch(/AUTÉNTICO y VIGENTE.*SERVICIO FINALIZADO el \d{2}\/\d{2}\/\d{4}/);

    const vieja = await emitida({ app, c });
    const pdfViejo = await pdfPublico({ app, c }, vieja);
    const sus = await app.request('POST', `/api/v1/decas/${vieja.id}/sustituir`, {
      key: c.live,
      body: { motivo: 'Otro destino', envios: [{ origen: 'Lleida', destino: 'Cádiz', naturaleza: 'Fruta', peso: 1000 }] },
    });
    expect(sus.status, sus.text).toBe(200);
    const r = await comprobar({ app, c }, pdfViejo);
    expect(r.texto).toContain(`AUTÉNTICO, pero la DeCA fue SUSTITUIDA por la ${sus.body.deca.numero}: ya no es válida`);
  });

  it('takes the PDF as the body too (application/pdf, for curl), and refuses what is not a PDF, empty or too large', async ({ app, c }) => {
    const deca = await emitida({ app, c });
    const pdf = await pdfPublico({ app, c }, deca);
    const crudo = await fetch(`${app.url}/verificar`, { method: 'POST', body: new Uint8Array(pdf), headers: { 'content-type': 'application/pdf', 'X-Forwarded-For': otraIp() } });
    expect(crudo.status).toBe(200);
    expect(texto(await crudo.text())).toContain('AUTÉNTICO y VIGENTE');

    const noPdf = await comprobar({ app, c }, Buffer.from('esto es un albarán en texto'));
    expect(noPdf.status).toBe(422);
    expect(noPdf.texto).toContain('El archivo no es un PDF');
    expect(parseHtml(noPdf.html).querySelector('#pdf')?.getAttribute('aria-invalid')).toBe('true');
    expect((await comprobar({ app, c }, Buffer.alloc(0))).status).toBe(422);

    const grande = await comprobar({ app, c }, Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(4 * 1024 * 1024)]));
    expect(grande.status).toBe(413);
    expect(grande.texto).toContain('supera 4 MB');
  });

  it('limits checks per IP: the 31st in ten minutes gets 429 with Retry-After', async ({ app, c }) => {
    const pdf = Buffer.from('%PDF-1.7 no es de ninguna DeCA');
    const desde = otraIp();
    for (let n = 0; n < 30; n++) expect((await comprobar({ app, c }, pdf, desde)).status).toBe(200);
    const form = new FormData();
    form.append('pdf', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'x.pdf');
    const res = await fetch(`${app.url}/verificar`, { method: 'POST', body: form, headers: { 'X-Forwarded-For': desde } });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(texto(await res.text())).toContain('Espere');
  });
});
