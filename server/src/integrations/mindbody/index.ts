import type { Config } from '../../config';
import type { Clock } from '../../types';
import { createMindbodyClient } from './client';
import { createMindbodySandbox } from './sandbox';

export type { MindbodyApi, MindbodyClientPage, ClientPageOptions, CallMeter } from './api';
export type { MindbodyClientRecord, MindbodyVisitRecord, MindbodyContractRecord, MindbodyAutopayEvent, Attendance } from './mapping';
export { mapClient, mapVisit, mapContract, parseMindbodyDate } from './mapping';
export { MindbodyError } from './errors';
export { SANDBOX_SITE_ID } from './sandbox';

/** The live client when the Mindbody credentials are configured; the sandbox site otherwise. */
export function createMindbody(config: Config, clock: Clock) {
  return config.mindbody
    ? createMindbodyClient(config.mindbody, { now: () => clock.now() }, config.mindbodyTimeZoneOf)
    : createMindbodySandbox(clock, config.mindbodyTimeZoneOf);
}
