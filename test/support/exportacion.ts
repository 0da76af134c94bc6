import type { TestApp } from './app';

/** The token of the export link e-mailed to `email` (from the mail outbox), noted as a secret. */
export async function tokenExportacion(app: TestApp, email: string): Promise<string> {
  const m = await app.database.db.selectFrom('correos').select('texto').where('destinatario', '=', email).where('tipo', '=', 'exportacion_cuenta').executeTakeFirst();
  const token = /\/p\/exportacion\/([\w-]+)/.exec(m?.texto ?? '')?.[1];
  if (!token) throw new Error(`ningún enlace de exportación a ${email}`);
  app.secreto(token);
  return token;
}

/** The export's download, as the link's page's button sends it. */
export async function descargar(app: TestApp, token: string): Promise<{ status: number; type: string | null; bytes: Buffer; text: string }> {
  const res = await fetch(`${app.url}/p/exportacion/${token}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, type: res.headers.get('content-type'), bytes, text: bytes.toString('utf8') };
}
