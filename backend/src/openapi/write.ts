// `npm run openapi -w @folio/backend`: writes backend/openapi.json from the route schemas. The web app's
// client is generated from that file; a test fails when it is stale.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { generateOpenApiDocument } from './generate.js';

export const OPENAPI_FILE = path.resolve(import.meta.dirname, '../../openapi.json');

writeFileSync(OPENAPI_FILE, await generateOpenApiDocument());
console.log(`wrote ${OPENAPI_FILE}`);
