import type { StaffAccount } from '@contract/staff';
import type { Proof, ReauthResponse, SecuritySettings, SignInEntry, TotpConfirmResponse, TotpSetup, TwoStepStatus } from '@contract/twoStep';
import type { Passkey } from '@contract/passkeys';
import type { DataModule } from '../providers/dataModule';
import type { HttpClient } from '../providers/http';

// A type alias (not an interface) so it fits DataModule's string-keyed method map.
export type TwoStepMethods = {
  twoStepStatus: () => Promise<TwoStepStatus>;
  startTotpSetup: () => Promise<TotpSetup>;
  confirmTotpSetup: (code: string) => Promise<TotpConfirmResponse>;
  disableTwoStep: (proof: Proof) => Promise<TwoStepStatus>;
  reauthenticate: (proof: Proof) => Promise<ReauthResponse>;
  /** The member's own sign-ins (no id), or a staff member's (owners). */
  signInHistory: (staffId?: number) => Promise<SignInEntry[]>;
  securitySettings: () => Promise<SecuritySettings>;
  saveSecuritySettings: (settings: SecuritySettings) => Promise<SecuritySettings>;
  resetStaffTwoStep: (id: number) => Promise<StaffAccount>;
  passkeys: () => Promise<Passkey[]>;
  /** WebAuthn's creation options, passed as they are to @simplewebauthn/browser's startRegistration. */
  passkeyRegistrationOptions: () => Promise<Record<string, unknown>>;
  addPasskey: (name: string, response: unknown) => Promise<Passkey>;
  removePasskey: (id: number) => Promise<Passkey[]>;
  /** WebAuthn's request options for re-authentication, for startAuthentication; its answer goes to reauthenticate({ passkey }). */
  passkeyReauthOptions: () => Promise<Record<string, unknown>>;
};

const post = (body?: unknown) => ({ method: 'POST', ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

/** The user menu's two-step sign-in and the identity check before sensitive actions. */
export const twoStepData = (http: HttpClient) =>
  ({
    methods: {
      twoStepStatus: async () => (await http('/api/auth/two-step')).json as TwoStepStatus,
      startTotpSetup: async () => (await http('/api/auth/two-step/totp', post())).json as TotpSetup,
      confirmTotpSetup: async (code) => (await http('/api/auth/two-step/totp/confirm', post({ code }))).json as TotpConfirmResponse,
      disableTwoStep: async (proof) => (await http('/api/auth/two-step/disable', post(proof))).json as TwoStepStatus,
      reauthenticate: async (proof) => (await http('/api/auth/reauth', post(proof))).json as ReauthResponse,
      signInHistory: async (staffId) =>
        (await http(staffId === undefined ? '/api/admin/v1/account/sign-ins' : `/api/admin/v1/staff/${encodeURIComponent(staffId)}/sign-ins`))
          .json as SignInEntry[],
      securitySettings: async () => (await http('/api/admin/v1/security-settings')).json as SecuritySettings,
      saveSecuritySettings: async (settings) =>
        (await http('/api/admin/v1/security-settings', { method: 'PUT', body: JSON.stringify(settings) })).json as SecuritySettings,
      passkeys: async () => (await http('/api/auth/passkeys')).json as Passkey[],
      passkeyRegistrationOptions: async () => (await http('/api/auth/passkeys/registration-options', post())).json as Record<string, unknown>,
      addPasskey: async (name, response) => (await http('/api/auth/passkeys', post({ name, response }))).json as Passkey,
      removePasskey: async (id) => (await http(`/api/auth/passkeys/${encodeURIComponent(id)}`, { method: 'DELETE' })).json as Passkey[],
      passkeyReauthOptions: async () => (await http('/api/auth/passkeys/reauth-options', post())).json as Record<string, unknown>,
      resetStaffTwoStep: async (id) => (await http(`/api/admin/v1/staff/${encodeURIComponent(id)}/reset-two-step`, post())).json as StaffAccount,
    },
  }) satisfies DataModule<TwoStepMethods>;
