import { generateOpenApi } from '@ts-rest/open-api';
import type { OpenAPIObject, OperationObject } from 'openapi3-ts';
import { contract } from '../../contract';
import pkg from '../../package.json' with { type: 'json' };
import { OPERATION_EXAMPLES, errorExample } from './examples';

type Json = Record<string, unknown>;

/** Adds the example of each documented body (request, success and error responses). */
function withExamples(operation: OperationObject, path: string): OperationObject {
  // Solana Pay wallets read a top-level `message` on the transaction-request path (as the server sends).
  const solanaPay = /^\/pay\/(tx-request\/|refunds\/[^/]+\/tx-request)/.test(path);
  const examples = OPERATION_EXAMPLES[operation.operationId ?? ''];
  const json = (content: Json | undefined) => content?.['application/json'] as Json | undefined;
  const requestContent = json((operation.requestBody as { content?: Json } | undefined)?.content);
  if (requestContent && examples?.request !== undefined) requestContent.example = examples.request;
  for (const [status, response] of Object.entries(operation.responses as Record<string, Json>)) {
    const content = json(response.content as Json | undefined);
    const error = errorExample(Number(status));
    const example =
      examples?.responses[Number(status)] ??
      (error && solanaPay ? { ...error, message: error.error.message } : error);
    if (content && example !== undefined) content.example = example;
  }
  return operation;
}

/** `z.unknown()` comes out as `{nullable: true}` with no type, which OpenAPI 3.0 does not allow: it means any value. */
function normaliseSchemas(node: unknown): void {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) return node.forEach(normaliseSchemas);
  const obj = node as Json;
  const typed = ['type', '$ref', 'oneOf', 'anyOf', 'allOf'].some((k) => k in obj);
  if (obj.nullable === true && !typed) delete obj.nullable;
  // A nullable union: OpenAPI 3.0 wants `nullable` beside a `type`, so each member carries it.
  for (const union of ['anyOf', 'oneOf'] as const)
    if (obj.nullable === true && !('type' in obj) && Array.isArray(obj[union])) {
      for (const member of obj[union] as Json[]) if ('type' in member) member.nullable = true;
      delete obj.nullable;
    }
  Object.values(obj).forEach(normaliseSchemas);
}

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
      operationMapper: (operation: OperationObject, route) =>
        withExamples(
          {
            ...operation,
            // Merchant routes take the bearer token; public routes say explicitly that they need none.
            security:
              (route.metadata as { auth?: string } | undefined)?.auth === 'merchant'
                ? [{ bearerAuth: [] }]
                : [],
          },
          route.path,
        ),
    },
  );
  normaliseSchemas(document.paths);
  return document;
}
