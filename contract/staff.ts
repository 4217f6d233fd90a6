import { z } from 'zod';
import { Int4Id } from './ids';
import { ROLES } from './permissions';
import { jsonParam, rangeParam, sortParam } from './raSimpleRest';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, STAFF_STATUSES } from './staffRules';

export { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, STAFF_STATUSES } from './staffRules';

/** The staff screen (/staff, owners) and the user menu's 'Change password'; ra-data-simple-rest's dialect. */

export const RoleSchema = z.enum(ROLES, { message: `must be one of ${ROLES.join(', ')}` });

export const StaffStatus = z.enum(STAFF_STATUSES, { message: "must be 'active' or 'disabled'" });
export type StaffStatus = z.infer<typeof StaffStatus>;

const NewPassword = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`);

const Email = z
  .string()
  .trim()
  .max(320, 'must be at most 320 characters')
  .pipe(z.email({ message: 'must be an e-mail address' }));

export const StaffAccount = z.object({
  id: z.number().int(),
  email: z.string(),
  nickname: z.string(),
  role: RoleSchema,
  status: StaffStatus,
  last_sign_in_at: z.iso.datetime({ offset: true }).nullable(),
  created_at: z.iso.datetime({ offset: true }),
  has_password: z.boolean().describe('false: signs in only through the identity provider'),
  signs_in_with_oidc: z.boolean().describe('has signed in through the identity provider at least once'),
  two_step: z.boolean().describe('two-step sign-in is on: an authenticator app or at least one passkey'),
});
export type StaffAccount = z.infer<typeof StaffAccount>;

export const STAFF_SORT_FIELDS = ['email', 'nickname', 'role', 'status', 'last_sign_in_at', 'created_at', 'id'] as const;

export const StaffFilter = z
  .object({
    q: z.string().max(200, 'at most 200 characters').nullish().describe('e-mail or nickname contains'),
    role: RoleSchema.nullish(),
    status: StaffStatus.nullish(),
    id: z.array(Int4Id).max(500).nullish().describe('getMany: these ids'),
  })
  .strict();
export type StaffFilter = z.infer<typeof StaffFilter>;

export const StaffListQuery = z.object({
  sort: sortParam(STAFF_SORT_FIELDS).optional(),
  range: rangeParam.optional(),
  filter: jsonParam(StaffFilter, '{"role":"front_desk"}').optional(),
});

export const StaffParams = z.object({ id: Int4Id });

export const CreateStaffRequest = z.object({
  email: Email,
  role: RoleSchema,
  nickname: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters').optional(),
});

/** Only what the screen changes; react-admin sends the whole record, the other fields are ignored. */
export const UpdateStaffRequest = z.object({
  role: RoleSchema.optional(),
  status: StaffStatus.optional(),
});

/** A generated password, shown once: the server keeps only its hash. */
export const StaffWithPassword = StaffAccount.extend({
  password: z.string().describe('generated; shown once and never again'),
});
export type StaffWithPassword = z.infer<typeof StaffWithPassword>;

export const ChangeOwnPasswordRequest = z.object({
  current_password: z.string().max(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`),
  new_password: NewPassword,
});

export const ChangeOwnPasswordResponse = z.object({
  changed: z.literal(true),
  ended_sessions: z.number().int().describe('your other sessions, ended with the old password'),
});
export type ChangeOwnPasswordResponse = z.infer<typeof ChangeOwnPasswordResponse>;
