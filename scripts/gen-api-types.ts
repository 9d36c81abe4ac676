// Regenerates web/src/api/schema.d.ts from the server's OpenAPI document (npm run gen:api). With --check
// it only compares and exits 1 when the checked-in file is stale (test/web/api-types.test.ts runs it).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { openApiDocument } from './openapi.ts';

export const SCHEMA_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../web/src/api/schema.d.ts');
const HEADER =
  "// Generated from the server's /openapi.json by `npm run gen:api` (scripts/gen-api-types.ts). Do not edit.\n";

export async function generateApiTypes(): Promise<string> {
  const doc = await openApiDocument();
  const ast = await openapiTS(doc as Parameters<typeof openapiTS>[0]);
  return HEADER + astToString(ast);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const text = await generateApiTypes();
  if (process.argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(SCHEMA_FILE, 'utf8');
    } catch {
      /* missing */
    }
    if (current !== text) {
      console.error(`${SCHEMA_FILE} is stale: run npm run gen:api`);
      process.exit(1);
    }
    console.log('API types are up to date');
  } else {
    writeFileSync(SCHEMA_FILE, text);
    console.log(`wrote ${SCHEMA_FILE}`);
  }
}
