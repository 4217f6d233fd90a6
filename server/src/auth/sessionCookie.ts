import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ABSOLUTE_TIMEOUT_MS, SESSION_COOKIE } from './sessions';
import { signIn, type SignInMethod } from './signInOut';
import type { StaffUser } from '../staff/queries';

/** The cookies of the sign-in pages: HttpOnly, SameSite=Lax, Secure behind https. */
export function cookieOptions(app: FastifyInstance, request: FastifyRequest) {
  const https = request.protocol === 'https' || (app.config.PUBLIC_URL ?? '').startsWith('https://');
  return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: https };
}

/** A fresh session id at every sign-in: any id the browser brought along is destroyed. */
export async function startSession(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, user: StaffUser, method: SignInMethod) {
  await app.sessions.destroy(request.cookies[SESSION_COOKIE]);
  const token = await signIn(app, user, method, { ip: request.ip, userAgent: request.headers['user-agent'] });
  reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions(app, request), maxAge: ABSOLUTE_TIMEOUT_MS / 1000 });
}
