import type { AppMiddleware } from '../context';

/**
 * Powerful features the pages may use, for the app's own origin only: the
 * camera (photographing a delivery note), the position (added to a proof of
 * delivery only when the driver asks) and the screen wake lock (the QR
 * shown to an agent stays on); none of the others. Only names
 * Chromium knows (156 has no `bluetooth` here): an unknown one is logged as a
 * console warning on every page. A feature the app starts to use is enabled here.
 */
export const PERMISSIONS_POLICY = [
  'camera=(self)',
  'microphone=()',
  'geolocation=(self)',
  'payment=()',
  'usb=()',
  'serial=()',
  'hid=()',
  'midi=()',
  'display-capture=()',
  'accelerometer=()',
  'gyroscope=()',
  'magnetometer=()',
  'idle-detection=()',
  'local-fonts=()',
  'window-management=()',
  'xr-spatial-tracking=()',
  'screen-wake-lock=(self)',
  'clipboard-read=()',
  'encrypted-media=()',
  'publickey-credentials-get=()',
  'otp-credentials=()',
  'browsing-topics=()',
].join(', ');

/**
 * Headers every answer carries, whatever produced it (API JSON, error bodies,
 * PDFs, PNGs, public pages, the app's files). Set before the rest runs, just
 * inside withErrors, which keeps headers when it writes an error body.
 * - `nosniff`: a browser never runs an answer as another type than declared
 *   (a PDF or a JSON body with user text read as HTML or script).
 * - `no-referrer`: public URLs carry secret tokens; nothing of ours needs the
 *   Referer. The public pages set the same.
 * - HSTS only when the site is served over https (`SITE_URL`): on plain http
 *   browsers ignore it, and a development host must not be pinned.
 * The app shell's Content-Security-Policy is set where it is served
 * (routes/static.ts); the public pages set their own.
 */
export function withSecurityHeaders(opts: { siteUrl: string }): AppMiddleware {
  const headers: Record<string, string> = {
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Permissions-Policy': PERMISSIONS_POLICY,
  };
  if (opts.siteUrl.startsWith('https:')) headers['Strict-Transport-Security'] = 'max-age=31536000';
  return async (ctx, next) => {
    ctx.set(headers);
    await next();
  };
}
