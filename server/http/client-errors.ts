import type { Duplex } from 'node:stream';
import { ApiError } from '../errors';

/** What Node reports about a request it could not read, as the status and words a client gets. */
function statusOf(error: NodeJS.ErrnoException): [number, string, string] {
  if (error.code === 'HPE_HEADER_OVERFLOW')
    return [431, 'Request Header Fields Too Large', 'The request line or headers are larger than 16 KB'];
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return [408, 'Request Timeout', 'The request was not received in time'];
  return [400, 'Bad Request', 'Malformed HTTP request'];
}

/**
 * Node answers a request it cannot parse (malformed, headers too large, too slow) itself, with no
 * body; this answers with the one error body instead, then closes the connection.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex) {
  if (!socket.writable || (error.code === 'ECONNRESET' && !socket.readable)) return void socket.destroy();
  const [status, reason, message] = statusOf(error);
  const body = JSON.stringify(ApiError.validation(message).toBody());
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
