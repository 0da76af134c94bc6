/**
 * libxml2's xmllint, the real XML Schema validator and XPath reader the eFTI
 * tests check our documents with (installed by .ci/run; `herramienta` says
 * once when it is missing).
 */
import { spawn } from 'node:child_process';
import { expect } from 'vitest';
import { herramienta } from './herramientas';

export const xmllint = herramienta('xmllint');

/** xmllint run on `xml` given on its standard input; its exit status and what it printed. */
export function lint(args: string[], xml: string): Promise<{ status: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(xmllint as string, [...args, '-'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (b: Buffer) => {
      out += b.toString('utf8');
    });
    p.stderr.on('data', (b: Buffer) => {
      err += b.toString('utf8');
    });
    p.on('error', reject);
    p.on('close', (status) => resolve({ status, out, err }));
    p.stdin.end(xml, 'utf8');
  });
}

/** Valid against the schema at `xsd`, or the validator's complaint. */
export async function expectValidoSegun(xsd: string, xml: string): Promise<void> {
  const r = await lint(['--noout', '--schema', xsd], xml);
  expect(r.err, xml).toContain('- validates');
  expect(r.status).toBe(0);
}

/** The XPath over local names (`['consignment', 'carrier', 'name']`), from anywhere in the document, and an attribute of it. */
const rutaXpath = (ruta: string[], attr?: string) => `/${ruta.map((n) => `/*[local-name()='${n}']`).join('')}${attr ? `/@${attr}` : ''}`;

/** The text of every node the path selects (or of its attribute `attr`), in order, as a parser reads it back. */
export async function textos(xml: string, ruta: string[], attr?: string): Promise<string[]> {
  const xpath = rutaXpath(ruta, attr);
  const c = await lint(['--xpath', `count(${xpath})`], xml);
  expect(c.status, c.err).toBe(0);
  const salida: string[] = [];
  // Node by node: xmllint ends what it prints with one line feed of its own.
  for (let i = 1; i <= Number(c.out.trim()); i++) salida.push((await lint(['--xpath', `string((${xpath})[${i}])`], xml)).out.replace(/\n$/, ''));
  return salida;
}

/** The namespace of the first element the path selects. */
export async function espacio(xml: string, ruta: string[]): Promise<string> {
  return (await lint(['--xpath', `namespace-uri((${rutaXpath(ruta)})[1])`], xml)).out.trim();
}
