import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import QRCode from 'qrcode';
import { errorResponses } from '@contract/common';
import { SignInEntry, ProofRequest, ReauthResponse, TotpConfirmRequest, TotpConfirmResponse, TotpSetup, TwoStepStatus } from '@contract/twoStep';
import { auditActor, recordAudit } from '../audit/record';
import { AUTHENTICATION_REQUIRED } from '../auth/guard';
import { countCheck, proveIdentity, reauthValidUntil } from '../auth/reauth';
import type { StaffUser } from '../staff/queries';
import { createLoginThrottle } from '../auth/throttle';
import { CODE_FIELD_ERROR, confirmTotpSetup, removeTwoStep, startTotpSetup, twoStepStatus } from '../auth/twoStep';
import { isTwoStepRequired } from '../auth/twoStepRule';
import { HttpError } from '../lib/errors';
import { signInHistory } from '../auth/signInHistory';
import { contentRange, Int4IdParams } from '@contract/raSimpleRest';
import { z } from 'zod';
import secondStepPage from './signInSecondStep';

const tags = ['two-step (extension)'];

/** The member's own two-step set-up and re-authentication (docs/security-signin.md#two-step-sign-in). */
const twoStepRoutes: FastifyPluginAsyncZod = async (app) => {
  // The second step of a sign-in posts an HTML form: in its own scope, so these JSON calls answer 415 to a form body.
  await app.register(secondStepPage);
  const throttle = createLoginThrottle(app.database, () => app.clock.now());

  const staffOf = (request: { staff: StaffUser | null }) => {
    if (!request.staff) throw new HttpError(401, AUTHENTICATION_REQUIRED);
    return request.staff;
  };

  app.get(
    '/api/auth/two-step',
    {
      config: { permission: 'signed_in', twoStepSetup: true },
      schema: {
        tags,
        summary: 'Whether two-step sign-in is on for you, and how many recovery codes are left',
        response: { 200: TwoStepStatus, ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { ...(await twoStepStatus(app.database, staffOf(request))), required: await isTwoStepRequired(app) };
    },
  );

  app.post(
    '/api/auth/two-step/totp',
    {
      config: { permission: 'signed_in', twoStepSetup: true },
      schema: {
        tags,
        summary: 'Start setting up an authenticator app: a new secret and its otpauth:// URI (and QR code), to be confirmed with a code',
        response: { 200: TotpSetup, ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const setup = await startTotpSetup(app.database, staffOf(request), app.clock.now());
      return { ...setup, qr_svg: await QRCode.toString(setup.otpauth_uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }) };
    },
  );

  app.post(
    '/api/auth/two-step/totp/confirm',
    {
      config: { permission: 'signed_in', twoStepSetup: true },
      schema: {
        tags,
        summary: 'Confirm the authenticator with a code: two-step is on, and ten recovery codes are returned (shown once)',
        body: TotpConfirmRequest,
        response: { 200: TotpConfirmResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const staff = staffOf(request);
      const { account, address } = await countCheck(throttle, request, reply, staff.email);
      const codes = await confirmTotpSetup(app.database, staff, request.body.code, auditActor(request));
      if (!codes)
        throw new HttpError(400, `Invalid request: body.code: ${CODE_FIELD_ERROR}`, [
          { path: 'body.code', message: 'is not the code your authenticator app shows' },
        ]);
      await throttle.succeeded(account, address);
      app.sessions.forgetUser(staff.id);
      return { recovery_codes: codes };
    },
  );

  app.post(
    '/api/auth/two-step/disable',
    {
      config: { permission: 'signed_in' },
      schema: {
        tags,
        summary: 'Turn two-step sign-in off for yourself, with your password or a code (refused while an owner requires it)',
        body: ProofRequest,
        response: { 200: TwoStepStatus, ...errorResponses },
      },
    },
    async (request, reply) => {
      const staff = staffOf(request);
      if (!staff.two_step_at) throw new HttpError(409, 'Two-step sign-in is not on for your account.');
      if (await isTwoStepRequired(app)) throw new HttpError(409, 'An owner requires two-step sign-in for every staff account, so it cannot be turned off.');
      await proveIdentity(app, throttle, request, reply, staff, request.body, 'two_step_disable');
      await app.database.transaction((tx) => removeTwoStep(tx, staff.id, auditActor(request), 'auth.two_step_disable'));
      app.sessions.forgetUser(staff.id);
      return { enabled: false, enabled_at: null, recovery_codes_left: 0, required: false };
    },
  );

  app.post(
    '/api/auth/reauth',
    {
      config: { permission: 'signed_in' },
      schema: {
        tags,
        summary: 'Confirm it is you (password or code) before sensitive actions; valid for REAUTH_MINUTES',
        body: ProofRequest,
        response: { 200: ReauthResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const staff = staffOf(request);
      const method = await proveIdentity(app, throttle, request, reply, staff, request.body, 'reauth');
      const at = app.clock.now();
      await app.database.transaction(async (tx) => {
        await recordAudit(tx, { ...auditActor(request), action: 'auth.reauth', target_type: 'staff_user', target_id: staff.id, after: { method } });
      });
      await app.sessions.markVerified(request.sessionId!, at);
      return { reauthenticated: true as const, valid_until: reauthValidUntil(at, app.config.REAUTH_MINUTES).toISOString() };
    },
  );

  const history = async (staffUserId: number, reply: { header(name: string, value: string): unknown }) => {
    const rows = await signInHistory(app.database, staffUserId);
    reply.header('cache-control', 'no-store');
    reply.header('content-range', contentRange('sign-ins', 0, rows.length, rows.length));
    return rows;
  };

  app.get(
    '/api/admin/v1/account/sign-ins',
    {
      config: { permission: 'signed_in' },
      schema: { tags, summary: 'Your sign-ins and failed attempts, newest first (the last 50)', response: { 200: z.array(SignInEntry), ...errorResponses } },
    },
    async (request, reply) => history(staffOf(request).id, reply),
  );

  app.get(
    '/api/admin/v1/staff/:id/sign-ins',
    {
      config: { permission: 'staff.manage' },
      schema: {
        tags,
        summary: "A staff member's sign-ins and failed attempts, newest first (the last 50)",
        params: Int4IdParams,
        response: { 200: z.array(SignInEntry), ...errorResponses },
      },
    },
    async (request, reply) => history(request.params.id, reply),
  );
};

export default twoStepRoutes;
