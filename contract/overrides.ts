import { z } from 'zod';
import { Client } from './clients';
import { OVERRIDE_MAX_DAYS_LIMIT } from './clientRules';
import { Id, wholeNumber } from './ids';
import { jsonParam, rangeParam, sortParam } from './raSimpleRest';

/** Overrides staff manage. The Overrides list's 'ending soon' filter. */
export const OVERRIDE_ENDING_SOON_DAYS = 7;

/** GET /api/admin/v1/overrides (ra-data-simple-rest): one row per client whose override runs now. */
export const RunningOverride = z.object({
  id: z.number().int().describe("The client's id (one running override per client)"),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  email_address: z.string().nullable(),
  level: z.number().int().nullable().describe('sort_order of the level the override gives'),
  level_name: z.string().nullable(),
  starts_at: z.iso.datetime().nullable().describe('When it was granted (null for overrides from before the override history)'),
  ends_at: z.iso.datetime(),
  granted_by: z.string().nullable().describe("The staff member's e-mail"),
  reason: z.string().nullable(),
});
export type RunningOverride = z.infer<typeof RunningOverride>;

export const OVERRIDE_SORT_FIELDS = ['ends_at', 'starts_at'] as const;

export const OverridesQuery = z.object({
  filter: jsonParam(
    z.strictObject({
      ending_within_days: wholeNumber({
        min: 1,
        max: OVERRIDE_MAX_DAYS_LIMIT,
        message: `ending_within_days must be a whole number from 1 to ${OVERRIDE_MAX_DAYS_LIMIT}`,
      }).optional(),
      client_id: Id.optional(),
    }),
    `{"ending_within_days":${OVERRIDE_ENDING_SOON_DAYS}}`,
  ).optional(),
  range: rangeParam.optional(),
  sort: sortParam(OVERRIDE_SORT_FIELDS).optional().describe('Default ["ends_at","ASC"]: the soonest end first'),
});

/** DELETE /api/admin/v1/clients/{id}/override: ends the running override now. */
export const EndOverrideParams = z.object({ id: Id });
export const EndOverrideResponse = z.object({
  client: Client.describe('The client as it is now: back on the purchase-derived level (else the replaced one, else free)'),
});
export type EndOverrideResponse = z.infer<typeof EndOverrideResponse>;
