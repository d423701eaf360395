import { generateOpenApi } from '@ts-rest/open-api';
import type { OpenAPIObject, OperationObject } from 'openapi3-ts';
import { contract } from '../../contract';
import pkg from '../../package.json' with { type: 'json' };

/** openapi.json is generated from the contract, never written by hand; a test compares the two. */
export function generateOpenApiDocument(): OpenAPIObject {
  const document = generateOpenApi(
    contract,
    {
      info: {
        title: 'stablepay API',
        version: pkg.version,
        description:
          'Stablecoin payment orders (USDT and USDC on Solana, USDT on Polygon and Ethereum). Amounts are decimal strings with at most 6 decimal places. Every error has the body {"error": {"code", "message", "details"}}.',
      },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    {
      setOperationId: 'concatenated-path',
      operationMapper: (operation: OperationObject, route) => ({
        ...operation,
        ...((route.metadata as { auth?: string } | undefined)?.auth === 'merchant'
          ? { security: [{ bearerAuth: [] }] }
          : {}),
      }),
    },
  );
  return document;
}
