import { writeFileSync } from 'node:fs';
import { generateOpenApiDocument } from '../server/docs/openapi';

/** Writes openapi.json from the contract. Run after any contract change and commit the result. */
writeFileSync(
  new URL('../openapi.json', import.meta.url),
  `${JSON.stringify(generateOpenApiDocument(), null, 2)}\n`,
);
console.log('openapi.json written');
