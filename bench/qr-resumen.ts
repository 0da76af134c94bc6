/**
 * The size of the QR a DeCA issued with no coverage shows: its ficha URL with
 * the device-signed summary, for the longest realistic names (a trailer, a
 * weight with decimals, the driver), at error correction M. Prints the URL's
 * length, the summary's bits, the QR's version and modules, which texts were
 * cut, and the same for the first format (what phones wrote before).
 *
 * Run: npx tsx bench/qr-resumen.ts
 */
import { qrModules } from '../shared/pdf/qr';
import { EscritorBits, escribirTexto } from '../shared/rules/bits';
import { BITS_RESUMEN, base64url, codificarResumen, leerParametro, urlConResumen } from '../shared/rules/resumen-offline';
import { FICHA_PEOR_CASO, RESUMEN_PEOR_CASO } from '../test/support/resumen-peor-caso';
import { codificarResumenV1 } from '../test/support/resumen-v1';

const version = (url: string) => (qrModules(url).size - 17) / 4;
const firma = new Uint8Array(64).fill(0xa5);

for (const [nombre, host] of [
  ['host de 15 caracteres', FICHA_PEOR_CASO],
  ['host de 40 caracteres', FICHA_PEOR_CASO.replace('deca.example.es', 'deca.transportes-ejemplo-largo.example.es')],
] as const) {
  const resumen = codificarResumen(RESUMEN_PEOR_CASO);
  const url = urlConResumen(host, resumen, firma);
  const leido = leerParametro(new URL(url).searchParams.get('o')!)!;
  const v = version(url);
  console.log(
    `${nombre}: URL ${url.length} caracteres, resumen ${resumen.length} bytes (máximo ${BITS_RESUMEN / 8}), QR versión ${v} (${17 + 4 * v}×${17 + 4 * v} módulos), cortados: ${leido.resumen.cortados.join(', ') || 'ninguno'}`,
  );
}
const tipica = {
  ...RESUMEN_PEOR_CASO,
  cargador_nombre: 'Frutas Peñalara, S.A.',
  transp_nombre: 'Transportes Núñez, S.L.',
  origen: 'Lleida',
  destino: 'Mercamálaga, Málaga',
  naturaleza: 'Melocotón en cajas',
  conductor: 'José Ángel Muñoz',
};
const urlTipica = urlConResumen(FICHA_PEOR_CASO, codificarResumen(tipica), firma);
console.log(`una DeCA corriente (nombres y lugares cortos, remolque, conductor): URL ${urlTipica.length} caracteres, QR versión ${version(urlTipica)}`);
const nombres = ['cargador_nombre', 'transp_nombre', 'origen', 'destino', 'naturaleza', 'conductor'] as const;
for (const [que, r] of [
  ['peor caso', RESUMEN_PEOR_CASO],
  ['corriente', tipica],
] as const) {
  const w = new EscritorBits();
  for (const c of nombres) escribirTexto(w, r[c] ?? '');
  const letras = nombres.reduce((n, c) => n + [...(r[c] ?? '')].length, 0);
  console.log(
    `nombres, lugares, mercancía y conductor (${que}): ${letras} caracteres en ${w.length} bits, ${(w.length / letras).toFixed(2)} bits por carácter (UTF-8: ${((8 * new TextEncoder().encode(nombres.map((c) => r[c] ?? '').join('')).length) / letras).toFixed(2)})`,
  );
}
const v1 = `${FICHA_PEOR_CASO}?o=${codificarResumenV1(RESUMEN_PEOR_CASO)}.${base64url(firma)}`;
console.log(`formato anterior (sin mercancía ni conductor, nombres a 24 y lugares a 20): URL ${v1.length} caracteres, QR versión ${version(v1)}`);
