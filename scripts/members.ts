/**
 * `npm run members -- <command>`: member administration, budgets and usage reports against
 * PROXY_URL with ADMIN_TOKEN from the environment. For the local stack both default to
 * http://127.0.0.1:8787 and the ADMIN_TOKEN in .dev.vars.
 *
 *   add NAME [--email ADDRESS] | list | revoke ID | rotate ID
 *   scope ID [--models ID,ID|all|none] [--expires YYYY-MM-DD|never] | email ID ADDRESS|none
 *   budget ID [LIMIT] [--period month|total] [--max-running N]
 *   team-budget [LIMIT] [--period month|total]
 *   usage [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--csv]
 *   access-keys ID [revoke KEYID]
 *
 * Arguments are checked here (scripts/lib/members-args.ts) before any call; the proxy checks them too.
 */
import { AdminClient } from './lib/admin-client';
import { readDevVars } from './lib/dev-vars';
import { formatBudget, formatUsage, memberNames, parseMembersArgs, scopeLine, UsageError } from './lib/members-args';

const USAGE = `Usage: npm run members -- <command>
  add NAME [--email ADDRESS]
                           create a member; prints its token once (the email: for sign-in with
                           Cloudflare Access, docs/identity.md)
  list                     list members
  revoke ID                revoke a member's token at once
  rotate ID                replace a member's token; prints the new token once
  scope ID [--models ID,ID|all|none] [--expires YYYY-MM-DD|never]
                           show a member's scope, or set it: the models they may use, and the day
                           (00:00 UTC) every token of theirs expires; options left out keep their value
  email ID ADDRESS|none    set or clear the email a member signs in with
  budget ID [LIMIT] [--period month|total] [--max-running N]
                           show a member's budget, or set it: LIMIT an amount in the price table's
                           currency or none; N tasks running at once at most, or none; options
                           left out keep their value
  team-budget [LIMIT] [--period month|total]
                           show or set the whole team's budget
  usage [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--csv]
                           tasks, seconds and cost per day, member and model (default: this month
                           so far, UTC) with totals; --csv prints the proxy's CSV
                           (npm run -s members -- usage --csv > usage.csv)
  access-keys ID [revoke KEYID]
                           list a member's access keys (for the service's SDK; never a secret),
                           or revoke one at once
Environment: PROXY_URL (default http://127.0.0.1:8787, the local stack), ADMIN_TOKEN (default: from .dev.vars).`;

function client(): AdminClient {
  const proxyUrl = process.env.PROXY_URL ?? 'http://127.0.0.1:8787';
  const adminToken = process.env.ADMIN_TOKEN ?? (process.env.PROXY_URL ? undefined : readDevVars().ADMIN_TOKEN);
  if (!adminToken) throw new Error('ADMIN_TOKEN is not set. Export the admin token of the proxy at PROXY_URL.');
  return new AdminClient(proxyUrl, adminToken);
}

const printToken = (label: string, id: string, token: string) =>
  console.log(`${label} ${id}\nToken (shown once; give it to the member for the extension's options page):\n${token}`);

async function main(argv: string[]): Promise<void> {
  const args = parseMembersArgs(argv);
  switch (args.command) {
    case 'help':
      return console.log(USAGE);
    case 'add': {
      const member = await client().add(args.name, args.email);
      return printToken(`Added member "${member.name}":`, member.id, member.token);
    }
    case 'list': {
      const members = await client().list();
      if (!members.length) return console.log('No members yet. Add one with: npm run members -- add NAME');
      console.table(members.map((m) => ({ id: m.id, name: m.name, email: m.email ?? '', created: m.createdAt, status: m.revoked ? 'revoked' : 'active', access: scopeLine(m.scope) })));
      return;
    }
    case 'scope': {
      const admin = client();
      const scope = args.change ? await admin.setScope(args.id, args.change) : (await admin.list()).find((m) => m.id === args.id)?.scope;
      if (!scope) throw new Error(`No member ${args.id} (see: npm run members -- list).`);
      return console.log(`${args.change ? 'Scope set for' : 'Scope of'} ${args.id}: ${scopeLine(scope)}`);
    }
    case 'email': {
      const member = await client().setEmail(args.id, args.email);
      return console.log(member.email ? `${member.name} (${member.id}) signs in as ${member.email}.` : `${member.name} (${member.id}) has no email now.`);
    }
    case 'revoke':
      await client().revoke(args.id);
      return console.log(`Revoked ${args.id}; its token no longer works.`);
    case 'rotate': {
      const rotated = await client().rotate(args.id);
      return printToken('New token for', rotated.id, rotated.token);
    }
    case 'budget': {
      const admin = client();
      const state = args.change ? await admin.setMemberBudget(args.id, args.change) : await admin.memberBudget(args.id);
      const name = (await admin.list()).find((m) => m.id === args.id)?.name;
      return console.log(formatBudget(`${args.change ? 'Budget set for' : 'Budget of'} ${name ? `"${name}" (${args.id})` : args.id}:`, state));
    }
    case 'team-budget': {
      const admin = client();
      const state = args.change ? await admin.setTeamBudget(args.change) : await admin.teamBudget();
      return console.log(formatBudget(args.change ? "Team budget set (all members' tasks together):" : "Team budget (all members' tasks together):", state));
    }
    case 'access-keys': {
      const admin = client();
      if (args.revoke) {
        await admin.revokeAccessKey(args.id, args.revoke);
        return console.log(`Revoked access key ${args.revoke} of ${args.id}; calls signed with it are refused from now on.`);
      }
      const keys = await admin.accessKeys(args.id);
      if (!keys.length) return console.log(`${args.id} holds no access key (a member makes one with POST /proxy/access-keys).`);
      console.table(keys.map((k) => ({ id: k.id, label: k.label, accessKeyId: k.accessKeyId, created: k.createdAt, lastUsed: k.lastUsedAt ?? 'never' })));
      return;
    }
    case 'usage': {
      const admin = client();
      // As is, for `> usage.csv`: the proxy's header line, CRLF rows.
      if (args.csv) return void process.stdout.write(await admin.usageCsv(args.query));
      const [report, members] = await Promise.all([admin.usage(args.query), admin.list()]);
      return console.log(formatUsage(report, memberNames(members)));
    }
  }
}

main(process.argv.slice(2)).catch((error: Error) => {
  console.error(error instanceof UsageError ? `${error.message}\n\n${USAGE}` : error.message);
  process.exit(1);
});
