import { AppError } from '../../shared/errors';
import type { Entorno } from '../../shared/schemas/cuenta';
import { AccesosEftiQuery } from '../../shared/schemas/efti';
import { z } from '../../shared/schemas/zod';
import type { Services } from '../deps';
import type { Pasarela } from '../domain/actor';
import { listarAccesosEfti } from '../domain/efti/accesos';
import { type PeticionFirmada, verificarFirma } from '../domain/efti/firma';
import { LIMITE_MENSAJE_KB, leerMensaje, MensajeIlegible } from '../domain/efti/mensajes';
import { prepararRespuesta, type RespuestaPasarela, yaRecibida } from '../domain/efti/pasarela';
import { escritura } from '../domain/plan';
import { command } from './command';

export type { RespuestaPasarela };
export { LIMITE_MENSAJE_KB };

/** The setting that names the gate's secret of each environment, for the refusals. */
const VARIABLE: Record<Entorno, string> = { produccion: 'EFTI_GATE_SECRET', pruebas: 'EFTI_TEST_GATE_SECRET' };

/**
 * Whether a gate may ask this environment at all: 404 when no secret is
 * configured for it (the platform is not on the eFTI network there), before
 * anything of the request is read.
 */
export function exigirPasarelaConfigurada(services: Services, entorno: Entorno): void {
  if (services.efti.secretos[entorno] !== null) return;
  const donde = entorno === 'pruebas' ? 'del entorno de pruebas' : 'reales';
  throw new AppError('no_encontrado', `Esta plataforma no atiende consultas de pasarelas eFTI sobre datos ${donde}: no hay ninguna pasarela configurada (${VARIABLE[entorno]}).`);
}

/**
 * The gate a signed request comes from (domain/efti/firma.ts), checked
 * against the secret of the environment it was sent to: the test
 * environment's own secret for `/demo/efti/…`, so a real gate never gets
 * test data and a test gate never gets real data. 401 `no_autenticado`
 * otherwise.
 */
export function autenticarPasarela(services: Services, entorno: Entorno, peticion: PeticionFirmada): Pasarela {
  exigirPasarelaConfigurada(services, entorno);
  const secreto = services.efti.secretos[entorno] as string;
  const ahoraS = Math.floor(services.clock.now().getTime() / 1000);
  const { gateId, firmaSha256 } = verificarFirma({ gateId: services.efti.gateId, secreto }, peticion, ahoraS);
  return { pasarela: true, gateId, entorno, firmaSha256 };
}

const repetida = () => new AppError('no_autenticado', 'Esta petición firmada ya se recibió: firme cada petición de nuevo, con su hora, al enviarla.');

export const consultaPasarelaCommand = command({
  nombre: 'efti_consulta_pasarela',
  descripcion:
    'Una consulta de una pasarela eFTI autenticada (uilQuery o identifierQuery de la implementación de referencia), respondida con su mensaje (uilResponse o identifierResponse) y anotada en el registro de accesos de cada cuenta cuyos datos devuelve.',
  acceso: 'pasarela',
  entrada: z.object({ xml: z.string().max(LIMITE_MENSAJE_KB * 1024) }),
  preparar: async (ctx, { xml }) => {
    let mensaje: ReturnType<typeof leerMensaje>;
    try {
      mensaje = leerMensaje(xml);
    } catch (err) {
      if (err instanceof MensajeIlegible) throw new AppError('peticion_invalida', err.message);
      throw err;
    }
    if (await yaRecibida(ctx.db, ctx.quien)) throw repetida();
    const r = await prepararRespuesta({ db: ctx.db, efti: ctx.efti, ahora: ctx.clock.now() }, ctx.quien, mensaje);
    return escritura(r.escribir);
  },
});

export const accesosEftiCommand = command({
  nombre: 'efti_accesos',
  descripcion: 'El registro de accesos de autoridades a los datos de la cuenta a través de una pasarela eFTI: quién, cuándo, qué consultó y qué DeCA se le devolvieron.',
  acceso: 'lectura',
  // The log names DeCAs of the whole account: not for a driver, who sees only theirs.
  permiso: 'gestion',
  entrada: AccesosEftiQuery,
  preparar: async (ctx, q) => ({ valor: await listarAccesosEfti(ctx.db, ctx.quien, q) }),
});
