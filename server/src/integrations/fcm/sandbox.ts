import type { Clock } from '../../types';
import type { FcmSender } from './types';

/**
 * The embedded default: every push counts as delivered, nothing leaves the machine. A token that
 * contains 'UNREGISTERED' is answered as FCM answers an uninstalled app, so the dead-token path
 * can be tried without Google.
 */
export function createFcmSandbox(clock: Clock): FcmSender {
  let sequence = 0;
  return {
    mode: 'sandbox',
    async send(token) {
      if (token.includes('UNREGISTERED')) {
        return { token, outcome: 'dead', code: 'UNREGISTERED', error: 'The app is no longer installed on this device (sandbox)' };
      }
      sequence++;
      return { token, outcome: 'sent', message_id: `projects/sandbox/messages/${clock.now().getTime()}-${sequence}` };
    },
  };
}
