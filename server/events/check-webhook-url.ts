import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { assertPublicUrl, ForbiddenDestinationError } from './ssrf-guard';

/** Refuses, at save time, webhook URLs that point inside our network (checked again at send time). */
export async function checkWebhookUrl(deps: Pick<Deps, 'config'>, url: string, path: string): Promise<void> {
  if (deps.config.webhookAllowPrivate) return;
  try {
    await assertPublicUrl(url);
  } catch (error) {
    if (error instanceof ForbiddenDestinationError)
      throw ApiError.field(path, `must be a public URL (${error.message})`);
    throw error;
  }
}
