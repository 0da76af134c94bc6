import type { DecaUrls } from '../../../shared/schemas/deca';

/** Public URLs of a DeCA: an unguessable token (≥128 random bits), never the id or the number. */
export function decaUrls(siteUrl: string, row: { token_publico: string; token_completar: string | null; estado: string }): DecaUrls {
  const base = `${siteUrl}/d/${row.token_publico}`;
  return {
    ficha: base,
    pdf: `${base}.pdf`,
    qr_png: `${base}/qr.png`,
    conductor: `${base}/conductor`,
    completar: row.estado === 'pendiente' && row.token_completar ? `${siteUrl}/completar/${row.token_completar}` : null,
  };
}

/** Where the QR points: the public page an inspector opens. */
export function fichaUrl(siteUrl: string, tokenPublico: string): string {
  return `${siteUrl}/d/${tokenPublico}`;
}
