// The only door from the client to the shared zod schemas. zod and the schemas
// weigh ~26 KB gzip, more than a third of what the first screen may load: the
// screens that validate (the DeCA form, sign-up, error bodies) import this
// module, statically inside their own lazy chunk or with import(), and the list
// and the sign-in screen never pay for it. The service worker precaches the
// chunk, so validation still works offline.
import './zod-sin-eval'; // first: zod must be configured before a schema is built

export { ErrorBody, issuesToCampos } from '../../shared/errors';
export { ENTRADAS_AGENDA } from '../../shared/schemas/agenda';
export { EmpresaPatch, PASSWORD_MIN, RegistroInput, SesionInput } from '../../shared/schemas/cuenta';
export { DecaInput, LONGITUD_MAXIMA } from '../../shared/schemas/deca';
export { EntregaInput, FOTO_ENTREGA_MAXIMA, LADO_FOTO_ENTREGA, LONGITUD_ENTREGA, MAX_FOTOS_ENTREGA } from '../../shared/schemas/entrega';
export { LONGITUD_ENVIO, UNIDADES } from '../../shared/schemas/envio';
export { EVENTOS } from '../../shared/schemas/webhook';
