import { utf8Bytes } from '../../shared/rules/hmac-sha256';
import { base64url, LARGO_LUGAR, LARGO_NOMBRE, type ResumenOffline } from '../../shared/rules/resumen-offline';

/**
 * The summary as phones wrote it before the compact format (the code as it
 * was, kept here only to make summaries like those the phones in the field
 * still show): fields between separators, base64url of the UTF-8, names cut
 * to 24 characters and places to 20, the total weight in kg.
 */
export function codificarResumenV1(r: ResumenOffline): string {
  const SEP = '\u001f';
  const t = (s: string) => s.split(SEP).join(' ');
  const cortar = (s: string, n: number) => [...s].slice(0, n).join('');
  const kg = r.peso && (r.peso.unidad === 'kg' || r.peso.unidad === 't') ? r.peso.valor * (r.peso.unidad === 't' ? 1000 : 1) : null;
  const campos = [
    '1',
    r.numero,
    t(cortar(r.cargador_nombre, LARGO_NOMBRE)),
    t(r.cargador_nif),
    t(cortar(r.transp_nombre, LARGO_NOMBRE)),
    t(r.transp_nif),
    r.fecha.replaceAll('-', ''),
    t(r.matricula),
    t(r.remolque ?? ''),
    t(cortar(r.origen, LARGO_LUGAR)),
    t(cortar(r.destino, LARGO_LUGAR)),
    kg === null ? '' : String(kg),
    r.huella,
    Math.floor(r.emitida_at.getTime() / 1000).toString(36),
  ];
  return base64url(utf8Bytes(campos.join(SEP)));
}
