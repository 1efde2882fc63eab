/**
 * `npm run members -- add NAME | list | revoke ID | rotate ID`: member administration against
 * PROXY_URL with ADMIN_TOKEN from the environment. For the local stack both default to
 * http://127.0.0.1:8787 and the ADMIN_TOKEN in .dev.vars.
 */
import { AdminClient } from './lib/admin-client';
import { readDevVars } from './lib/dev-vars';

const USAGE = `Usage: npm run members -- <command>
  add NAME     create a member; prints its token once
  list         list members
  revoke ID    revoke a member's token at once
  rotate ID    replace a member's token; prints the new token once
Environment: PROXY_URL (default http://127.0.0.1:8787, the local stack), ADMIN_TOKEN (default: from .dev.vars).`;

function client(): AdminClient {
  const proxyUrl = process.env.PROXY_URL ?? 'http://127.0.0.1:8787';
  const adminToken = process.env.ADMIN_TOKEN ?? (process.env.PROXY_URL ? undefined : readDevVars().ADMIN_TOKEN);
  if (!adminToken) throw new Error('ADMIN_TOKEN is not set. Export the admin token of the proxy at PROXY_URL.');
  return new AdminClient(proxyUrl, adminToken);
}

const printToken = (label: string, id: string, token: string) =>
  console.log(`${label} ${id}\nToken (shown once; give it to the member for the extension's options page):\n${token}`);

async function main([command, arg, ...rest]: string[]): Promise<void> {
  if (rest.length) throw new Error(`Unexpected arguments: ${rest.join(' ')}\n${USAGE}`);
  switch (command) {
    case 'add': {
      if (!arg?.trim()) throw new Error(`add needs a NAME.\n${USAGE}`);
      const member = await client().add(arg);
      return printToken(`Added member "${member.name}":`, member.id, member.token);
    }
    case 'list': {
      const members = await client().list();
      if (!members.length) return console.log('No members yet. Add one with: npm run members -- add NAME');
      console.table(members.map((m) => ({ id: m.id, name: m.name, created: m.createdAt, status: m.revoked ? 'revoked' : 'active' })));
      return;
    }
    case 'revoke':
      if (!arg) throw new Error(`revoke needs an ID (see: npm run members -- list).\n${USAGE}`);
      await client().revoke(arg);
      return console.log(`Revoked ${arg}; its token no longer works.`);
    case 'rotate': {
      if (!arg) throw new Error(`rotate needs an ID (see: npm run members -- list).\n${USAGE}`);
      const rotated = await client().rotate(arg);
      return printToken('New token for', rotated.id, rotated.token);
    }
    default:
      throw new Error(command ? `Unknown command "${command}".\n${USAGE}` : USAGE);
  }
}

main(process.argv.slice(2)).catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
