import { isRole, ROLES, type Role } from '@contract/permissions';
import { PASSWORD_MIN_LENGTH } from '@contract/staff';
import { findStaffByEmail, listStaffUsers } from '../staff/queries';
import { changeStaff, createStaff, removeStaff, resetStaffPassword, viewStaff, type StaffActor } from '../staff/admin';
import { HttpError } from '../lib/errors';
import { resetTwoStep } from '../auth/twoStep';
import { hasPasskey } from '../auth/passkeys';
import { cliArgs, cliConfig, cliDatabase } from './common';

const usage = `Usage:
  npm run staff -- list
  npm run staff -- add <email> --role <role> [--password P] [--nickname N]
        creates the account (prints a generated password unless --password is given);
        for an existing account, sets a new password (and the role, with --role) and ends its sessions
  npm run staff -- role <email> <role>
  npm run staff -- disable <email>      (its sessions end at once)
  npm run staff -- enable <email>
  npm run staff -- remove <email>
  npm run staff -- reset-two-step <email>   (turns its two-step sign-in off, for a lost phone; its sessions end)
Roles: ${ROLES.join(', ')}. There is always at least one active owner.`;

const COMMANDS = ['list', 'add', 'role', 'disable', 'enable', 'remove', 'reset-two-step'];

const { values, positionals } = cliArgs(
  {
    allowPositionals: true,
    options: { password: { type: 'string' }, nickname: { type: 'string' }, role: { type: 'string' }, help: { type: 'boolean' } },
  },
  usage,
);
const [command, email, roleArgument] = positionals;
const usageError = (message: string): never => {
  console.error(`✖ ${message}\n${usage}`);
  process.exit(2);
};
if (!command || !COMMANDS.includes(command)) usageError(command ? `Unknown command '${command}'.` : 'Name a command.');
if (command !== 'list' && !email) usageError(`'${command}' needs the account's e-mail.`);
if (values.password !== undefined && values.password.length < PASSWORD_MIN_LENGTH) usageError(`--password must be at least ${PASSWORD_MIN_LENGTH} characters.`);
const roleText = command === 'role' ? roleArgument : values.role;
if (command === 'role' && roleText === undefined) usageError("'role' needs the new role after the e-mail.");
if (roleText !== undefined && !isRole(roleText)) usageError(`'${roleText}' is not a role: use one of ${ROLES.join(', ')}.`);
const role = roleText as Role | undefined;

const config = cliConfig();
const database = await cliDatabase(
  config,
  'Stop the server first, then run this again (PGlite lets one process at a time open its data). ' +
    "While the server runs, an owner can do the same on the console's Staff screen (/staff).",
);
// The CLI acts as the system: its audit entries name no staff member and say where they came from.
const actor: StaffActor = { staff: null, ip: null, via: 'npm run staff' };

/** A refusal to print; thrown so the database still closes before the process ends. */
class Refusal extends Error {}
const pad = (text: string, width: number) => text.padEnd(width);
async function existing(address: string) {
  const user = await findStaffByEmail(database, address);
  if (!user) throw new Refusal(`No staff account ${address.toLowerCase()}. Add it with: npm run staff -- add ${address} --role <role>`);
  return user;
}

try {
  if (command === 'list') {
    const accounts = (await listStaffUsers(database)).map((user) => viewStaff(user));
    if (accounts.length === 0) console.log('No staff accounts.');
    const width = Math.max(5, ...accounts.map((account) => account.email.length));
    if (accounts.length > 0) console.log(`${pad('EMAIL', width)}  ${pad('ROLE', 10)}  ${pad('STATUS', 8)}  LAST SIGN-IN`);
    for (const account of accounts) {
      console.log(`${pad(account.email, width)}  ${pad(account.role, 10)}  ${pad(account.status, 8)}  ${account.last_sign_in_at ?? 'never'}`);
    }
  } else if (command === 'add') {
    const found = await findStaffByEmail(database, email!);
    if (!found) {
      if (!role) throw new Refusal(`A new account needs --role (${ROLES.join(', ')}).`);
      const { user, password } = await createStaff(database, { email: email!, role: role!, nickname: values.nickname, password: values.password }, actor);
      console.log(`Created ${user.email} (${user.role})${values.password ? '' : ` with password: ${password}`}`);
    } else {
      // The role first: when the last-owner rule refuses it, the password stays as it was.
      if (role && role !== found.role) await changeStaff(database, found.id, { role }, actor);
      const { user, password, endedSessions } = await resetStaffPassword(database, found.id, actor, values.password);
      console.log(
        `Updated ${user.email}: new password${values.password ? '' : `: ${password}`}${role && role !== found.role ? `, role ${role}` : ''}; ${endedSessions} session(s) ended`,
      );
    }
  } else if (command === 'role') {
    const user = await existing(email!);
    const { after } = await changeStaff(database, user.id, { role }, actor);
    console.log(after.role === user.role ? `${user.email} is already ${role}` : `${user.email}: ${user.role} → ${after.role}`);
  } else if (command === 'disable' || command === 'enable') {
    const user = await existing(email!);
    const { endedSessions } = await changeStaff(database, user.id, { status: command === 'disable' ? 'disabled' : 'active' }, actor);
    console.log(`${user.email} is ${command === 'disable' ? `disabled (${endedSessions} session(s) ended)` : 'active'}`);
  } else if (command === 'reset-two-step') {
    const user = await existing(email!);
    if (!user.two_step_at && !(await hasPasskey(database, user.id))) throw new Refusal(`${user.email} has no two-step sign-in to reset.`);
    const { endedSessions } = await resetTwoStep(database, user.id, { staff: null, ip: null, at: new Date(), via: 'npm run staff' });
    console.log(`${user.email}: two-step sign-in is off (${endedSessions} session(s) ended)`);
  } else {
    const removed = await removeStaff(database, email!, actor);
    if (!removed) throw new Refusal(`No staff account ${email!.toLowerCase()}`);
    console.log(`Removed ${removed.email}`);
  }
} catch (error) {
  // The rules' refusals (the last owner, a taken e-mail) are answers, not crashes.
  if (!(error instanceof HttpError || error instanceof Refusal)) throw error;
  console.error(`✖ ${error.message}`);
  process.exitCode = 1;
} finally {
  await database.close();
}
