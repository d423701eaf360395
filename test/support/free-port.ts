/** Tests and scripts use the service's own helper. */
export { freePort } from '../../server/lib/free-port';
