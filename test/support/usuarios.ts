import { expect } from 'vitest';
import type { RolUsuario } from '../../shared/rules/roles';
import { SesionResponse } from '../../shared/schemas/cuenta';
import type { TestApp } from './app';
import { sessionCookieOf } from './decas-helpers';

const CSRF = { 'X-DeCA-CSRF': '1' };
let seq = 0;

/** The token of the last invitation e-mailed to `email`, from the mail outbox. */
export async function tokenInvitacion(app: TestApp, email: string): Promise<string> {
  const correos = await app.database.db.selectFrom('correos').selectAll().where('destinatario', '=', email).where('tipo', '=', 'invitacion').orderBy('id', 'desc').execute();
  const url = correos[0]?.texto.match(/https?:\/\/\S+\/invitacion\/([\w-]+)/);
  if (!url?.[1]) throw new Error(`ninguna invitación a ${email}`);
  return url[1];
}

/** An administrator (by session cookie) invites a new address with a role, and the link is accepted: the new user's session. */
export async function usuarioCon(app: TestApp, admin: string, rol: RolUsuario): Promise<{ cookie: string; email: string; id: number }> {
  const email = `persona${++seq}-${Date.now()}-${rol}@example.com`;
  const inv = await app.request('POST', '/app/api/usuarios', { cookie: admin, headers: CSRF, body: { email, rol } });
  expect(inv.status, inv.text).toBe(201);
  const token = await tokenInvitacion(app, email);
  const res = await app.request('POST', `/app/api/invitacion/${token}`, { headers: CSRF, body: { password: 'una-clave-bien-larga' } });
  expect(res.status, res.text).toBe(201);
  return { cookie: sessionCookieOf(res), email, id: SesionResponse.parse(res.body).usuario.id };
}
