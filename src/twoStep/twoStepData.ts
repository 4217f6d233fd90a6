import type { Proof, ReauthResponse, TotpConfirmResponse, TotpSetup, TwoStepStatus } from '@contract/twoStep';
import type { DataModule } from '../providers/dataModule';
import type { HttpClient } from '../providers/http';

// A type alias (not an interface) so it fits DataModule's string-keyed method map.
export type TwoStepMethods = {
  twoStepStatus: () => Promise<TwoStepStatus>;
  startTotpSetup: () => Promise<TotpSetup>;
  confirmTotpSetup: (code: string) => Promise<TotpConfirmResponse>;
  disableTwoStep: (proof: Proof) => Promise<TwoStepStatus>;
  reauthenticate: (proof: Proof) => Promise<ReauthResponse>;
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
    },
  }) satisfies DataModule<TwoStepMethods>;
