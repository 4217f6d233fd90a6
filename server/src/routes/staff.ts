import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '@contract/common';
import { contentRange, Int4IdParams } from '@contract/raSimpleRest';
import {
  ChangeOwnPasswordRequest,
  ChangeOwnPasswordResponse,
  CreateStaffRequest,
  StaffAccount,
  StaffListQuery,
  StaffWithPassword,
  UpdateStaffRequest,
} from '@contract/staff';
import { auditActor } from '../audit/record';
import { AUTHENTICATION_REQUIRED } from '../auth/guard';
import { changeOwnPassword, changeStaff, createStaff, getStaff, resetStaffPassword, viewStaff } from '../staff/admin';
import { listStaffUsers } from '../staff/queries';
import { pageStaff } from '../staff/list';
import { createLoginThrottle } from '../auth/throttle';
import { countCheck } from '../auth/reauth';
import { HttpError } from '../lib/errors';
import { SecuritySettings } from '@contract/twoStep';
import { resetTwoStep } from '../auth/twoStep';
import { hasPasskey, passkeyHolders } from '../auth/passkeys';
import { isTwoStepRequired, setTwoStepRequired } from '../auth/twoStepRule';

const ADMIN = '/api/admin/v1';
const tags = ['staff (extension)'];

/** The staff screen (owners: 'staff.manage') and each staff member's own password ('signed_in'). */
const staffRoutes: FastifyPluginAsyncZod = async (app) => {
  const throttle = createLoginThrottle(app.database, () => app.clock.now());
  const fieldError = (path: string, message: string) => new HttpError(400, `Invalid request: ${path}: ${message}`, [{ path, message }]);

  app.get(
    `${ADMIN}/staff`,
    {
      config: { permission: 'staff.manage' },
      schema: {
        tags,
        summary: 'Staff accounts with role, status and last sign-in (ra-data-simple-rest getList/getMany)',
        querystring: StaffListQuery,
        response: { 200: z.array(StaffAccount), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { sort = ['email', 'ASC'], filter = {} } = request.query;
      const range = request.query.range ?? [0, filter.id?.length ? filter.id.length - 1 : 24];
      const holders = await passkeyHolders(app.database);
      const accounts = (await listStaffUsers(app.database)).map((user) => viewStaff(user, holders.has(user.id)));
      const { rows, total } = pageStaff(accounts, { sort, range, filter });
      reply.header('content-range', contentRange('staff', range[0], rows.length, total));
      return rows;
    },
  );

  app.get(
    `${ADMIN}/staff/:id`,
    {
      config: { permission: 'staff.manage' },
      schema: { tags, summary: 'One staff account', params: Int4IdParams, response: { 200: StaffAccount, ...errorResponses } },
    },
    async (request) => viewStaff(await getStaff(app.database, request.params.id), await hasPasskey(app.database, request.params.id)),
  );

  app.post(
    `${ADMIN}/staff`,
    {
      config: { permission: 'staff.manage', reauth: true },
      schema: {
        tags,
        summary: 'Add a staff member with a role; the answer holds a generated password, shown once',
        body: CreateStaffRequest,
        response: { 200: StaffWithPassword, ...errorResponses },
      },
    },
    async (request) => {
      const { user, password } = await createStaff(app.database, request.body, auditActor(request));
      return { ...viewStaff(user), password };
    },
  );

  app.put(
    `${ADMIN}/staff/:id`,
    {
      config: { permission: 'staff.manage', reauth: true },
      schema: {
        tags,
        summary: "Change a staff member's role or status; disabling ends their sessions at once",
        description: 'Refused (409) when it would leave no active owner. Other fields of the record are ignored.',
        params: Int4IdParams,
        body: UpdateStaffRequest,
        response: { 200: StaffAccount, ...errorResponses },
      },
    },
    async (request) => {
      const { after } = await changeStaff(app.database, request.params.id, request.body, auditActor(request));
      app.sessions.forgetUser(request.params.id);
      return viewStaff(after, await hasPasskey(app.database, after.id));
    },
  );

  app.post(
    `${ADMIN}/staff/:id/reset-password`,
    {
      config: { permission: 'staff.manage', reauth: true },
      schema: {
        tags,
        summary: 'Give a staff member a new generated password (shown once) and end their sessions',
        params: Int4IdParams,
        response: { 200: StaffWithPassword, ...errorResponses },
      },
    },
    async (request) => {
      if (request.params.id === request.staff?.id) throw new HttpError(400, 'Change your own password from the user menu (it asks for the current one).');
      const { user, password } = await resetStaffPassword(app.database, request.params.id, auditActor(request));
      app.sessions.forgetUser(user.id);
      return { ...viewStaff(user), password };
    },
  );

  app.post(
    `${ADMIN}/staff/:id/reset-two-step`,
    {
      config: { permission: 'staff.manage', reauth: true },
      schema: {
        tags,
        summary: "Turn off a staff member's two-step sign-in (a lost phone) and end their sessions",
        params: Int4IdParams,
        response: { 200: StaffAccount, ...errorResponses },
      },
    },
    async (request) => {
      if (request.params.id === request.staff?.id)
        throw new HttpError(400, 'Turn your own two-step sign-in off from the user menu (it asks for a code or your password).');
      const { user } = await resetTwoStep(app.database, request.params.id, auditActor(request));
      app.sessions.forgetUser(user.id);
      return viewStaff(user, await hasPasskey(app.database, user.id));
    },
  );

  app.get(
    `${ADMIN}/security-settings`,
    {
      config: { permission: 'staff.manage' },
      schema: { tags, summary: "The owner's security rules (two-step sign-in for everyone)", response: { 200: SecuritySettings, ...errorResponses } },
    },
    async () => ({ require_two_step: await isTwoStepRequired(app) }),
  );

  app.put(
    `${ADMIN}/security-settings`,
    {
      config: { permission: 'staff.manage', reauth: true },
      schema: {
        tags,
        summary: 'Require two-step sign-in for every staff account (audited); an account without it sets it up at its next call',
        body: SecuritySettings,
        response: { 200: SecuritySettings, ...errorResponses },
      },
    },
    async (request) => {
      // As Stripe does: the owner turning the rule on has two-step already, so it locks nobody out by surprise.
      if (request.body.require_two_step && !request.staff?.two_step_at && !(request.staff && (await hasPasskey(app.database, request.staff.id)))) {
        throw new HttpError(
          409,
          'Turn on two-step sign-in (an authenticator app or a passkey) for your own account first (user menu, Two-step sign-in), then require it for everyone.',
        );
      }
      await app.database.transaction((tx) => setTwoStepRequired(app, tx, request.body.require_two_step, auditActor(request)));
      return { require_two_step: request.body.require_two_step };
    },
  );

  app.post(
    `${ADMIN}/account/password`,
    {
      config: { permission: 'signed_in' },
      schema: {
        tags,
        summary: 'Change your own password (with the current one); your other sessions end',
        body: ChangeOwnPasswordRequest,
        response: { 200: ChangeOwnPasswordResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const staff = request.staff;
      if (!staff) throw new HttpError(401, AUTHENTICATION_REQUIRED);
      if (!staff.password_hash) throw new HttpError(400, 'Your account signs in through your identity provider and has no password here.');
      if (request.body.new_password === request.body.current_password) throw fieldError('body.new_password', 'must differ from the current password');
      // Counted like a sign-in: a stolen session cannot guess the password to take the account over.
      const { account, address } = await countCheck(throttle, request, reply, staff.email);
      const changed = await changeOwnPassword(
        app.database,
        app.sessions,
        { staffId: staff.id, keepSessionId: request.sessionId, current: request.body.current_password, next: request.body.new_password },
        auditActor(request),
      );
      if (!changed) throw fieldError('body.current_password', 'is not your current password');
      await throttle.succeeded(account, address);
      app.sessions.forgetUser(staff.id);
      return { changed: true as const, ended_sessions: changed.endedSessions };
    },
  );
};

export default staffRoutes;
