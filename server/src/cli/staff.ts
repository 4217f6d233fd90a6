import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { listStaffUsers, removeStaffUser, upsertStaffUser } from '../auth/staff';
import { randomPassword } from '../auth/password';

const usage = `Usage:
  npm run staff -- list
  npm run staff -- add <email> [--password P] [--nickname N]   (creates, or resets the password; prints a generated one)
  npm run staff -- remove <email>`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { password: { type: 'string' }, nickname: { type: 'string' } },
});
const [command, email] = positionals;
if (!command || !['list', 'add', 'remove'].includes(command) || (command !== 'list' && !email)) {
  console.error(usage);
  process.exit(2);
}
if (values.password !== undefined && values.password.length < 8) {
  console.error('--password must be at least 8 characters');
  process.exit(2);
}

const config = loadConfig();
const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.dataDir });
try {
  if (command === 'list') {
    const users = await listStaffUsers(database.db);
    if (users.length === 0) console.log('No staff accounts.');
    for (const user of users) {
      console.log(`${user.email}\t${user.nickname}\t${user.last_sign_in_at ? `last sign-in ${user.last_sign_in_at.toISOString()}` : 'never signed in'}`);
    }
  } else if (command === 'add') {
    const password = values.password ?? randomPassword();
    const { created } = await upsertStaffUser(database.db, { email: email!, password, nickname: values.nickname });
    console.log(`${created ? 'Created' : 'Updated'} ${email!.toLowerCase()}${values.password ? '' : ` with password: ${password}`}`);
  } else {
    const removed = await removeStaffUser(database.db, email!);
    console.log(removed ? `Removed ${email}` : `No staff account ${email}`);
    if (!removed) process.exitCode = 1;
  }
} finally {
  await database.close();
}
