import type { Proof } from '@contract/twoStep';
import type { HttpClient } from './http';

/**
 * Sensitive actions (broadcasts, bulk actions, staff changes…) answer 403 { reauth_required: true }
 * when the staff member has not proved who they are recently. `withIdentityCheck` catches that
 * answer for every call of the dataProvider, asks (the ReauthDialog, which `identityChecks` feeds),
 * and sends the same call again once the check passed: the action is carried out, not lost. Calls
 * waiting at the same time share one question. A 403 { two_step_setup_required: true } (an owner
 * requires two-step and this account has none) opens the set-up instead.
 */

export interface IdentityQuestion {
  /** Sends the proof; rejects with the server's error (shown in the dialog) when it is wrong. */
  answer(proof: Proof): Promise<void>;
  /** The staff member gave up: the waiting calls fail with the original 403. */
  cancel(): void;
}

type Listener = (question: IdentityQuestion | null) => void;
const listeners = new Set<Listener>();
const setupListeners = new Set<() => void>();
let open: Promise<boolean> | null = null;

const bodyOf = (error: unknown) => (error as { body?: Record<string, unknown> } | null)?.body ?? null;
const statusOf = (error: unknown) => (error as { status?: unknown } | null)?.status;
export const isReauthRequired = (error: unknown) => statusOf(error) === 403 && bodyOf(error)?.reauth_required === true;
export const isTwoStepSetupRequired = (error: unknown) => statusOf(error) === 403 && bodyOf(error)?.two_step_setup_required === true;

export const identityChecks = {
  /** The dialog listens: a question to show, or null when it is over. */
  subscribe(listener: Listener) {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },
  /** The set-up listens: an owner requires two-step and this account has none. */
  onSetupRequired(listener: () => void) {
    setupListeners.add(listener);
    return () => void setupListeners.delete(listener);
  },
};

/** Asks once for everyone waiting; true when the check passed. */
function ask(http: HttpClient): Promise<boolean> {
  if (open) return open;
  // Nobody can answer (no dialog mounted, e.g. in a test of one component): fail as the server did.
  if (listeners.size === 0) return Promise.resolve(false);
  open = new Promise<boolean>((resolve) => {
    const finish = (passed: boolean) => {
      open = null;
      for (const listener of listeners) listener(null);
      resolve(passed);
    };
    const question: IdentityQuestion = {
      answer: async (proof) => {
        await http('/api/auth/reauth', { method: 'POST', body: JSON.stringify(proof) });
        finish(true);
      },
      cancel: () => finish(false),
    };
    for (const listener of listeners) listener(question);
  });
  return open;
}

export const withIdentityCheck =
  (http: HttpClient): HttpClient =>
  async (path, options) => {
    try {
      return await http(path, options);
    } catch (error) {
      if (isTwoStepSetupRequired(error)) for (const listener of setupListeners) listener();
      if (!isReauthRequired(error) || !(await ask(http))) throw error;
      return http(path, options);
    }
  };
