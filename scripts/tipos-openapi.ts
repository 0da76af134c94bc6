/**
 * Writes test/support/api-v1.d.ts, the types openapi-typescript generates
 * from the production API's document, as a third party would from
 * /api/v1/openapi.json. Run: npm run openapi:tipos
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { documentoOpenApi } from '../server/http/openapi';
import { ROOT } from '../test/support/processes';
import { ARCHIVO_TIPOS, tiposDe } from '../test/support/tipos-openapi';

// As served: the JSON text of the document, parsed (the server's URL appears in no type).
const documento = JSON.parse(JSON.stringify(documentoOpenApi('https://deca.example', 'produccion'))) as object;
writeFileSync(path.join(ROOT, ARCHIVO_TIPOS), await tiposDe(documento));
console.log(`${ARCHIVO_TIPOS} escrito.`);
