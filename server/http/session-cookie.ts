import type { AppContext } from './context';

export const SESSION_COOKIE = 'deca_sesion';

/** HttpOnly, SameSite=Lax, Secure on an https site; expires with the session. */
export function setSessionCookie(ctx: AppContext, token: string, expiresAt: Date, secure: boolean): void {
  ctx.cookies.secure = secure || ctx.cookies.secure;
  ctx.cookies.set(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: '/',
    expires: expiresAt,
    overwrite: true,
  });
}

export function clearSessionCookie(ctx: AppContext, secure: boolean): void {
  ctx.cookies.secure = secure || ctx.cookies.secure;
  ctx.cookies.set(SESSION_COOKIE, '', { httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge: 0, overwrite: true });
}
