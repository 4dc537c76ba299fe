import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openApiDocument } from '../shared/http/openapi';
import { octoDocument } from '../shared/octo/openapi';

/**
 * Writes the OpenAPI document to a file (default build/openapi.json, git-ignored)
 * for `npm run lint:openapi` and anyone who wants it as a file.
 */
const target = path.resolve(process.argv[2] ?? 'build/openapi.json');
mkdirSync(path.dirname(target), { recursive: true });
writeFileSync(target, `${JSON.stringify(openApiDocument({ octo: octoDocument }), null, 2)}\n`);
console.log(`OpenAPI document written to ${path.relative(process.cwd(), target)}`);
