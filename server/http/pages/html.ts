import { createHash } from 'node:crypto';
import { html, raw, type SafeHtml } from '../../../shared/rules/html';

export { escapeHtml, html, raw, SafeHtml } from '../../../shared/rules/html';

/** A stylesheet inlined in the page and allowed by its CSP hash (no 'unsafe-inline'). */
export interface InlineStyle {
  css: string;
  hash: string;
}

export function inlineStyle(css: string): InlineStyle {
  const compact = css.replace(/\s*\n\s*/g, '').replace(/\s*([{}:;,>])\s*/g, '$1');
  return { css: compact, hash: `'sha256-${createHash('sha256').update(compact).digest('base64')}'` };
}

/** Security headers of every public page: CSP without inline script, no sniffing, no referrer leak, no indexing. */
export function pageHeaders(styles: InlineStyle | InlineStyle[], opts: { script?: boolean } = {}): Record<string, string> {
  const csp = [
    "default-src 'none'",
    "img-src 'self' data:",
    `style-src ${[styles]
      .flat()
      .map((s) => s.hash)
      .join(' ')}`,
    opts.script ? "script-src 'self'" : null,
    opts.script ? "connect-src 'self'" : null,
    "manifest-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ]
    .filter(Boolean)
    .join('; ');
  return {
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Robots-Tag': 'noindex, nofollow, noarchive',
    'X-Frame-Options': 'DENY',
    'Cache-Control': 'no-store',
  };
}

/** The document shell shared by the public pages. */
export function layout(opts: { title: string; style: InlineStyle; body: SafeHtml; head?: SafeHtml; script?: string }): string {
  return `<!doctype html>${html`<html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="color-scheme" content="only light"><meta name="robots" content="noindex,nofollow,noarchive"><meta name="referrer" content="no-referrer"><title>${opts.title}</title><style>${raw(opts.style.css)}</style>${opts.head ?? ''}</head><body>${opts.body}${opts.script ? html`<script src="${opts.script}" defer></script>` : ''}</body></html>`}`;
}
