import fs from 'node:fs';
import { z } from 'zod';
import { isLocalOrHttps } from './configValues';

/** A bad environment variable, named; server.ts prints the message and exits. */
export class ConfigError extends Error {
  constructor(
    public readonly variable: string,
    detail: string,
  ) {
    super(`Invalid configuration: ${variable} ${detail}`);
    this.name = 'ConfigError';
  }
}

const ServiceAccountJson = z.object({
  type: z.literal('service_account', { message: "type must be 'service_account' (a Google Cloud service-account key)" }).optional(),
  project_id: z.string({ message: 'project_id is missing' }).min(1, 'project_id is missing'),
  client_email: z.email({ message: 'client_email is missing or not an e-mail address' }),
  private_key: z.string({ message: 'private_key is missing' }).includes('PRIVATE KEY', { message: 'private_key is not a PEM private key' }),
  token_uri: z
    .url({ message: 'token_uri must be an absolute URL' })
    .refine(isLocalOrHttps, 'token_uri must use https (plain http only to this machine)')
    .default('https://oauth2.googleapis.com/token'),
});

/** The service-account key from FCM_SERVICE_ACCOUNT_JSON (inline) or FCM_SERVICE_ACCOUNT_FILE (a path). */
export function serviceAccount(inline: string | undefined, file: string | undefined): { variable: string; value: z.infer<typeof ServiceAccountJson> } | null {
  const variable = inline ? 'FCM_SERVICE_ACCOUNT_JSON' : file ? 'FCM_SERVICE_ACCOUNT_FILE' : null;
  if (!variable) return null;
  let text = inline;
  if (!text) {
    try {
      text = fs.readFileSync(file!, 'utf8');
    } catch (error) {
      throw new ConfigError(variable, `names a file that cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ConfigError(variable, 'is not JSON (expected the service-account key file Google Cloud downloads)');
  }
  const parsed = ServiceAccountJson.safeParse(json);
  if (!parsed.success) throw new ConfigError(variable, `is not a usable service-account key: ${parsed.error.issues[0]!.message}`);
  return { variable, value: parsed.data };
}
