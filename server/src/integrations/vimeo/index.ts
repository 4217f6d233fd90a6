import type { Config } from '../../config';
import { createVimeoClient } from './client';
import { createSandboxCatalogue } from './sandbox';
import type { VimeoCatalogue } from './types';

export type { CatalogueVideo, CataloguePage, VimeoCatalogue } from './types';
export { VimeoError } from './types';

/** The real Vimeo API when VIMEO_ACCESS_TOKEN is set, the sandbox catalogue otherwise. */
export function createVimeoCatalogue(config: Config, log?: { warn(details: object, message: string): void }): VimeoCatalogue {
  const vimeo = config.vimeo;
  if (vimeo.kind === 'vimeo') return createVimeoClient({ baseUrl: vimeo.apiUrl, token: vimeo.token, userId: vimeo.userId, log });
  return createSandboxCatalogue({ pageDelayMs: vimeo.pageDelayMs, urlPrefix: config.SERVER_PREFIX });
}
