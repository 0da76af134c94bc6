import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';

/**
 * The types a third party generates from the API's document with
 * openapi-typescript (its defaults, as its CLI writes them), committed so
 * that the typed client's test (test/integration/cliente-tipado.test.ts) is
 * typechecked against them; that test checks the file is what the served
 * document generates today.
 */

/** The committed file, from the repository's root. */
export const ARCHIVO_TIPOS = 'test/support/api-v1.d.ts';
/** What writes it again from the document. */
export const REGENERAR = 'npm run openapi:tipos';

const CABECERA = `/**\n * Generado por openapi-typescript desde /api/v1/openapi.json: no lo edite a mano.\n * Para regenerarlo: ${REGENERAR}\n */\n\n`;

/** The TypeScript text of a document's types (`paths`, `components`, `operations`, `webhooks`). */
export async function tiposDe(documento: object): Promise<string> {
  // openapi-typescript works on its own copy: the caller's document stays as it was.
  const ast = await openapiTS(structuredClone(documento) as OpenAPI3);
  return CABECERA + astToString(ast);
}
