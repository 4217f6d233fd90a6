import type { Config } from '../../config';
import type { Clock } from '../../types';
import { createFcmClient } from './client';
import { createFcmSandbox } from './sandbox';
import type { FcmSender } from './types';

export type { FcmSender, PushMessage, TokenOutcome, TokenResult } from './types';
export type { FcmConfig, ServiceAccount } from './client';
export { createFcmClient } from './client';
export { createFcmSandbox } from './sandbox';

/** The live FCM HTTP v1 client when a service account is configured; the sandbox otherwise. */
export function createFcm(config: Config, clock: Clock): FcmSender {
  return config.fcm ? createFcmClient(config.fcm, { now: () => clock.now() }) : createFcmSandbox(clock);
}
