// The console's API types (web/src/api/schema.d.ts) must match the server's /openapi.json: regenerate
// with `npm run gen:api` after changing a route's schema.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateApiTypes, SCHEMA_FILE } from '../../scripts/gen-api-types.ts';

describe('console API types', () => {
  it('are generated from the current OpenAPI document', async () => {
    const fresh = await generateApiTypes();
    const checkedIn = readFileSync(SCHEMA_FILE, 'utf8');
    expect(checkedIn === fresh, 'web/src/api/schema.d.ts is stale: run npm run gen:api').toBe(true);
    expect(fresh).toContain('"/v1/auth/sign-in"');
  }, 60_000);
});
